/**
 * The frontmatter of a markdown agent (`---` lines around YAML-ish `key: value` pairs, the body after).
 * There is no YAML package in the app, and agent files use a small corner of YAML, so this reads that
 * corner and says plainly when a file steps outside it.
 *
 * Supported: `key: value` lines; nested maps by indentation, to any depth (`permission:` then
 * `  bash:` then `    "git *": ask`); quoted keys and values ("..." with backslash escapes, '...' with ''
 * for a quote); true/false, null/~/empty, integers and decimals; `#` comments (a whole line, or after a space
 * in a plain value); a plain value continued on more-indented lines (joined with spaces, as YAML folds it);
 * and, as OpenCode's retry does, a plain value holding ": " (`description: Use it when: reviewing`).
 *
 * Not supported (each is a clear error naming the line): lists (`- item`, `[a, b]`), flow maps (`{a: b}`),
 * block scalars (`|`, `>`), anchors and aliases (`&x`, `*x`; so a `*` key must be quoted: `"*": deny`),
 * tags (`!!str`), and several documents in one file.
 */

type FrontmatterValue = string | number | boolean | null | FrontmatterMap;
interface FrontmatterMap {
  [key: string]: FrontmatterValue;
}

export interface Frontmatter {
  attributes: FrontmatterMap;
  body: string;
}

export class FrontmatterError extends Error {
  override readonly name = "FrontmatterError";
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`frontmatter line ${line}: ${detail}`);
  }
}

/** Splits a markdown file into its frontmatter attributes and its body; no `---` first line means no attributes. */
export function parseFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = source.split("\n");
  if (lines[0]?.trimEnd() !== "---") return { attributes: {}, body: source };
  const end = lines.findIndex((line, index) => index > 0 && (line.trimEnd() === "---" || line.trimEnd() === "..."));
  if (end < 0) throw new FrontmatterError(1, "the frontmatter opened with --- is never closed: add a line holding only --- after it");
  const attributes = parseBlock(lines.slice(1, end), 2);
  return { attributes, body: lines.slice(end + 1).join("\n") };
}

interface Line {
  number: number;
  indent: number;
  text: string;
}

/** Parses YAML-ish `key: value` lines; `firstLine` is the file line number of lines[0]. */
function parseBlock(lines: string[], firstLine = 1): FrontmatterMap {
  const meaningful: Line[] = [];
  lines.forEach((raw, index) => {
    const number = firstLine + index;
    if (/^\s*\t/.test(raw) && raw.trim() !== "") throw new FrontmatterError(number, "indent with spaces, not tabs");
    const text = raw.trimEnd();
    const trimmed = text.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    meaningful.push({ number, indent: text.length - trimmed.length, text: trimmed });
  });
  const state = { index: 0 };
  const map = parseMap(meaningful, state, meaningful[0]?.indent ?? 0);
  const extra = meaningful[state.index];
  if (extra) throw new FrontmatterError(extra.number, "this line is indented less than the first key: line the keys up");
  return map;
}

function parseMap(lines: Line[], state: { index: number }, indent: number): FrontmatterMap {
  const map: FrontmatterMap = {};
  while (state.index < lines.length) {
    const line = lines[state.index]!;
    if (line.indent < indent) break;
    if (line.indent > indent) throw new FrontmatterError(line.number, "unexpected indentation: line this key up with the one before it");
    state.index++;
    const { key, rest } = splitKey(line);
    if (Object.hasOwn(map, key)) throw new FrontmatterError(line.number, `the key ${JSON.stringify(key)} appears twice: keep one`);
    const next = lines[state.index];
    if (rest === "") {
      // A key with nothing after it opens a nested map, or is null when nothing more-indented follows.
      map[key] = next && next.indent > indent ? parseMap(lines, state, next.indent) : null;
      continue;
    }
    let value = rest;
    // A plain value may go on over more-indented lines; YAML joins them with spaces.
    while (lines[state.index] && lines[state.index]!.indent > indent && isPlain(rest)) {
      value += ` ${lines[state.index]!.text}`;
      state.index++;
    }
    map[key] = scalar(value, line.number);
  }
  return map;
}

function isPlain(value: string): boolean {
  return !value.startsWith('"') && !value.startsWith("'");
}

