/**
 * What the node runtime's search threads and the thread that walks say to each other. The walking
 * thread hands out batches of paths; a search thread reads and searches them and answers with one
 * compact reply per batch: every matching line's text in one string (decoded here from the bytes
 * packed as the files were searched), and the numbers that cut it up in one transferable array. A search that matches hundreds of thousands of lines then crosses the
 * thread boundary as a few hundred copies of big blocks rather than an object per line.
 */
import type { BinaryMode } from "../../search/binary.js";
import { decodePacked, ResultPacker, unpackResults, type DecodedResults } from "../../search/packed-results.js";
import type { Matcher } from "../../search/matcher.js";
import type { FileHits, FileResult } from "../../search/results.js";
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
      /** Epoch ms past which the search is over too (its deadline), checked as the cancel is. */
      deadlineAt: number;
    }
  /** `modes` only when some file was named explicitly; otherwise every file is "quit". */
  | { kind: "batch"; id: number; seq: number; paths: string[]; modes?: BinaryMode[] }
  | { kind: "end"; id: number };

export type FromThread =
  | { kind: "ready" }
  | { kind: "done"; id: number; seq: number; reply: BatchReply }
  /** The thread failed on a batch (a bug, not a file error): the search cannot be trusted to be complete. */
  | { kind: "failed"; id: number; seq: number; message: string };

export interface BatchReply extends DecodedResults {
  /** Files opened and read (a file that could not be read is in `failures` instead). */
  searched: number;
  /** Files that could not be read, in path order. */
  failures: Array<{ index: number; error: SerializedError }>;
}

/** Builds a BatchReply, one file at a time. */
export class ReplyWriter {
  searched = 0;
  private readonly packer = new ResultPacker();
  private readonly failures: BatchReply["failures"] = [];

  /** Copies what it keeps of `hits.data` (the thread reuses its read buffer). */
  add(index: number, hits: FileHits, matcher: Matcher, positions: boolean): void {
    this.packer.add(index, hits, matcher, positions);
  }

  fail(index: number, error: SerializedError): void {
    this.failures.push({ index, error });
  }

  finish(): BatchReply {
    // Decoded here: the walking thread, which also formats the output, is the busier one.
    return { searched: this.searched, ...decodePacked(this.packer.finish()), failures: this.failures };
  }
}

export type BatchItem = { index: number; result: FileResult } | { index: number; error: SerializedError };

/** The reply's results and failures as one list in path order; `files` are the batch's files. */
export function readReply(reply: BatchReply, files: ReadonlyArray<{ path: string; displayPath: string }>): BatchItem[] {
  const items: BatchItem[] = [];
  const { failures } = reply;
  let failed = 0;
  for (const item of unpackResults(reply, (index) => files[index]!)) {
    while (failed < failures.length && failures[failed]!.index < item.index) items.push(failures[failed++]!);
    items.push(item);
  }
  while (failed < failures.length) items.push(failures[failed++]!);
  return items;
}
