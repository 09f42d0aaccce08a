/**
 * Search results packed to cross a thread boundary. Structured clone copies an array of many short
 * strings one string at a time (435,000 matching lines took 0.7–1.2 s), but one long string or a
 * transferred typed array in a few memcpys; so every matching line's text goes into one string and
 * every number into one Float64Array. The node runtime's search threads and the embedded runtime's
 * search worker both send their results this way.
 */
import type { MatchSpan } from "./matcher.js";
import type { FileResult, SearchMatch } from "./search.js";

export interface PackedResults {
  /**
   * Per file, in the order added: its index (the sender's numbering), line count, binary notice (0 none,
   * 1 stopped, 2 named explicitly), its offset; then per line: line number, text length, line ending
   * code (index in LINE_ENDINGS), span count, and each span's start and end.
   */
  numbers: Float64Array;
  /** Every matching line's text, one after another. */
  text: string;
}

const LINE_ENDINGS = ["", "\n", "\r\n", "\r"] as const;

function endingCode(ending: string): number {
  const code = LINE_ENDINGS.indexOf(ending as (typeof LINE_ENDINGS)[number]);
  if (code < 0) throw new Error(`unexpected line ending ${JSON.stringify(ending)}`);
  return code;
}

/** Packs FileResults one at a time. */
export class ResultPacker {
  private readonly numbers: number[] = [];
  private readonly texts: string[] = [];

  add(index: number, result: FileResult): void {
    const { numbers, texts } = this;
    const binary = result.binary;
    numbers.push(index, result.matches.length, binary ? (binary.stopped ? 1 : 2) : 0, binary ? binary.offset : 0);
    for (const match of result.matches) {
      numbers.push(match.lineNumber, match.line.length, endingCode(match.lineEnding), match.matches.length);
      for (const span of match.matches) numbers.push(span.start, span.end);
      texts.push(match.line);
    }
  }

  finish(): PackedResults {
    return { numbers: Float64Array.from(this.numbers), text: this.texts.join("") };
  }
}

/** The packed results back as FileResults, with the index each was added under; `fileAt` names them. */
export function unpackResults(
  { numbers, text }: PackedResults,
  fileAt: (index: number) => { path: string; displayPath: string },
): Array<{ index: number; result: FileResult }> {
  const items: Array<{ index: number; result: FileResult }> = [];
  let at = 0;
  let cut = 0;
  while (at < numbers.length) {
    const index = numbers[at]!;
    const lines = numbers[at + 1]!;
    const binaryKind = numbers[at + 2]!;
    const offset = numbers[at + 3]!;
    at += 4;
    const { path, displayPath } = fileAt(index);
    const matches: SearchMatch[] = new Array(lines);
    for (let k = 0; k < lines; k++) {
      const lineNumber = numbers[at]!;
      const length = numbers[at + 1]!;
      const lineEnding = LINE_ENDINGS[numbers[at + 2]!]!;
      const spanCount = numbers[at + 3]!;
      at += 4;
      const spans: MatchSpan[] = new Array(spanCount);
      for (let s = 0; s < spanCount; s++, at += 2) spans[s] = { start: numbers[at]!, end: numbers[at + 1]! };
      matches[k] = { path, displayPath, lineNumber, line: text.slice(cut, cut + length), lineEnding, matches: spans };
      cut += length;
    }
    const result: FileResult = binaryKind === 0 ? { path, displayPath, matches } : { path, displayPath, matches, binary: { path, displayPath, offset, stopped: binaryKind === 1 } };
    items.push({ index, result });
  }
  return items;
}
