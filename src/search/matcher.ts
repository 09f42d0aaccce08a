/**
 * Compiling patterns into a Matcher, the line matcher the search runs: which lines of a buffer
 * match, and where in a line the matches are. Patterns are ripgrep's (Rust regex syntax); several are
 * joined with `|` as ripgrep joins `-e` patterns. Every path through here runs in time linear in the
 * input: a literal prefilter (native `indexOf`), a lazy DFA for the yes/no per line, and a Pike VM for
 * match positions. Nothing backtracks.
 */
import { LazyDfa, LINE_RESET, MATCHED, QUIT, UNKNOWN } from "./regex/dfa.js";
import type { Lit } from "./regex/lit.js";
import { exactAlternatives, exactLiteral, LiteralFinder, requiredLiterals, worthPrefilter } from "./regex/literals.js";
import { compileNfa, NfaSizeError, type Nfa } from "./regex/nfa.js";
import { parseRegex, RegexSyntaxError } from "./regex/parse.js";
import { PikeVm } from "./regex/pikevm.js";
import type { MatchBudget } from "./regex/budget.js";
import { SIZE_LIMIT_MESSAGE, withinSizeLimit } from "./regex/size.js";
import { SearchPatternError } from "./errors.js";

export { SearchPatternError };

export interface MatchSpan {
  start: number;
  end: number;
}

export interface CompileOptions {
  /** rg -i: match letters in either case (Unicode simple case folding). */
  caseInsensitive?: boolean;
}

export interface Matcher {
  /** The patterns as one regex (joined with `|`). */
  readonly pattern: string;
  /** Does the line `buf[start, end)` (no line terminator) contain a match? */
  isMatch(buf: Uint8Array, start: number, end: number): boolean;
  /** The matches in line `buf[start, end)`, as byte offsets into `buf`, left to right, not overlapping. */
  findAll(buf: Uint8Array, start: number, end: number): Array<[number, number]>;
  /**
   * Calls `onLine(lineStart, lineEnd)` for every line of `buf[start, end)` (split at `\n`, the `\n`
   * excluded) that contains a match, in order; returning false stops.
   */
  forEachMatchingLine(buf: Uint8Array, start: number, end: number, onLine: (lineStart: number, lineEnd: number) => boolean | void): void;
  /** Does a string contain a match? */
  test(text: string): boolean;
  /** The matches in a string, as UTF-16 offsets. */
  find(text: string): MatchSpan[];
  /** Where long matches report their work, so a search's deadline or cancel can stop them (./regex/budget.ts). */
  setBudget(budget: MatchBudget | undefined): void;
}

const encoder = new TextEncoder();

/** Maps byte offsets in the UTF-8 encoding of `text` to UTF-16 offsets in `text`. */
function utf16Offsets(text: string, offsets: number[]): number[] {
  let byte = 0;
  let unit = 0;
  const sorted = offsets.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const result = new Array<number>(offsets.length);
  for (const { value, index } of sorted) {
    while (byte < value && unit < text.length) {
      const cp = text.codePointAt(unit)!;
      byte += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      unit += cp > 0xffff ? 2 : 1;
    }
    result[index] = unit;
  }
  return result;
}

class RegexMatcher implements Matcher {
  private dfaInstance: LazyDfa | undefined;
  private pikeInstance: PikeVm | undefined;
  private readonly prefilter: LiteralFinder | undefined;
  /** Every match is one of these literals (so a prefilter hit is a match). */
  private readonly exactAlts: boolean;
  /** The whole pattern is this one literal (so match positions need no NFA). */
  private readonly exact: LiteralFinder | undefined;

  constructor(
    readonly pattern: string,
    private readonly nfa: Nfa,
    required: Lit[] | null,
    exactAlts: Lit[] | null,
    exact: Lit | null,
  ) {
    this.exactAlts = exactAlts !== null;
    const lits = exactAlts ?? required;
    if (lits && worthPrefilter(lits)) this.prefilter = new LiteralFinder(lits);
    if (exact) this.exact = new LiteralFinder([exact]);
  }

