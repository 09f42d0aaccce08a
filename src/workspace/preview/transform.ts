/**
 * One workspace file as the preview serves it. Scripts become ES modules (TypeScript, TSX and JSX through
 * sucrase, which keeps every line where it was, so a stack's line is the source's line), CommonJS files
 * become a function the frame's `require` runs, CSS becomes a module that adds a <style>, JSON a module
 * whose default export is the value, and anything else an asset whose URL is the default export.
 */
import { init as initCjsLexer, parse as parseCjs } from "cjs-module-lexer";
import { init as initEsLexer, parse as parseEsm } from "es-module-lexer";
import { transform as sucrase } from "sucrase";
import { errorMessage } from "../../base/error-message.js";

type ModuleKind = "esm" | "cjs" | "css" | "json" | "asset";

/** An import written in a module: its specifier and where it sits in `code`, to be replaced by the module's key. */
interface ImportSite {
  specifier: string;
  start: number;
  end: number;
  /** `import("x")`: a failure to resolve is left to run time rather than failing the page. */
  dynamic: boolean;
}

export interface TransformedModule {
  kind: ModuleKind;
  /** JavaScript for esm and cjs; the CSS text for css; the JSON text for json; empty for an asset. */
  code: string;
  imports: ImportSite[];
  /** cjs: the specifiers passed to require(), and the names cjs-module-lexer finds it exports. */
  requires: string[];
  cjsExports: string[];
  cjsReexports: string[];
  /** css: the url(...) references, with where they sit in `code`. */
  urls: ImportSite[];
}

const SCRIPT = /\.(m?[jt]sx?|cjs|cts)$/;
const TYPESCRIPT = /\.(m?ts|cts|tsx)$/;
const JSX = /\.(jsx|tsx)$/;

function moduleKind(path: string): ModuleKind {
  if (SCRIPT.test(path)) return "esm";
  if (path.endsWith(".css")) return "css";
  if (path.endsWith(".json")) return "json";
  return "asset";
}

let lexersReady: Promise<unknown> | undefined;
/** Both lexers are WebAssembly: they are ready once this settles. */
export function initLexers(): Promise<unknown> {
  lexersReady ??= Promise.all([initEsLexer(), initCjsLexer()]);
  return lexersReady;
}

/** What Vite puts in `import.meta.env` during development. */
const IMPORT_META_ENV = '{"BASE_URL":"/","MODE":"development","DEV":true,"PROD":false,"SSR":false}';

class TransformError extends Error {
  override readonly name = "TransformError";
}

function transpile(path: string, source: string): string {
  const transforms: Array<"typescript" | "jsx"> = [];
  if (TYPESCRIPT.test(path)) transforms.push("typescript");
  if (JSX.test(path)) transforms.push("jsx");
  if (transforms.length === 0) return source;
  try {
    return sucrase(source, { transforms, jsxRuntime: "automatic", production: false, filePath: path, disableESTransforms: true }).code;
  } catch (error) {
    // sucrase names the file itself ("Error transforming /x.tsx: ..."): said once, as every other error.
    throw new TransformError(`${path}: ${errorMessage(error).replace(/^Error transforming \S+: /, "")}`);
  }
}

const REQUIRE_CALL = /(?<![\w$.])require\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

function looksCommonJs(path: string, code: string, hasModuleSyntax: boolean): boolean {
  if (path.endsWith(".cjs") || path.endsWith(".cts")) return true;
  if (path.endsWith(".mjs") || path.endsWith(".mts") || hasModuleSyntax) return false;
  return /\b(module\.exports|exports\.[\w$]+\s*=|require\s*\()/.test(code);
}

/** Needs initLexers() to have settled. */
export function transformModule(path: string, source: string): TransformedModule {
  const kind = moduleKind(path);
  const empty = { imports: [], requires: [], cjsExports: [], cjsReexports: [], urls: [] };
  if (kind === "json") return { ...empty, kind, code: source };
  if (kind === "asset") return { ...empty, kind, code: "" };
  if (kind === "css") return { ...empty, kind, code: source, urls: cssUrls(source) };

  const code = transpile(path, source).replaceAll("import.meta.env", IMPORT_META_ENV);
  let imports: ReturnType<typeof parseEsm>[0];
  let hasModuleSyntax: boolean;
  try {
    const parsed = parseEsm(code, path);
    imports = parsed[0];
    hasModuleSyntax = parsed[3];
  } catch (error) {
    // es-module-lexer reports a position; a CommonJS file with odd syntax can still be lexed as CommonJS.
    if (!looksCommonJs(path, code, false)) throw new TransformError(`${path}: cannot be parsed as JavaScript (${String(error)})`);
    imports = [];
    hasModuleSyntax = false;
  }
  if (looksCommonJs(path, code, hasModuleSyntax)) {
    const requires = [...new Set([...code.matchAll(REQUIRE_CALL)].map((match) => match[2]!))];
    let exports: readonly string[] = [];
    let reexports: readonly string[] = [];
    try {
      ({ exports, reexports } = parseCjs(code));
    } catch {
      // Without names, `import x from` still gets module.exports as its default.
    }
    return { ...empty, kind: "cjs", code, requires, cjsExports: [...exports], cjsReexports: [...reexports] };
  }
  const sites: ImportSite[] = [];
  const seen = new Set<number>();
  for (const site of imports) {
    if (site.type === "import-meta" || typeof site.specifier !== "string" || seen.has(site.start)) continue;
    seen.add(site.start);
    // A dynamic import's start..end is its string literal, quotes included; a static one's excludes them.
    if (site.type === "dynamic") {
      const quote = code[site.start];
      if (quote !== '"' && quote !== "'") continue;
      sites.push({ specifier: site.specifier, start: site.start + 1, end: site.end - 1, dynamic: true });
    } else sites.push({ specifier: site.specifier, start: site.start, end: site.end, dynamic: false });
  }
  return { ...empty, kind: "esm", code, imports: sites };
}

const CSS_URL = /url\(\s*(["']?)([^"')]+)\1\s*\)/g;

/** The url(...) references of a style sheet that name a file (not data:, not http:, not #fragment). */
function cssUrls(css: string): ImportSite[] {
  const sites: ImportSite[] = [];
  for (const match of css.matchAll(CSS_URL)) {
    const url = match[2]!.trim();
    if (/^(data:|https?:|#|\/\/)/i.test(url)) continue;
    const start = match.index + match[0].indexOf(match[2]!);
    sites.push({ specifier: url, start, end: start + match[2]!.length, dynamic: false });
  }
  return sites;
}
