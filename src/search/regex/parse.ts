/**
 * A parser for ripgrep's regex dialect (Rust's regex crate, regex-syntax 0.6 as in ripgrep 13),
 * producing a small high-level IR in which flags are already applied: case folding is folded into the
 * classes, `.` is a class, `^`/`$` are line anchors (ripgrep matches line by line).
 *
 * Supported: literals and escapes (`\x7F`, `\x{...}`, `\u....`, `\U........`, `\t` and friends),
 * `.`, classes with ranges, negation, nesting, `[:alpha:]`, `&&` `--` `~~`, Perl classes, `\p{...}`,
 * anchors `^ $ \A \z \b \B`, groups `(...)`, `(?:...)`, `(?P<name>...)`, flags `i m s U u x` (inline
 * and scoped), repetition `* + ? {n} {n,} {n,m}` with lazy `?`. Look-around and backreferences are
 * rejected with ripgrep's wording, as is a literal line feed.
 */
import { asciiCaseFold, caseFold, perlClasses, unicodeClass, UnicodeLookupError, ASCII_WORD } from "./unicode.js";
import { canonical, difference, intersect, MAX_CODE_POINT, negate, symmetricDifference, withoutSurrogates, type Ranges } from "./ranges.js";

export type Look = "start" | "end" | "wordU" | "notWordU" | "wordA" | "notWordA";

export type Hir =
  | { kind: "empty" }
  /** `bytes`: ranges are byte values (from `(?-u)`), else code points. */
  | { kind: "class"; bytes: boolean; ranges: Ranges }
  | { kind: "look"; look: Look }
  | { kind: "repeat"; min: number; max: number; greedy: boolean; sub: Hir }
  | { kind: "concat"; subs: Hir[] }
  | { kind: "alt"; subs: Hir[] };

export class RegexSyntaxError extends Error {
  constructor(
    /** The short reason ("unclosed group"). */
    readonly reason: string,
    readonly pattern: string,
    /** Character offsets of the offending part, when known. */
    readonly span: [number, number] | undefined,
    /** Extra advice ripgrep prints after the error. */
    readonly hint?: string,
    /** The whole message, when it is not a parse error's usual layout. */
    message?: string,
  ) {
    super(message ?? formatError(reason, pattern, span, hint));
    this.name = "RegexSyntaxError";
  }
}

function formatError(reason: string, pattern: string, span: [number, number] | undefined, hint: string | undefined): string {
  let text: string;
  if (span && !pattern.includes("\n")) {
    const width = Math.max(1, span[1] - span[0]);
    const lead = Array.from(pattern.slice(0, span[0])).length;
    text = `regex parse error:\n    ${pattern}\n    ${" ".repeat(lead)}${"^".repeat(width)}\nerror: ${reason}`;
  } else {
    text = `regex parse error:\n    ${pattern}\nerror: ${reason}`;
  }
  return hint ? `${text}\n\n${hint}` : text;
}

const PCRE_HINT = "Consider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.";
const MULTILINE_HINT =
  "Consider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.";

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
  u: boolean;
  x: boolean;
}

const NEST_LIMIT = 250;

const ASCII_CLASSES: Record<string, Ranges> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  ascii: [0x00, 0x7f],
  blank: [0x09, 0x09, 0x20, 0x20],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  digit: [0x30, 0x39],
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x09, 0x0d, 0x20, 0x20],
  upper: [0x41, 0x5a],
  word: ASCII_WORD,
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
};

/** What a class item parses to: a set, and whether it is a single literal (usable as a range end). */
interface ClassItem {
  ranges: Ranges;
  literal?: number;
  /** Holds byte values above 0x7F (only possible without Unicode). */
  bytes?: boolean;
}

const META = new Set(["\\", ".", "+", "*", "?", "(", ")", "|", "[", "]", "{", "}", "^", "$", "#", "&", "-", "~"]);

class Parser {
  private pos = 0;
  private readonly chars: string[];
  /** Offsets (in UTF-16 units) of each character, for error spans. */
  private readonly offsets: number[];
  private flags: Flags;
  private depth = 0;
  private readonly groupNames = new Set<string>();