  private budget: MatchBudget | undefined;

  setBudget(budget: MatchBudget | undefined): void {
    this.budget = budget;
    if (this.dfaInstance) this.dfaInstance.budget = budget;
    if (this.pikeInstance) this.pikeInstance.budget = budget;
  }

  private get dfa(): LazyDfa {
    if (!this.dfaInstance) {
      this.dfaInstance = new LazyDfa(this.nfa);
      this.dfaInstance.budget = this.budget;
    }
    return this.dfaInstance;
  }

  private get pike(): PikeVm {
    if (!this.pikeInstance) {
      this.pikeInstance = new PikeVm(this.nfa);
      this.pikeInstance.budget = this.budget;
    }
    return this.pikeInstance;
  }

  isMatch(buf: Uint8Array, start: number, end: number): boolean {
    if (start >= end) return this.dfa.eolMatches(this.dfa.start);
    if (this.exactAlts && this.prefilter) return this.prefilter.find(buf, start, end) >= 0;
    let matched = false;
    this.dfaScan(buf, start, end, () => {
      matched = true;
      return false;
    });
    return matched;
  }

  findAll(buf: Uint8Array, start: number, end: number): Array<[number, number]> {
    if (this.exact) {
      const out: Array<[number, number]> = [];
      let at = start;
      for (;;) {
        const span = this.exact.findSpan(buf, at, end);
        if (!span) return out;
        out.push(span);
        at = span[1];
      }
    }
    return this.pike.findAll(buf, start, end);
  }

  forEachMatchingLine(buf: Uint8Array, start: number, end: number, onLine: (lineStart: number, lineEnd: number) => boolean | void): void {
    const prefilter = this.prefilter;
    if (!prefilter) {
      this.dfaScan(buf, start, end, onLine);
      return;
    }
    let pos = start;
    while (pos < end) {
      const hit = prefilter.find(buf, pos, end);
      if (hit < 0) return;
      let lineStart = hit > pos ? buf.lastIndexOf(10, hit - 1) + 1 : pos;
      if (lineStart < pos) lineStart = pos;
      let lineEnd = buf.indexOf(10, hit);
      if (lineEnd < 0 || lineEnd > end) lineEnd = end;
      if (this.exactAlts || this.lineMatches(buf, lineStart, lineEnd)) {
        if (onLine(lineStart, lineEnd) === false) return;
      }
      pos = lineEnd + 1;
    }
  }

  private lineMatches(buf: Uint8Array, start: number, end: number): boolean {
    let matched = false;
    this.dfaScan(buf, start, end, () => {
      matched = true;
      return false;
    });
    return matched;
  }

  /** The DFA over `buf[start, end)`, reporting matching lines. */
  private dfaScan(buf: Uint8Array, start: number, end: number, onLine: (lineStart: number, lineEnd: number) => boolean | void): void {
    const dfa = this.dfa;
    let trans = dfa.trans;
    const first = dfa.start;
    let s = first;
    let lineStart = start;
    let i = start;
    while (i < end) {
      // The hot loop: one table lookup per byte while the transitions are known.
      let t = trans[s + buf[i]!]!;
      while (t >= 0 && ++i < end) {
        s = t;
        t = trans[s + buf[i]!]!;
      }
      if (t >= 0) {
        s = t;
        break;
      }
      if (t === UNKNOWN) {
        t = dfa.compute(s, buf[i]!);
        trans = dfa.trans;
        if (t >= 0) {
          s = t;
          i++;
          continue;
        }
      }
      if (t === LINE_RESET) {
        i++;
        lineStart = i;
        s = first;
        continue;
      }
      let lineEnd: number;
      if (buf[i] === 10) lineEnd = i;
      else {
        lineEnd = buf.indexOf(10, i);
        if (lineEnd < 0 || lineEnd > end) lineEnd = end;
      }
      const hit = t === MATCHED || (t === QUIT && this.pike.find(buf, lineStart, lineEnd, lineStart) !== null);
      if (hit && onLine(lineStart, lineEnd) === false) return;
      i = lineEnd + 1;
      lineStart = i;
      s = first;
    }
    if (lineStart < end) {
      if (dfa.eolMatches(s)) onLine(lineStart, end);
    }
  }

