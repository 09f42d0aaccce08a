/**
 * What a shell word will be after quote removal, when that can be known without running anything.
 *
 * A word is read character by character with a flag saying whether the character was quoted, because the
 * shell treats `*`, `~` and `{a,b}` specially only when they are not. Anything whose value depends on the
 * run (`$VAR`, `$(...)`, backticks, arithmetic, `$'\x2e'` escapes) is "unknown": the caller must treat it as
 * possibly anything, including a way out of the workspace.
 */
import type { Node } from "web-tree-sitter";

export interface Char {
  ch: string;
  quoted: boolean;
}

export type WordValue = { known: true; chars: Char[] } | { known: false; why: string };

const unknown = (why: string): WordValue => ({ known: false, why });

/** The characters of an argument node after quote removal, or why they cannot be known. */
export function evaluateWord(node: Node): WordValue {
  switch (node.type) {
    case "command_name": {
      const only = node.namedChildren[0];
      return only && node.namedChildCount === 1 ? evaluateWord(only) : unknown("an unusual command name");
    }
    case "word":
    case "number":
      return { known: true, chars: unquotedChars(node.text) };
    case "raw_string":
      return { known: true, chars: quotedChars(node.text.slice(1, -1)) };
    case "string":
      return doubleQuoted(node, node.text.slice(1, -1));
    case "translated_string":
      return doubleQuoted(node, node.text.slice(2, -1));
    case "ansi_c_string": {
      // `$'\x2e\x2e'` is `..` and `$'\x72m'` is `rm`: the escapes are decoded as bash does, and the few
      // this reader does not know make the word unknown rather than guessed.
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      return decoded === null ? unknown("a $'...' string with escapes") : { known: true, chars: quotedChars(decoded) };
    }
    case "concatenation": {
      const chars: Char[] = [];
      for (const part of node.children) {
        if (!part) continue;
        const value = evaluateWord(part);
        if (!value.known) return value;
        chars.push(...value.chars);
      }
      return { known: true, chars };
    }
    case "simple_expansion":
    case "expansion":
      return unknown("a variable");
    case "command_substitution":
      return unknown("a command substitution");
    case "process_substitution":
      return unknown("a process substitution");
    case "arithmetic_expansion":
      return unknown("an arithmetic expansion");
    case "brace_expression":
      return unknown("a brace expansion");
    default:
      // Fail closed: a node type this reader does not know may expand to anything.
      return unknown(`a ${node.type.replaceAll("_", " ")}`);
  }
}

function doubleQuoted(node: Node, inner: string): WordValue {
  for (const child of node.namedChildren) {
    if (!child || child.type === "string_content") continue;
    const value = evaluateWord(child);
    return value.known ? unknown("an expansion in quotes") : value;
  }
  const chars: Char[] = [];
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    const next = inner[i + 1];
    // Inside double quotes a backslash only escapes these; before anything else it stays.
    if (ch === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== "\n") chars.push({ ch: next, quoted: true });
      i++;
      continue;
    }
    chars.push({ ch, quoted: true });
  }
  return { known: true, chars };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The text of a `$'...'` string, or null when it holds an escape not decoded here (`\c`, a NUL). */
function decodeAnsiC(inner: string): string | null {
  let out = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = inner[i + 1];
    if (next === undefined) return null;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const digits = (pattern: RegExp, max: number) => inner.slice(i + 2, i + 2 + max).match(pattern)?.[0] ?? "";
    let code: number;
    if (/[0-7]/.test(next)) {
      const octal = inner.slice(i + 1, i + 4).match(/^[0-7]{1,3}/)![0];
      code = Number.parseInt(octal, 8) & 0xff;
      i += octal.length;
    } else if (next === "x" || next === "u" || next === "U") {
      const hex = digits(/^[0-9a-fA-F]+/, next === "x" ? 2 : next === "u" ? 4 : 8);
      if (hex === "") return null;
      code = Number.parseInt(hex, 16);
      i += 1 + hex.length;
    } else return null;
    // A NUL ends the word in bash; bytes past 0x7f from \x/octal are raw bytes, not these characters.
    if (code === 0 || (next !== "u" && next !== "U" && code > 0x7f) || code > 0x10ffff) return null;
    out += String.fromCodePoint(code);
  }
  return out;
}