  constructor(
    private readonly pattern: string,
    caseInsensitive: boolean,
  ) {
    this.chars = Array.from(pattern);
    this.offsets = [];
    let at = 0;
    for (const ch of this.chars) {
      this.offsets.push(at);
      at += ch.length;
    }
    this.offsets.push(at);
    this.flags = { i: caseInsensitive, m: true, s: false, U: false, u: true, x: false };
  }

  private fail(reason: string, from = this.pos, to = from + 1, hint?: string): never {
    const start = this.offsets[Math.min(from, this.chars.length)] ?? this.pattern.length;
    const end = this.offsets[Math.min(to, this.chars.length)] ?? this.pattern.length;
    throw new RegexSyntaxError(reason, this.pattern, [start, Math.max(end, start + 1)], hint);
  }

  private peek(k = 0): string | undefined {
    return this.chars[this.pos + k];
  }

  private eof(): boolean {
    return this.pos >= this.chars.length;
  }

  /** In `x` mode: skips whitespace and `#` comments. */
  private skipSpace(): void {
    if (!this.flags.x) return;
    while (!this.eof()) {
      const c = this.peek()!;
      if (/\s/u.test(c)) this.pos++;
      else if (c === "#") {
        while (!this.eof() && this.peek() !== "\n") this.pos++;
      } else break;
    }
  }

  parse(): Hir {
    const hir = this.parseAlternation();
    if (!this.eof()) this.fail("unopened group");
    return hir;
  }

  private parseAlternation(): Hir {
    const branches: Hir[][] = [];
    let concat: Hir[] = [];
    for (;;) {
      this.skipSpace();
      if (this.eof()) break;
      const c = this.peek()!;
      if (c === ")") break;
      if (c === "|") {
        this.pos++;
        branches.push(concat);
        concat = [];
        continue;
      }
      if (c === "*" || c === "+" || c === "?") {
        const at = this.pos;
        this.pos++;
        const last = concat.pop();
        if (!last) this.fail("repetition operator missing expression", at);
        const min = c === "+" ? 1 : 0;
        const max = c === "?" ? 1 : Infinity;
        concat.push(this.repeat(last, min, max));
        continue;
      }
      if (c === "{") {
        const at = this.pos;
        const last = concat.pop();
        if (!last) this.fail("repetition operator missing expression", at);
        const [min, max] = this.parseCounted();
        concat.push(this.repeat(last, min, max));
        continue;
      }
      const atom = this.parseAtom();
      if (atom) concat.push(atom);
    }
    branches.push(concat);
    const alts = branches.map((b) =>
      b.length === 0 ? ({ kind: "empty" } as Hir) : b.length === 1 ? b[0]! : ({ kind: "concat", subs: b } as Hir),
    );
    return alts.length === 1 ? alts[0]! : { kind: "alt", subs: alts };
  }

  private repeat(sub: Hir, min: number, max: number): Hir {
    let greedy = true;
    if (this.peek() === "?") {
      this.pos++;
      greedy = false;
    }
    if (this.flags.U) greedy = !greedy;
    return { kind: "repeat", min, max, greedy, sub };
  }

  private parseCounted(): [number, number] {
    const open = this.pos;
    this.pos++; // '{'
    this.skipSpace();
    if (this.eof()) this.fail("unclosed counted repetition", open);
    const min = this.parseDecimal(open);
    this.skipSpace();
    let max = min;
    if (this.peek() === ",") {
      this.pos++;
      this.skipSpace();
      if (this.eof()) this.fail("unclosed counted repetition", open);
      if (this.peek() === "}") max = Infinity;
      else max = this.parseDecimal(open);
      this.skipSpace();
    }
    if (this.eof()) this.fail("unclosed counted repetition", open);
    if (this.peek() !== "}") this.fail("unclosed counted repetition", open);
    this.pos++;
    if (max < min) this.fail("invalid repetition count range, the start must be <= the end", open, this.pos);
    return [min, max];
  }