  test(text: string): boolean {
    const bytes = encoder.encode(text);
    let lineStart = 0;
    while (lineStart <= bytes.length) {
      let lineEnd = bytes.indexOf(10, lineStart);
      if (lineEnd < 0) lineEnd = bytes.length;
      if (this.isMatch(bytes, lineStart, lineEnd)) return true;
      lineStart = lineEnd + 1;
    }
    return false;
  }

  find(text: string): MatchSpan[] {
    const bytes = encoder.encode(text);
    const spans: Array<[number, number]> = [];
    // Line by line, as the search does: `^` and `$` hold at line ends.
    let lineStart = 0;
    while (lineStart <= bytes.length) {
      let lineEnd = bytes.indexOf(10, lineStart);
      if (lineEnd < 0) lineEnd = bytes.length;
      spans.push(...this.findAll(bytes, lineStart, lineEnd));
      lineStart = lineEnd + 1;
    }
    const offsets = utf16Offsets(
      text,
      spans.flatMap(([s, e]) => [s, e]),
    );
    const out: MatchSpan[] = [];
    for (let k = 0; k < spans.length; k++) out.push({ start: offsets[2 * k]!, end: offsets[2 * k + 1]! });
    return out;
  }
}

/**
 * The longest pattern compiled, in characters (UTF-16 code units) of the joined patterns. Compiling is
 * linear in the length (a 100,000-character literal compiles in about 0.2 s), so this bounds the time
 * and memory (an NFA state or more per character) a single call can demand; ripgrep bounds the compiled
 * program instead (10 MB), which a literal reaches near the same length.
 */
export const MAX_PATTERN_LENGTH = 1_000_000;

/**
 * Compiles ripgrep patterns (joined with `|`, as several `-e` are). Throws SearchPatternError for a
 * pattern that does not parse, that needs look-around or backreferences, or that is longer than
 * MAX_PATTERN_LENGTH.
 */
export function compilePattern(patterns: string[], options: CompileOptions = {}): Matcher {
  const pattern = patterns.join("|");
  if (pattern.length > MAX_PATTERN_LENGTH) {
    const reason = `the pattern is ${pattern.length.toLocaleString("en-US")} characters long; the limit is ${MAX_PATTERN_LENGTH.toLocaleString("en-US")}`;
    // The pattern itself is left out of the message: echoing a megabyte back helps nobody.
    throw new SearchPatternError(`regex too long: ${reason}. Search for a shorter part of it that is distinctive enough.`, reason, pattern);
  }
  let hir;
  try {
    hir = parseRegex(pattern, { caseInsensitive: options.caseInsensitive });
  } catch (error) {
    if (error instanceof RegexSyntaxError) throw new SearchPatternError(error.message, error.reason, pattern);
    throw error;
  }
  if (!withinSizeLimit(hir)) throw new SearchPatternError(SIZE_LIMIT_MESSAGE, SIZE_LIMIT_MESSAGE, pattern);
  let nfa: Nfa;
  try {
    nfa = compileNfa(hir);
  } catch (error) {
    if (error instanceof NfaSizeError) throw new SearchPatternError(error.message, error.message, pattern);
    throw error;
  }
  if (patterns.length === 0) {
    // No pattern matches nothing (rg needs at least one).
    throw new SearchPatternError("no pattern given", "no pattern given", "");
  }
  return new RegexMatcher(pattern, nfa, requiredLiterals(hir), exactAlternatives(hir), exactLiteral(hir));
}
