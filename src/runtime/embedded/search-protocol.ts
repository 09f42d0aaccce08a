import type { SearchStats } from "../../search/service.js";
import type { ListQuery, SearchQuery } from "../../search/service.js";

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
