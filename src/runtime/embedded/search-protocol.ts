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
  | { kind: "batch"; id: number; items: unknown[] }
  | { kind: "message"; id: number; text: string; level: "error" | "warning" }
  | { kind: "done"; id: number; stats: SearchStats }
  | { kind: "error"; id: number; error: SerializedSearchError };

export const MAX_UNACKED = 4;
/** A batch goes out when it is this big, or when this long has passed since the last one. */
export const BATCH_ITEMS = 512;
export const BATCH_MS = 16;

/**
 * A FileResult as it crosses the port: columns instead of an object per matching line, so a search
 * that matches hundreds of thousands of lines does not clone the file's path twice for each of them.
 */
export type WireFile = [
  path: string,
  displayPath: string,
  binary: FileResult["binary"] | null,
  lineNumbers: number[],
  lines: string[],
  lineEndings: string[],
  /** start, end pairs per line (empty when positions were not asked for). */
  spans: number[][],
];

export function toWire(file: FileResult): WireFile {
  const { matches } = file;
  return [
    file.path,
    file.displayPath,
    file.binary ?? null,
    matches.map((m) => m.lineNumber),
    matches.map((m) => m.line),
    matches.map((m) => m.lineEnding),
    matches.map((m) => m.matches.flatMap((span) => [span.start, span.end])),
  ];
}

export function fromWire([path, displayPath, binary, lineNumbers, lines, lineEndings, spans]: WireFile): FileResult {
  const matches: SearchMatch[] = lineNumbers.map((lineNumber, k) => {
    const flat = spans[k]!;
    const positions = [];
    for (let i = 0; i < flat.length; i += 2) positions.push({ start: flat[i]!, end: flat[i + 1]! });
    return { path, displayPath, lineNumber, line: lines[k]!, lineEnding: lineEndings[k]!, matches: positions };
  });
  return binary ? { path, displayPath, matches, binary } : { path, displayPath, matches };
}
