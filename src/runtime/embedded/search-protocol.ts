import { ResultPacker, unpackResults, type PackedResults } from "../../search/packed-results.js";
import type { Matcher } from "../../search/matcher.js";
import type { FileHits, FileResult } from "../../search/results.js";
import type { ListQuery, SearchQuery, SearchStats } from "../../search/service.js";
import type { Shard } from "../../search/shard.js";
import type { MessageKind } from "../../search/walk.js";

/**
 * Messages between the page and the search worker. Results come in batches; the worker keeps at most
 * MAX_UNACKED batches in flight, so a search that matches millions of lines waits for its reader
 * instead of filling the page's memory.
 */
export type ToSearch =
  /** With `shard`, this worker searches only its share of the files (see shard.ts). */
  | { kind: "run"; id: number; op: "search"; query: SearchQuery; shard?: Shard }
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
  /**
   * A search's results packed (PackedFiles); a listing's as they are. `walked`: the search has dealt
   * with the first `walked` files of the walk (later batches hold only files after them).
   */
  | { kind: "batch"; id: number; items: PackedFiles | unknown[]; walked?: number }
  /** A worker with a share of a split search has dealt with the first `walked` files of the walk. */
  | { kind: "progress"; id: number; walked: number }
  | { kind: "message"; id: number; text: string; level: MessageKind }
  | { kind: "done"; id: number; stats: SearchStats }
  | { kind: "error"; id: number; error: SerializedSearchError };

export const MAX_UNACKED = 4;
/** A batch goes out when it is this big, or when this long has passed since the last one. */
export const BATCH_ITEMS = 512;
export const BATCH_MS = 16;

/** A batch of search results as it crosses the port: the files' paths, and their hits packed (see packed-results.ts). */
export interface PackedFiles {
  /** path and displayPath of each file, in order. */
  names: string[];
  /** Each file's position in the walk. */
  seqs: number[];
  packed: PackedResults;
}

/** Gathers a batch: each file's names beside its hits. */
export class PackedFilesWriter {
  private readonly packer = new ResultPacker();
  private names: string[] = [];
  private seqs: number[] = [];

  get files(): number {
    return this.packer.files;
  }

  add(file: { path: string; displayPath: string }, hits: FileHits, seq: number, matcher: Matcher, positions: boolean): void {
    this.packer.add(this.seqs.length, hits, matcher, positions);
    this.names.push(file.path, file.displayPath);
    this.seqs.push(seq);
  }

  /** The batch, ready to post (transfer `transferables`); the writer starts empty again. */
  finish(): { batch: PackedFiles; transferables: ArrayBuffer[] } {
    const packed = this.packer.finish();
    const batch = { names: this.names, seqs: this.seqs, packed };
    this.names = [];
    this.seqs = [];
    return { batch, transferables: [packed.numbers.buffer as ArrayBuffer, packed.bytes.buffer as ArrayBuffer] };
  }
}

/** The batch's files, each with its position in the walk. */
export function unpackFiles({ names, seqs, packed }: PackedFiles): Array<{ seq: number; result: FileResult }> {
  return unpackResults(packed, (index) => ({ path: names[2 * index]!, displayPath: names[2 * index + 1]! })).map((item) => ({
    seq: seqs[item.index]!,
    result: item.result,
  }));
}
