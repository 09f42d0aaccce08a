/**
 * What the markdown view lets through: only links a person can follow safely, and text with the few
 * character references the lexer leaves encoded turned back into the characters they stand for.
 * No HTML is ever parsed; these helpers only look at strings.
 */

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The href to put on a link, or undefined when it must be shown as plain text (javascript:, data:, relative). */
export function safeHref(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return undefined;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Turns `&lt;`, `&#60;`, `&#x3c;` (and the other common ones) back into characters; unknown ones stay as typed. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
