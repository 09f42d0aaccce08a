/** What a search gives: each matching line, ripgrep's binary notices, and per file, as text or as byte ranges. */
import type { MatchSpan } from "./matcher.js";

export interface SearchMatch {
  /** Absolute path of the file. */
  path: string;
  /** The path as ripgrep prints it. */
  displayPath: string;
  /** 1-based. */
  lineNumber: number;
  /** The line without its terminator (a final `\r` is part of the terminator); invalid UTF-8 as U+FFFD. */
  line: string;
  /** What ended the line in the file: "\n", "\r\n", "\r" (at the end of the file) or "". */
  lineEnding: string;
  /** Where the pattern matched, as UTF-16 offsets into `line`. */
  matches: MatchSpan[];
}

/** ripgrep's note that a binary file matched (its lines are not shown past the first NUL). */
interface SearchBinaryNotice {
  path: string;
  displayPath: string;
  /** Offset of the NUL byte ripgrep reports ("around offset N"). */
  offset: number;
  /**
   * true: a walked file, searched until its first NUL ("WARNING: stopped searching binary file after
   * match"); false: a file named explicitly ("binary file matches").
   */
  stopped: boolean;
}

/** Everything one file gave. */
export interface FileResult {
  path: string;
  displayPath: string;
  matches: SearchMatch[];
  binary?: SearchBinaryNotice;
}

export type SearchEvent = ({ type: "match" } & SearchMatch) | ({ type: "binary" } & SearchBinaryNotice);

/**
 * What one file gave before any text is made: the matching lines as byte ranges of `data` (the bytes
 * searched: BOM dropped, UTF-16 transcoded), and ripgrep's binary notice.
 */
export interface FileHits {
  data: Uint8Array;
  /** Start and end (exclusive, before the `\n`) of each matching line, flat: [start0, end0, start1, ...]. */
  lines: number[];
  binary?: { offset: number; stopped: boolean };
}
