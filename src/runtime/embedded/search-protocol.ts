import type { FileResult, SearchMatch } from "../../search/search.js";
import type { ListQuery, SearchQuery, SearchStats } from "../../search/service.js";

/**
 * Messages between the page and the search worker. Results come in batches; the worker keeps at most
 * MAX_UNACKED batches in flight, so a search that matches millions of lines waits for its reader
 * instead of filling the page's memory.
 */
export type ToSearch =
  | { kind: "run"; id: number; op: "search"; query: SearchQuery }
  | { kind: "run"; id: number; op: "list"; query: ListQuery }
  | { kind: "ack"; id: number }
  | { kind: "abort"; id: number }
  /** The files changed at these paths (or anywhere): what the worker remembers of them is stale. */
  | { kind: "invalidate"; paths: string[] | "all" };

export interface SerializedSearchError {
  name: string;
  message: string;
  /** SearchPatternError and GlobError carry these. */
  reason?: string;
  pattern?: string;
  glob?: string;
}

export type FromSearch =
  /** A search's results packed (PackedFiles); a listing's as they are. */
  | { kind: "batch"; id: number; items: PackedFiles | unknown[] }
  | { kind: "message"; id: number; text: string; level: "error" | "warning" }
  | { kind: "done"; id: number; stats: SearchStats }
  | { kind: "error"; id: number; error: SerializedSearchError };

export const MAX_UNACKED = 4;
/** A batch goes out when it is this big, or when this long has passed since the last one. */
export const BATCH_ITEMS = 512;
export const BATCH_MS = 16;

/**
 * A batch of FileResults as it crosses the port. Structured clone copies an array of many short strings
 * one string at a time (435,000 matching lines took ~0.7–1.2 s to clone), but one long string or a
 * typed array in a few memcpys, so a batch is packed into exactly that: every matching line in one text,
 * every number in one transferred Float64Array, and only the paths as separate strings.
 */
export interface PackedFiles {
  /** path and displayPath of each file, in order. */
  names: string[];
  /** Every matching line of the batch, each followed by "\n" (a line never contains one). */
  text: string;
  /**
   * Per file: match count, binary notice (0 none, 1 stopped, 2 named explicitly), its offset; then per
   * match: line number, line ending code (index in LINE_ENDINGS), span count, start and end of each span.
   */
  numbers: Float64Array;
}

const LINE_ENDINGS = ["\n", "\r\n", "\r", ""] as const;

function endingCode(ending: string): number {
  const code = LINE_ENDINGS.indexOf(ending as (typeof LINE_ENDINGS)[number]);
  if (code < 0) throw new Error(`unexpected line ending ${JSON.stringify(ending)}`);
  return code;
}

export function packFiles(files: readonly FileResult[]): PackedFiles {
  let size = 0;
  for (const file of files) {
    size += 3;
    for (const match of file.matches) size += 3 + 2 * match.matches.length;
  }
  const numbers = new Float64Array(size);
  const names: string[] = [];
  const lines: string[] = [];
  let at = 0;
  for (const file of files) {
    names.push(file.path, file.displayPath);
    numbers[at++] = file.matches.length;
    numbers[at++] = file.binary ? (file.binary.stopped ? 1 : 2) : 0;
    numbers[at++] = file.binary?.offset ?? 0;
    for (const match of file.matches) {
      lines.push(match.line);
      numbers[at++] = match.lineNumber;
      numbers[at++] = endingCode(match.lineEnding);
      numbers[at++] = match.matches.length;
      for (const span of match.matches) {
        numbers[at++] = span.start;
        numbers[at++] = span.end;
      }
    }
  }
  lines.push("");
  return { names, text: lines.join("\n"), numbers };
}

export function unpackFiles({ names, text, numbers }: PackedFiles): FileResult[] {
  const files: FileResult[] = [];
  let at = 0;
  let from = 0;
  for (let f = 0; f < names.length; f += 2) {
    const path = names[f]!;
    const displayPath = names[f + 1]!;
    const count = numbers[at++]!;
    const binaryKind = numbers[at++]!;
    const offset = numbers[at++]!;
    const matches: SearchMatch[] = new Array(count);
    for (let m = 0; m < count; m++) {
      const to = text.indexOf("\n", from);
      const line = text.slice(from, to);
      from = to + 1;
      const lineNumber = numbers[at++]!;
      const lineEnding = LINE_ENDINGS[numbers[at++]!]!;
      const spans = numbers[at++]!;
      const positions: SearchMatch["matches"] = new Array(spans);
      for (let k = 0; k < spans; k++) positions[k] = { start: numbers[at++]!, end: numbers[at++]! };
      matches[m] = { path, displayPath, lineNumber, line, lineEnding, matches: positions };
    }
    files.push(binaryKind === 0 ? { path, displayPath, matches } : { path, displayPath, matches, binary: { path, displayPath, offset, stopped: binaryKind === 1 } });
  }
  return files;
}
