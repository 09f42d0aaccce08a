/**
 * Line bookkeeping shared by the replacers and `replace`: where each line of the text starts, which line
 * an offset falls on, and the few per-line predicates every strategy needs. Text is LF-only here (the
 * caller normalizes CRLF and the BOM), so "\n" is the only separator.
 */

export interface LineIndex {
  /** The text split on "\n" (a final newline gives a last, empty line, as `split` does). */
  readonly lines: readonly string[];
  /** `starts[i]` is the offset of line i in the text. */
  readonly starts: readonly number[];
}

export function indexLines(text: string): LineIndex {
  const lines = text.split("\n");
  const starts: number[] = new Array<number>(lines.length);
  let offset = 0;
  lines.forEach((line, i) => {
    starts[i] = offset;
    offset += line.length + 1;
  });
  return { lines, starts };
}

/** The 0-based line holding `offset` (binary search over the line starts). */
export function lineOf(index: LineIndex, offset: number): number {
  let low = 0;
  let high = index.starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (index.starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The text of lines `from`..`to` (inclusive), joined, without the newline after the last one. */
export function sliceLines(text: string, index: LineIndex, from: number, to: number): string {
  const start = index.starts[from]!;
  const end = index.starts[to]! + index.lines[to]!.length;
  return text.slice(start, end);
}

/**
 * OpenCode's reading of a search string as lines: a trailing newline does not ask for an empty last line,
 * so one trailing "" is dropped (only one: "a\n\n" still ends with an empty line).
 */
export function searchLines(find: string): string[] {
  const lines = find.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

/** The whitespace a line starts with (spaces and tabs, or any other whitespace a model typed). */
export function leadingWhitespace(line: string): string {
  return /^\s*/.exec(line)![0];
}

/** Non-whitespace characters: a size that indentation and spacing differences do not change. */
export function inkLength(text: string): number {
  let ink = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // space, tab, LF, CR, vertical tab, form feed
    if (code !== 32 && (code < 9 || code > 13)) ink++;
  }
  return ink;
}

/** Every start offset of `needle` in `haystack`, overlapping ones included, up to `limit` of them. */
export function occurrencesOf(haystack: string, needle: string, limit = Number.POSITIVE_INFINITY): number[] {
  const found: number[] = [];
  if (needle === "") return found;
  for (let at = haystack.indexOf(needle); at !== -1 && found.length < limit; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}