function splitKey(line: Line): { key: string; rest: string } {
  const text = line.text;
  const first = text[0]!;
  if (first === "-" && (text.length === 1 || text[1] === " ")) unsupported(line.number, "lists (- item)");
  if (first === "?") unsupported(line.number, "complex keys (?)");
  if (first === "*" || first === "&") {
    throw new FrontmatterError(
      line.number,
      `YAML reads a key starting with ${first} as an alias or anchor: quote it, e.g. "${text.split(":")[0]}": ...`,
    );
  }
  if (first === '"' || first === "'") {
    const { value, end } = quoted(text, 0, line.number);
    const after = text.slice(end).trimStart();
    if (!after.startsWith(":")) throw new FrontmatterError(line.number, `a colon must follow the quoted key ${JSON.stringify(value)}`);
    return { key: value, rest: stripComment(after.slice(1).trim()) };
  }
  const colon = findColon(text);
  if (colon < 0) throw new FrontmatterError(line.number, `expected "key: value", got ${JSON.stringify(text)}`);
  return { key: text.slice(0, colon).trim(), rest: stripComment(text.slice(colon + 1).trim()) };
}

/** The first ": " (or a colon ending the line): YAML's key separator; a colon inside a word (a URL) is not one. */
function findColon(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ":" && (i === text.length - 1 || text[i + 1] === " ")) return i;
  }
  return -1;
}

/** Drops a `# comment`: a `#` that starts the value or follows a space. Quoted values keep theirs. */
function stripComment(value: string): string {
  if (!isPlain(value)) return value;
  if (value.startsWith("#")) return "";
  const at = value.search(/\s#/);
  return at < 0 ? value : value.slice(0, at).trimEnd();
}

function scalar(value: string, lineNumber: number): FrontmatterValue {
  const first = value[0]!;
  if (first === '"' || first === "'") {
    const { value: text, end } = quoted(value, 0, lineNumber);
    const after = value.slice(end).trim();
    if (after !== "" && !after.startsWith("#"))
      throw new FrontmatterError(lineNumber, `unexpected text after the quoted value: ${JSON.stringify(after)}`);
    return text;
  }
  if (first === "[") unsupported(lineNumber, "lists ([a, b])");
  if (first === "{") unsupported(lineNumber, "flow maps ({a: b}); put each key on its own, more-indented line");
  if (first === "|" || first === ">")
    unsupported(lineNumber, "block scalars (| and >); put the text on one line, in quotes if it holds a colon");
  if (first === "&" || first === "*") unsupported(lineNumber, "anchors and aliases (& and *); quote the value");
  if (first === "!") unsupported(lineNumber, "tags (!)");
  if (/^(true|True|TRUE)$/.test(value)) return true;
  if (/^(false|False|FALSE)$/.test(value)) return false;
  if (/^(null|Null|NULL|~)$/.test(value)) return null;
  if (/^[-+]?\d+$/.test(value)) return Number.parseInt(value, 10);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(value)) return Number.parseFloat(value);
  return value;
}

function quoted(text: string, start: number, lineNumber: number): { value: string; end: number } {
  const quote = text[start]!;
  let value = "";
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!;
    if (quote === "'") {
      if (char === "'" && text[i + 1] === "'") {
        value += "'";
        i++;
        continue;
      }
      if (char === "'") return { value, end: i + 1 };
      value += char;
      continue;
    }
    if (char === "\\") {
      const next = text[i + 1];
      const escapes: Record<string, string> = { n: "\n", t: "\t", '"': '"', "\\": "\\", "/": "/", r: "\r", "0": "\0" };
      if (next === undefined || !(next in escapes))
        throw new FrontmatterError(lineNumber, `unknown escape \\${next ?? ""} in a double-quoted value`);
      value += escapes[next];
      i++;
      continue;
    }
    if (char === '"') return { value, end: i + 1 };
    value += char;
  }
  throw new FrontmatterError(
    lineNumber,
    `the ${quote === '"' ? "double" : "single"} quote is never closed (values cannot span lines here)`,
  );
}

function unsupported(lineNumber: number, what: string): never {
  throw new FrontmatterError(lineNumber, `${what} are not supported in agent frontmatter`);
}