  private parseDecimal(open: number): number {
    const start = this.pos;
    while (!this.eof() && /[0-9]/.test(this.peek()!)) this.pos++;
    if (this.pos === start) {
      if (this.eof()) this.fail("unclosed counted repetition", open);
      this.fail("repetition quantifier expects a valid decimal", this.pos);
    }
    const text = this.chars.slice(start, this.pos).join("");
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value > 0xffffffff) this.fail("decimal literal invalid", start, this.pos);
    return value;
  }

  /** One atom; null for a flag group `(?i)` that only changes flags. */
  private parseAtom(): Hir | null {
    const c = this.peek()!;
    switch (c) {
      case "(":
        return this.parseGroup();
      case "[":
        return this.parseClass();
      case "\\":
        return this.parseEscape();
      case ".": {
        this.pos++;
        if (!this.flags.u) return { kind: "class", bytes: true, ranges: this.flags.s ? [0, 0xff] : [0, 9, 11, 0xff] };
        const all: Ranges = withoutSurrogates([0, MAX_CODE_POINT]);
        return { kind: "class", bytes: false, ranges: this.flags.s ? all : difference(all, [10, 10], MAX_CODE_POINT) };
      }
      case "^":
        this.pos++;
        return { kind: "look", look: "start" };
      case "$":
        this.pos++;
        return { kind: "look", look: "end" };
      default:
        this.pos++;
        return this.literal(c.codePointAt(0)!);
    }
  }

  private literal(cp: number): Hir {
    let ranges: Ranges = [cp, cp];
    if (this.flags.i) ranges = this.flags.u ? caseFold(ranges) : asciiCaseFold(ranges);
    return { kind: "class", bytes: false, ranges };
  }

  private enter(at: number): void {
    this.depth++;
    if (this.depth > NEST_LIMIT) this.fail(`exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})`, at);
  }

  private parseGroup(): Hir | null {
    const open = this.pos;
    this.pos++; // '('
    let scoped: Flags | undefined;
    if (this.peek() === "?") {
      const next = this.peek(1);
      if (next === undefined) this.fail("unclosed group", open);
      if (next === ")") this.fail("repetition operator missing expression", this.pos);
      const after = this.peek(2);
      if (next === "=" || next === "!" || (next === "<" && (after === "=" || after === "!"))) {
        this.fail("look-around, including look-ahead and look-behind, is not supported", open, open + (next === "<" ? 4 : 3), PCRE_HINT);
      }
      if (next === "P" && after === "<") {
        this.pos += 3;
        const nameStart = this.pos;
        while (!this.eof() && this.peek() !== ">") {
          const ch = this.peek()!;
          const first = this.pos === nameStart;
          const ok = first ? /[A-Za-z_]/.test(ch) : /[A-Za-z0-9_.[\]]/.test(ch);
          if (!ok) this.fail("invalid capture group character", this.pos);
          this.pos++;
        }
        if (this.eof()) this.fail("unclosed capture group name", nameStart);
        if (this.pos === nameStart) this.fail("empty capture group name", nameStart);
        const name = this.chars.slice(nameStart, this.pos).join("");
        if (this.groupNames.has(name)) this.fail("duplicate capture group name", nameStart, this.pos);
        this.groupNames.add(name);
        this.pos++; // '>'
      } else {
        this.pos++; // '?'
        const flags = { ...this.flags };
        let negate = false;
        let sawNegation = false;
        let lastWasNegation = false;
        const seen = new Set<string>();
        for (;;) {
          if (this.eof()) this.fail("expected flag but got end of regex", this.pos);
          const ch = this.peek()!;
          if (ch === ")" || ch === ":") {
            if (lastWasNegation) this.fail("dangling flag negation operator", this.pos - 1);
            break;
          }
          if (ch === "-") {
            if (sawNegation) this.fail("flag negation operator repeated", this.pos);
            sawNegation = true;
            negate = true;
            lastWasNegation = true;
            this.pos++;
            continue;
          }
          if (!"imsUux".includes(ch)) this.fail("unrecognized flag", this.pos);
          if (seen.has(ch)) this.fail("duplicate flag", this.pos);
          seen.add(ch);
          flags[ch as keyof Flags] = !negate;
          lastWasNegation = false;
          this.pos++;
        }
        if (this.peek() === ")") {
          this.pos++;
          this.flags = flags;
          return null;
        }
        this.pos++; // ':'
        scoped = flags;
      }
    }
    this.enter(open);
    const saved = this.flags;
    if (scoped) this.flags = scoped;
    const body = this.parseAlternation();
    this.flags = saved;
    this.depth--;
    if (this.peek() !== ")") this.fail("unclosed group", open);
    this.pos++;
    return body;
  }

  private parseHexEscape(kind: "x" | "u" | "U", start: number): number {
    if (this.peek() === "{") {
      this.pos++;
      const digitsStart = this.pos;
      while (!this.eof() && this.peek() !== "}") {
        if (!/[0-9A-Fa-f]/.test(this.peek()!)) this.fail("invalid hexadecimal digit", this.pos);
        this.pos++;
      }
      if (this.eof()) this.fail("incomplete escape sequence, reached end of pattern prematurely", start, this.pos);
      if (this.pos === digitsStart) this.fail("hexadecimal literal empty", start, this.pos + 1);
      const value = parseInt(this.chars.slice(digitsStart, this.pos).join(""), 16);
      this.pos++;
      if (!(value <= MAX_CODE_POINT) || (value >= 0xd800 && value <= 0xdfff)) {
        this.fail("hexadecimal literal is not a Unicode scalar value", start, this.pos);
      }
      return value;
    }
    const count = kind === "x" ? 2 : kind === "u" ? 4 : 8;
    let text = "";
    for (let k = 0; k < count; k++) {
      if (this.eof()) this.fail("incomplete escape sequence, reached end of pattern prematurely", start, this.pos);
      const ch = this.peek()!;
      if (!/[0-9A-Fa-f]/.test(ch)) this.fail("invalid hexadecimal digit", this.pos);
      text += ch;
      this.pos++;
    }
    const value = parseInt(text, 16);
    if (value > MAX_CODE_POINT || (value >= 0xd800 && value <= 0xdfff)) {
      this.fail("hexadecimal literal is not a Unicode scalar value", start, this.pos);
    }
    return value;
  }

  private perl(letter: string): ClassItem {
    const lower = letter.toLowerCase();
    let ranges: Ranges;
    if (this.flags.u) {
      const p = perlClasses();
      ranges = lower === "d" ? p.digit : lower === "s" ? p.space : p.word;
      if (letter !== lower) return { ranges: withoutSurrogates(negate(ranges, MAX_CODE_POINT)) };
      return { ranges };
    }
    ranges = lower === "d" ? ASCII_CLASSES.digit! : lower === "s" ? [0x09, 0x0d, 0x20, 0x20] : ASCII_WORD;
    if (letter !== lower) return { ranges: negate(ranges, 0xff), bytes: true };
    return { ranges };
  }

  private unicodeProperty(letter: "p" | "P", start: number): ClassItem {
    let name: string;
    let value: string | undefined;
    let negated = letter === "P";
    if (this.eof()) this.fail("incomplete escape sequence, reached end of pattern prematurely", start, this.pos);
    if (this.peek() === "{") {
      this.pos++;
      const bodyStart = this.pos;
      while (!this.eof() && this.peek() !== "}") this.pos++;
      if (this.eof()) this.fail("incomplete escape sequence, reached end of pattern prematurely", start, this.pos);
      let body = this.chars.slice(bodyStart, this.pos).join("");
      this.pos++;
      if (body.startsWith("^")) {
        negated = !negated;
        body = body.slice(1);
      }
      const ne = body.indexOf("!=");
      const eq = body.search(/[=:]/);
      if (ne >= 0) {
        negated = !negated;
        name = body.slice(0, ne);
        value = body.slice(ne + 2);
      } else if (eq >= 0) {
        name = body.slice(0, eq);
        value = body.slice(eq + 1);
      } else {
        name = body;
      }
    } else {
      name = this.peek()!;
      this.pos++;
    }
    let ranges: Ranges;
    try {
      ranges = unicodeClass(name.trim(), value?.trim());
    } catch (error) {
      if (error instanceof UnicodeLookupError) this.fail(error.message, start, this.pos);
      throw error;
    }
    if (negated) ranges = withoutSurrogates(negate(ranges, MAX_CODE_POINT));
    return { ranges };
  }

  /** An escape; in a class, assertions are not allowed. Returns a Hir (outside a class) or a class item. */
  private escapeItem(inClass: boolean): ClassItem | Hir {
    const start = this.pos;
    this.pos++; // '\'
    if (this.eof()) this.fail("incomplete escape sequence, reached end of pattern prematurely", start);
    const c = this.peek()!;
    this.pos++;
    const lit = (cp: number): ClassItem => ({ ranges: [cp, cp], literal: cp });
    if (META.has(c)) return lit(c.codePointAt(0)!);
    switch (c) {
      case "a":
        return lit(7);
      case "f":
        return lit(12);
      case "t":
        return lit(9);
      case "n":
        return lit(10);
      case "r":
        return lit(13);
      case "v":
        return lit(11);
      case "x":
      case "u":
      case "U": {
        const value = this.parseHexEscape(c, start);
        if (!this.flags.u && c === "x" && value >= 0x80 && value <= 0xff) return { ranges: [value, value], literal: value, bytes: true };
        return lit(value);
      }
      case "d":
      case "D":
      case "s":
      case "S":
      case "w":
      case "W":
        return this.perl(c);
      case "p":
      case "P":
        return this.unicodeProperty(c, start);
      case "b":
      case "B":
      case "A":
      case "z":
        if (inClass) this.fail("invalid escape sequence found in character class", start, this.pos);
        if (c === "A") return { kind: "look", look: "start" };
        if (c === "z") return { kind: "look", look: "end" };
        if (c === "b") return { kind: "look", look: this.flags.u ? "wordU" : "wordA" };
        return { kind: "look", look: this.flags.u ? "notWordU" : "notWordA" };
      default:
        if (/[0-9]/.test(c)) this.fail("backreferences are not supported", start, this.pos, PCRE_HINT);
        if (this.flags.x && c === " ") return lit(0x20);
        this.fail("unrecognized escape sequence", start, this.pos);
    }
  }

  private parseEscape(): Hir {
    const item = this.escapeItem(false);
    if ("kind" in item) return item;
    return this.itemToHir(item);
  }

  private itemToHir(item: ClassItem): Hir {
    let ranges = item.ranges;
    const bytes = item.bytes === true;
    if (this.flags.i) ranges = bytes || !this.flags.u ? asciiCaseFold(ranges) : caseFold(ranges);
    return { kind: "class", bytes: bytes && ranges.some((v) => v >= 0x80), ranges };
  }

  private parseClass(): Hir {
    const open = this.pos;
    const item = this.parseBracketed();
    void open;
    return { kind: "class", bytes: item.bytes === true && item.ranges.some((v) => v >= 0x80), ranges: item.ranges };
  }

  /** `[...]`, at its '['; returns the finished set (folded, negated). */
  private parseBracketed(): ClassItem {
    const open = this.pos;
    this.enter(open);
    this.pos++; // '['
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.pos++;
    }
    let bytes = !this.flags.u;
    let lhs: Ranges | undefined;
    let op: string | undefined;
    let current: Array<[number, number]> = [];
    let first = true;
    const combine = () => {
      const set = canonical(current);
      if (lhs === undefined) return set;
      const max = bytes ? 0xff : MAX_CODE_POINT;
      if (op === "&&") return intersect(lhs, set);
      if (op === "--") return difference(lhs, set, max);
      return symmetricDifference(lhs, set, max);
    };
    const addItem = (item: ClassItem) => {
      for (let k = 0; k < item.ranges.length; k += 2) current.push([item.ranges[k]!, item.ranges[k + 1]!]);
    };
    for (;;) {
      this.skipSpace();
      if (this.eof()) this.fail("unclosed character class", open);
      const c = this.peek()!;
      if (c === "]" && !first) {
        this.pos++;
        break;
      }
      const n = this.peek(1);
      if (!first && ((c === "&" && n === "&") || (c === "-" && n === "-") || (c === "~" && n === "~"))) {
        lhs = combine();
        op = c + n;
        current = [];
        this.pos += 2;
        continue;
      }
      first = false;
      if (c === "[") {
        const ascii = this.tryAsciiClass();
        if (ascii) {
          addItem(ascii);
          continue;
        }
        const nested = this.parseBracketed();
        if (nested.bytes) bytes = true;
        addItem(nested);
        continue;
      }
      const item = this.classPrimitive();
      if (item.bytes) bytes = true;
      this.skipSpace();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== "-" && this.peek(1) !== undefined) {
        const dash = this.pos;
        this.pos++;
        this.skipSpace();
        const hi = this.classPrimitive();
        if (item.literal === undefined || hi.literal === undefined) this.fail("invalid range boundary, must be a literal", dash);
        if (hi.bytes) bytes = true;
        if (item.literal > hi.literal) this.fail("invalid character class range, the start must be <= the end", dash - 1, this.pos);
        current.push([item.literal, hi.literal]);
        continue;
      }
      addItem(item);
    }
    this.depth--;
    let set = combine();
    if (this.flags.i) set = bytes || !this.flags.u ? asciiCaseFold(set) : caseFold(set);
    if (negated) set = bytes ? negate(set, 0xff) : withoutSurrogates(negate(set, MAX_CODE_POINT));
    if (!bytes) set = withoutSurrogates(set);
    return { ranges: set, bytes };
  }

  private classPrimitive(): ClassItem {
    const c = this.peek()!;
    if (c === "\\") {
      const item = this.escapeItem(true);
      return item as ClassItem;
    }
    this.pos++;
    const cp = c.codePointAt(0)!;
    if (!this.flags.u && cp > 0x7f) this.fail("Unicode not allowed here", this.pos - 1);
    return { ranges: [cp, cp], literal: cp };
  }

  /** `[:alpha:]` / `[:^alpha:]` at a '[' inside a class, or undefined (then it is a nested class). */
  private tryAsciiClass(): ClassItem | undefined {
    if (this.peek(1) !== ":") return undefined;
    let k = this.pos + 2;
    let negated = false;
    if (this.chars[k] === "^") {
      negated = true;
      k++;
    }
    const nameStart = k;
    while (k < this.chars.length && /[a-z]/.test(this.chars[k]!)) k++;
    if (this.chars[k] !== ":" || this.chars[k + 1] !== "]") return undefined;
    const name = this.chars.slice(nameStart, k).join("");
    const ranges = ASCII_CLASSES[name];
    if (!ranges) return undefined;
    this.pos = k + 2;
    return { ranges: negated ? negate(ranges, this.flags.u ? MAX_CODE_POINT : 0xff) : ranges, bytes: negated && !this.flags.u };
  }
}

