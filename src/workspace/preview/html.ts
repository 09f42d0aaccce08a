/**
 * The app's HTML page, with each reference to a workspace file handed to a callback that says what to
 * write instead: module scripts become an import of their key (the frame's import map says where each key
 * is), classic scripts, style sheets, icons and images a placeholder the frame replaces with a blob: URL.
 * A tag-level rewrite by regular expressions, as a dev server's index.html is simple; a reference it cannot
 * resolve is left as written.
 */

export interface HtmlReference {
  /** module: <script type="module" src>; inline-module: its text; script: classic <script src>; the rest are files. */
  kind: "module" | "inline-module" | "script" | "stylesheet" | "asset";
  /** The URL as written, or the inline module's text. */
  value: string;
  /** inline-module: how many lines of the page come before its text (so its lines can keep the page's numbers). */
  linesBefore?: number;
}

/** Returns the markup to write instead of the tag, or undefined to keep the tag as it is. */
export type HtmlRewriter = (reference: HtmlReference) => Promise<string | undefined>;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const MEDIA = /<(link|img|source|video|audio|input)\b([^>]*?)\/?>/gi;
const ATTRIBUTE = /([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const raw = match[2] ?? "";
    const value = raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1) : raw;
    found.set(match[1]!.toLowerCase(), decodeEntities(value));
  }
  return found;
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|quot|#39|lt|gt);/g, (_, name: string) => ({ amp: "&", quot: '"', "#39": "'", lt: "<", gt: ">" })[name]!);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

async function replaceAsync(
  text: string,
  pattern: RegExp,
  replace: (match: RegExpMatchArray) => Promise<string | undefined>,
): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const replacement = await replace(match);
    if (replacement === undefined) continue;
    parts.push(text.slice(last, match.index), replacement);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.join("");
}

function isLocal(url: string): boolean {
  return url !== "" && !/^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(url);
}

/** Swaps one attribute's value in a tag's attribute text. */
function withAttribute(text: string, name: string, value: string): string {
  const pattern = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*'|[^\\s>]+)`, "i");
  return text.replace(pattern, (_, lead: string) => `${lead}"${escapeAttribute(value)}"`);
}

export async function rewriteHtml(html: string, rewrite: HtmlRewriter): Promise<string> {
  const withScripts = await replaceAsync(html, SCRIPT, async (match) => {
    const attrs = attributes(match[1]!);
    const src = attrs.get("src");
    const type = (attrs.get("type") ?? "").toLowerCase();
    if (type === "module") {
      if (src !== undefined) return isLocal(src) ? rewrite({ kind: "module", value: src }) : undefined;
      const contentStart = match.index! + match[0].indexOf(">") + 1;
      const linesBefore = html.slice(0, contentStart).split("\n").length - 1;
      return rewrite({ kind: "inline-module", value: match[2]!, linesBefore });
    }
    if (src === undefined || !isLocal(src) || (type !== "" && !type.includes("javascript"))) return undefined;
    const url = await rewrite({ kind: "script", value: src });
    return url === undefined ? undefined : `<script${withAttribute(match[1]!, "src", url)}></script>`;
  });
  return replaceAsync(withScripts, MEDIA, async (match) => {
    const tag = match[1]!.toLowerCase();
    const attrs = attributes(match[2]!);
    let text = match[2]!;
    let changed = false;
    const names = tag === "link" ? ["href"] : tag === "video" ? ["src", "poster"] : ["src"];
    for (const name of names) {
      const value = attrs.get(name);
      if (value === undefined || !isLocal(value)) continue;
      const rel = (attrs.get("rel") ?? "").toLowerCase();
      if (tag === "link" && !/\b(stylesheet|icon|apple-touch-icon|manifest|preload)\b/.test(rel)) continue;
      const kind = tag === "link" && /\bstylesheet\b/.test(rel) ? "stylesheet" : "asset";
      const url = await rewrite({ kind, value });
      if (url === undefined) continue;
      text = withAttribute(text, name, url);
      changed = true;
    }
    return changed ? `<${match[1]}${text}>` : undefined;
  });
}
