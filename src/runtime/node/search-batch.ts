/**
 * What the node runtime's search threads and the thread that walks say to each other. The walking
 * thread hands out batches of paths; a search thread reads and searches them and answers with one
 * compact reply per batch: every matching line's text in one string, and the numbers that cut it up
 * in one transferable array. A search that matches hundreds of thousands of lines then crosses the
 * thread boundary as a few hundred copies of big blocks rather than an object per line.
 */
import type { BinaryMode } from "../../search/binary.js";
import type { FileResult, SearchMatch } from "../../search/search.js";
import type { MatchSpan } from "../../search/matcher.js";
import type { SerializedError } from "../errors.js";

export type ToThread =
  | {
      kind: "begin";
      id: number;
      patterns: string[];
      caseInsensitive: boolean;
      positions: boolean;
      /** Over a SharedArrayBuffer: non-zero once the search is over, checked before every file. */
      cancel: Int32Array;
    }
  /** `modes` only when some file was named explicitly; otherwise every file is "quit". */
  | { kind: "batch"; id: number; seq: number; paths: string[]; modes?: BinaryMode[] }
  | { kind: "end"; id: number };

export type FromThread =
  | { kind: "ready" }
  | { kind: "done"; id: number; seq: number; reply: BatchReply }
  /** The thread failed on a batch (a bug, not a file error): the search cannot be trusted to be complete. */
  | { kind: "failed"; id: number; seq: number; message: string };

export interface BatchReply {
  /** Files opened and read (a file that could not be read is in `failures` instead). */
  searched: number;
  /**
   * Per file with a result, in path order: index in the batch, line count, binary kind (0 none,
   * 1 stopped, 2 matches), binary offset; then per line: line number, text length, line ending code,
   * span count, and the spans' start and end.
   */
  numbers: Float64Array;
  /** Every matching line's text, one after another. */
  text: string;
  /** Files that could not be read, in path order. */
  failures: Array<{ index: number; error: SerializedError }>;
}

const endings = ["", "\n", "\r\n", "\r"];

/** Builds a BatchReply, one file at a time. */
export class ReplyWriter {
  searched = 0;
  private numbers: number[] = [];
  private texts: string[] = [];
  private failures: BatchReply["failures"] = [];

  add(index: number, result: FileResult): void {
    const { numbers, texts } = this;
    const binary = result.binary;
    numbers.push(index, result.matches.length, binary ? (binary.stopped ? 1 : 2) : 0, binary ? binary.offset : 0);
    for (const match of result.matches) {
      numbers.push(match.lineNumber, match.line.length, endings.indexOf(match.lineEnding), match.matches.length);
      for (const span of match.matches) numbers.push(span.start, span.end);
      texts.push(match.line);
    }
  }

  fail(index: number, error: SerializedError): void {
    this.failures.push({ index, error });
  }

  finish(): BatchReply {
    return { searched: this.searched, numbers: Float64Array.from(this.numbers), text: this.texts.join(""), failures: this.failures };
  }
}

export type BatchItem = { index: number; result: FileResult } | { index: number; error: SerializedError };

/** The reply's results and failures as one list in path order; `files` are the batch's files. */
export function readReply(reply: BatchReply, files: ReadonlyArray<{ path: string; displayPath: string }>): BatchItem[] {
  const items: BatchItem[] = [];
  const { numbers, text, failures } = reply;
  let failed = 0;
  let at = 0;
  let cut = 0;
  while (at < numbers.length) {
    const index = numbers[at]!;
    const lines = numbers[at + 1]!;
    const binaryKind = numbers[at + 2]!;
    const offset = numbers[at + 3]!;
    at += 4;
    while (failed < failures.length && failures[failed]!.index < index) items.push(failures[failed++]!);
    const { path, displayPath } = files[index]!;
    const matches: SearchMatch[] = new Array(lines);
    for (let k = 0; k < lines; k++) {
      const lineNumber = numbers[at]!;
      const length = numbers[at + 1]!;
      const lineEnding = endings[numbers[at + 2]!]!;
      const spanCount = numbers[at + 3]!;
      at += 4;
      const spans: MatchSpan[] = new Array(spanCount);
      for (let s = 0; s < spanCount; s++, at += 2) spans[s] = { start: numbers[at]!, end: numbers[at + 1]! };
      matches[k] = { path, displayPath, lineNumber, line: text.slice(cut, cut + length), lineEnding, matches: spans };
      cut += length;
    }
    const binary = binaryKind === 0 ? undefined : { path, displayPath, offset, stopped: binaryKind === 1 };
    items.push({ index, result: { path, displayPath, matches, binary } });
  }
  while (failed < failures.length) items.push(failures[failed++]!);
  return items;
}