/** Is the class exactly a line feed? */
function isLineFeed(h: Hir): boolean {
  return h.kind === "class" && h.ranges.length === 2 && h.ranges[0] === 10 && h.ranges[1] === 10;
}

const LINE_FEED_REASON = "the literal '\"\\n\"' is not allowed in a regex";

/** ripgrep's line-terminator rules: a literal `\n` is an error; classes lose `\n`. */
function stripLineFeeds(h: Hir, pattern: string): Hir {
  switch (h.kind) {
    case "class":
      if (isLineFeed(h)) {
        throw new RegexSyntaxError(LINE_FEED_REASON, pattern, undefined, MULTILINE_HINT, `${LINE_FEED_REASON}\n\n${MULTILINE_HINT}`);
      }
      return { ...h, ranges: difference(h.ranges, [10, 10], h.bytes ? 0xff : MAX_CODE_POINT) };
    case "repeat":
      return { ...h, sub: stripLineFeeds(h.sub, pattern) };
    case "concat":
    case "alt":
      return { ...h, subs: h.subs.map((s) => stripLineFeeds(s, pattern)) };
    default:
      return h;
  }
}

export function parseRegex(pattern: string, options: { caseInsensitive?: boolean } = {}): Hir {
  const hir = new Parser(pattern, options.caseInsensitive ?? false).parse();
  return stripLineFeeds(hir, pattern);
}
