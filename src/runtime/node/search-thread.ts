/**
 * A search thread of the node runtime (a worker_thread, started by search-pool.ts): it reads the files
 * of each batch it is handed and searches them, the way the walking thread would have, and answers
 * with a compact reply (search-batch.ts). Reads go into one reused buffer: no stat and no allocation
 * per file, which is most of what a file costs beyond its open and read; and a walked file with a NUL
 * in its first 64 KiB is read no further (ripgrep would not search on either).
 */
import { closeSync, fstatSync, readSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { compilePattern, type Matcher } from "../../search/matcher.js";
import { BUFFER_CAPACITY } from "../../search/binary.js";
import { MatchBudget } from "../../search/regex/budget.js";
import { findHits, quitsWithin } from "../../search/search.js";
import { serializeError, toRuntimeError } from "../errors.js";
import { openRegularSync } from "./regular-file.js";
import { ReplyWriter, type FromThread, type ToThread } from "./search-batch.js";
import { errorMessage } from "../../base/error-message.js";

const INITIAL_BUFFER = 256 * 1024;
/** A buffer grown past this for a big file is let go afterwards rather than kept for the thread's life. */
const KEEP_BUFFER = 8 * 1024 * 1024;

let buffer = Buffer.allocUnsafeSlow(INITIAL_BUFFER);

/**
 * The file, in `buffer` (valid until the next read): all of it, or with `mayStop`, only its first
 * part when that already decides the search (a NUL early in a walked file: see quitsWithin).
 */
function readFile(path: string, mayStop: boolean): Buffer {
  // A special file is refused here too: the walk skipped it, but the name may have changed since.
  const fd = openRegularSync(path);
  try {
    let filled = 0;
    let checked = false;
    for (;;) {
      if (filled === buffer.length) {
        // Bigger than the buffer: ask the size once rather than doubling (and copying) step by step.
        const size = fstatSync(fd).size;
        const bigger = Buffer.allocUnsafeSlow(Math.max(size + 1, buffer.length * 2));
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) return buffer.subarray(0, filled);
      filled += n;
      if (mayStop && !checked && filled >= BUFFER_CAPACITY) {
        checked = true;
        if (quitsWithin(buffer.subarray(0, filled))) return buffer.subarray(0, filled);
      }
    }
  } finally {
    closeSync(fd);
  }
}

interface Job {
  /** Undefined when the patterns did not compile here (the walking thread compiled them first, so never expected). */
  matcher: Matcher | undefined;
  failure?: string;
  positions: boolean;
  cancel: Int32Array;
  deadlineAt: number;
}

/** The search was cancelled or ran past its deadline: the walking thread reports which. */
function over(job: { cancel: Int32Array; deadlineAt: number }): boolean {
  return Atomics.load(job.cancel, 0) !== 0 || Date.now() > job.deadlineAt;
}

/** Thrown inside a match once the search is cancelled; ends the batch quietly. */
class SearchCancelled extends Error {}

const jobs = new Map<number, Job>();
const port = parentPort!;
const send = (message: FromThread, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

function runBatch(job: Job, paths: string[], modes: Extract<ToThread, { kind: "batch" }>["modes"]): ReplyWriter {
  const writer = new ReplyWriter();
  for (let index = 0; index < paths.length; index++) {
    if (over(job)) break;
    const path = paths[index]!;
    const mode = modes?.[index] ?? "quit";
    let bytes: Buffer;
    try {
      bytes = readFile(path, mode === "quit");
    } catch (error) {
      writer.fail(index, serializeError(toRuntimeError(error, "open", path)));
      continue;
    }
    writer.searched++;
    let hits: ReturnType<typeof findHits>;
    try {
      hits = findHits(job.matcher!, bytes, mode);
    } catch (error) {
      if (error instanceof SearchCancelled) break;
      throw error;
    }
    if (hits) writer.add(index, hits, job.matcher!, job.positions);
    if (buffer.length > KEEP_BUFFER) buffer = Buffer.allocUnsafeSlow(INITIAL_BUFFER);
  }
  return writer;
}

port.on("message", (message: ToThread) => {
  switch (message.kind) {
    case "begin": {
      const job: Job = { matcher: undefined, positions: message.positions, cancel: message.cancel, deadlineAt: message.deadlineAt };
      try {
        job.matcher = compilePattern(message.patterns, { caseInsensitive: message.caseInsensitive });
        // A cancel (abort, or the search ended) or the deadline must stop a long match inside one file
        // too, not only between files.
        job.matcher.setBudget(
          new MatchBudget(() => {
            if (over(job)) throw new SearchCancelled();
          }),
        );
      } catch (error) {
        job.failure = errorMessage(error);
      }
      jobs.set(message.id, job);
      return;
    }
    case "end":
      jobs.delete(message.id);
      return;
    case "batch": {
      const job = jobs.get(message.id);
      try {
        if (job?.failure !== undefined) throw new Error(job.failure);
        const reply = (job ? runBatch(job, message.paths, message.modes) : new ReplyWriter()).finish();
        send({ kind: "done", id: message.id, seq: message.seq, reply }, [reply.numbers.buffer as ArrayBuffer]);
      } catch (error) {
        send({ kind: "failed", id: message.id, seq: message.seq, message: errorMessage(error) });
      }
      return;
    }
  }
});

send({ kind: "ready" });
