/**
 * Locating a chunk's lines in a file. Passes go from strict to loose, and each pass scans the whole
 * range before the next one starts, so an exact match anywhere wins over a loose match earlier on.
 */
import { normalizePunctuation } from "../edit/punctuation.js";

export { normalizePunctuation };

type SeekPass = "exact" | "trimEnd" | "trim" | "unicode";

export interface SeekMatch {
  /** Index in the file's lines of the first matched line. */
  index: number;
  pass: SeekPass;
  /** The pattern matched only once line-number prefixes (`00012| `, `12: `) were taken off its lines. */
  strippedLineNumbers: boolean;
}

const PASSES: ReadonlyArray<readonly [SeekPass, (line: string) => string]> = [
  ["exact", (line) => line],
  ["trimEnd", (line) => line.trimEnd()],
  ["trim", (line) => line.trim()],
  ["unicode", (line) => normalizePunctuation(line.trim())],
];

/**
 * A line number a model copied from a read tool's output: `00012| ` (the read tool here), `12: `
 * (grep -n style), `12\t` (cat -n style), `12 | `. At most one space after the separator is taken,
 * so the line's own indentation stays.
 */
const LINE_NUMBER_PREFIX = /^\s*\d+(?:\s*\| ?|: ?|\t)/;

/** The line without a leading line-number prefix, or undefined when it has none. */
export function stripLineNumberPrefix(line: string): string | undefined {
  const match = LINE_NUMBER_PREFIX.exec(line);
  return match ? line.slice(match[0].length) : undefined;
}

/** The pattern with its line-number prefixes removed, when every non-blank line carries one. */
function withoutLineNumbers(pattern: readonly string[]): string[] | undefined {
  let prefixed = 0;
  const stripped: string[] = [];
  for (const line of pattern) {
    const rest = stripLineNumberPrefix(line);
    if (rest !== undefined) {
      prefixed++;
      stripped.push(rest);
    } else if (line.trim() === "") {
      stripped.push(line);
    } else {
      return undefined;
    }
  }
  return prefixed > 0 ? stripped : undefined;
}

/**
 * Where `pattern` occurs in `lines` at or after `start`. With `endOfFile`, the position that ends at the
 * last line is tried first (every pass), then the usual forward scan. An empty pattern matches at
 * `start`. Last resort: the same passes with line-number prefixes removed from the pattern.
 */
export function seekSequence(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  endOfFile = false,
): SeekMatch | undefined {
  if (pattern.length === 0) return { index: start, pass: "exact", strippedLineNumbers: false };
  const last = lines.length - pattern.length;
  if (start < 0 || last < start) return undefined;

  const variants: Array<{ pattern: readonly string[]; stripped: boolean }> = [{ pattern, stripped: false }];
  const stripped = withoutLineNumbers(pattern);
  if (stripped) variants.push({ pattern: stripped, stripped: true });

  // File lines are normalized at most once per pass, and only where they are looked at.
  const keys = new Map<SeekPass, Array<string | undefined>>();
  const fileKey = (pass: SeekPass, normalize: (line: string) => string, index: number): string => {
    let cache = keys.get(pass);
    if (!cache) keys.set(pass, (cache = new Array<string | undefined>(lines.length)));
    let key = cache[index];
    if (key === undefined) cache[index] = key = normalize(lines[index] ?? "");
    return key;
  };

  const scan = (from: number, to: number): SeekMatch | undefined => {
    for (const variant of variants) {
      for (const [pass, normalize] of PASSES) {
        const wanted = variant.pattern.map(normalize);
        for (let index = from; index <= to; index++) {
          let matched = true;
          for (let offset = 0; offset < wanted.length; offset++) {
            if (fileKey(pass, normalize, index + offset) !== wanted[offset]) {
              matched = false;
              break;
            }
          }
          if (matched) return { index, pass, strippedLineNumbers: variant.stripped };
        }
      }
    }
    return undefined;
  };

  if (endOfFile) {
    const atEnd = scan(last, last);
    if (atEnd) return atEnd;
  }
  return scan(start, last);
}
