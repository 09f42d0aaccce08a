/**
 * A search thread of the node runtime (a worker_thread, started by search-pool.ts): it reads the files
 * of each batch it is handed and searches them, the way the walking thread would have, and answers
 * with a compact reply (search-batch.ts). Reads go into one reused buffer: no stat and no allocation
 * per file, which is most of what a file costs beyond its open and read.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { compilePattern, type Matcher } from "../../search/matcher.js";
import { searchBytes } from "../../search/search.js";
import { serializeError, toRuntimeError } from "../errors.js";
import { ReplyWriter, type FromThread, type ToThread } from "./search-batch.js";

const INITIAL_BUFFER = 256 * 1024;
/** A buffer grown past this for a big file is let go afterwards rather than kept for the thread's life. */
const KEEP_BUFFER = 8 * 1024 * 1024;

let buffer = Buffer.allocUnsafeSlow(INITIAL_BUFFER);

/** The whole file, in `buffer` (valid until the next read). */
function readWhole(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        const bigger = Buffer.allocUnsafeSlow(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) return buffer.subarray(0, filled);
      filled += n;
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
}

const jobs = new Map<number, Job>();
const port = parentPort!;
const send = (message: FromThread, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

function runBatch(job: Job, paths: string[], modes: Extract<ToThread, { kind: "batch" }>["modes"]): ReplyWriter {
  const writer = new ReplyWriter();
  const file = { path: "", displayPath: "" };
  for (let index = 0; index < paths.length; index++) {
    if (Atomics.load(job.cancel, 0) !== 0) break;
    const path = paths[index]!;
    let bytes: Buffer;
    try {
      bytes = readWhole(path);
    } catch (error) {
      writer.fail(index, serializeError(toRuntimeError(error, "open", path)));
      continue;
    }
    writer.searched++;
    const result = searchBytes(job.matcher!, file, bytes, modes?.[index] ?? "quit", job.positions);
    if (result) writer.add(index, result);
    if (buffer.length > KEEP_BUFFER) buffer = Buffer.allocUnsafeSlow(INITIAL_BUFFER);
  }
  return writer;
}

port.on("message", (message: ToThread) => {
  switch (message.kind) {
    case "begin": {
      const job: Job = { matcher: undefined, positions: message.positions, cancel: message.cancel };
      try {
        job.matcher = compilePattern(message.patterns, { caseInsensitive: message.caseInsensitive });
      } catch (error) {
        job.failure = error instanceof Error ? error.message : String(error);
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
        send({ kind: "failed", id: message.id, seq: message.seq, message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
  }
});

send({ kind: "ready" });