function unquotedChars(text: string): Char[] {
  const chars: Char[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[++i]!;
      if (next !== "\n") chars.push({ ch: next, quoted: true });
      continue;
    }
    chars.push({ ch, quoted: false });
  }
  return chars;
}

function quotedChars(text: string): Char[] {
  return Array.from(text, (ch) => ({ ch, quoted: true }));
}

export const textOf = (chars: readonly Char[]): string => chars.map((c) => c.ch).join("");

/** A word's literal text, or null when it is not known statically. */
export function literal(node: Node): string | null {
  const value = evaluateWord(node);
  return value.known ? textOf(value.chars) : null;
}

/**
 * Why an argument cannot stand for one known path even though its characters are known: the shell would
 * still expand it (`~`, `{a,b}`), or null. Globs are reported apart, by `hasGlob`, since those can be expanded
 * against the files.
 */
export function pathExpansion(chars: readonly Char[]): string | null {
  const first = chars[0];
  if (first && first.ch === "~" && !first.quoted) return "~ (a home folder)";
  for (let i = 1; i < chars.length; i++) {
    const c = chars[i]!;
    const before = chars[i - 1]!;
    // Bash also expands a tilde after `=` or `:` in words that look like assignments (`--dir=~/x`, `a:~/b`).
    if (c.ch === "~" && !c.quoted && !before.quoted && (before.ch === "=" || before.ch === ":")) return "~ (a home folder)";
  }
  const open = chars.findIndex((c) => c.ch === "{" && !c.quoted);
  if (open >= 0) {
    const close = chars.findIndex((c, i) => i > open && c.ch === "}" && !c.quoted);
    const body = chars.slice(open + 1, close < 0 ? chars.length : close);
    const commas = body.some((c) => c.ch === "," && !c.quoted);
    if (close > open && (commas || textOf(body).includes(".."))) return "a brace expansion";
  }
  return null;
}

export const hasGlob = (chars: readonly Char[]): boolean => chars.some((c) => !c.quoted && (c.ch === "*" || c.ch === "?" || c.ch === "["));

/**
 * `ca\<newline>t ..\<newline>/x` is `cat ../x` to bash, but tree-sitter splits words at a line continuation
 * (and sometimes where nothing separates them at all). Arguments that touch, or touch across a continuation,
 * are read as one word.
 */
export function joinContinuations(args: Node[]): Node[] {
  const out: Node[] = [];
  for (const arg of args) {
    const previous = out[out.length - 1];
    const between = previous ? sourceBetween(previous, arg) : null;
    // Within one command a word can only start a new line after a backslash-newline, so two words that
    // touch across one (nothing else between them, not even a space: `rm -rf \<newline>../x` is two words)
    // were one word. So were two that touch with nothing at all between them: tree-sitter cuts `r""\m`
    // into `r""` and `\m`, which bash reads as the one word `rm`.
    if (previous && (between === "" || between === "\\\n" || between === "\\\r\n")) {
      out[out.length - 1] = concatenated(previous, arg, between);
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** The source text between two nodes of the same tree. */
function sourceBetween(a: Node, b: Node): string | null {
  let common: Node | null = a.parent;
  while (common && common.endIndex < b.endIndex) common = common.parent;
  if (!common) return null;
  return common.text.slice(a.endIndex - common.startIndex, b.startIndex - common.startIndex);
}

/** Two nodes read as one: an object shaped like a concatenation node, as much as `evaluateWord` reads. */
function concatenated(a: Node, b: Node, continuation: string): Node {
  const joined = [...((a as Node & { joined?: Node[] }).joined ?? [a]), b];
  return {
    type: "concatenation",
    joined,
    children: joined,
    namedChildren: joined,
    text: `${a.text}${continuation}${b.text}`,
    startIndex: a.startIndex,
    endIndex: b.endIndex,
    startPosition: a.startPosition,
    endPosition: b.endPosition,
    parent: a.parent,
    tree: a.tree,
  } as unknown as Node;
}
