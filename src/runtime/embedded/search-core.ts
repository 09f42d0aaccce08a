/**
 * The search worker's body: ripgrep's search (src/search) over the workspace files, which it reaches
 * through `fsEndpoint` like the shell does, with a cache in front (CachedSearchFs) that the page keeps
 * honest by reporting every change. The first search reads the files over the port; later ones read
 * memory, and none of them runs on the page's thread.
 */
import { CachedSearchFs } from "../../search/cached-fs.js";
import { GlobError } from "../../search/glob.js";
import { SearchPatternError } from "../../search/matcher.js";
import type { FileResult } from "../../search/search.js";
import { createLocalSearchService, type SearchRun } from "../../search/service.js";
import type { Endpoint } from "./endpoint.js";
import { createFsClient } from "./fs-rpc.js";
import { BATCH_ITEMS, BATCH_MS, MAX_UNACKED, packFiles, type FromSearch, type SerializedSearchError, type ToSearch } from "./search-protocol.js";

function serialize(error: unknown): SerializedSearchError {
  if (error instanceof SearchPatternError) return { name: error.name, message: error.message, reason: error.reason, pattern: error.pattern };
  if (error instanceof GlobError) return { name: error.name, message: error.message, reason: error.reason, glob: error.glob };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

interface Job {
  controller: AbortController;
  unacked: number;
  /** Wakes the job when its reader has caught up. */
  resume?: () => void;
}

export function runSearchHost(control: Endpoint, fsEndpoint: Endpoint): void {
  const fs = new CachedSearchFs(createFsClient(fsEndpoint));
  const service = createLocalSearchService(fs);
  const jobs = new Map<number, Job>();
  const send = (message: FromSearch) => control.post(message);

  async function run(message: Extract<ToSearch, { kind: "run" }>): Promise<void> {
    const job: Job = { controller: new AbortController(), unacked: 0 };
    jobs.set(message.id, job);
    const callOptions = {
      signal: job.controller.signal,
      onMessage: (text: string, level: "error" | "warning") => send({ kind: "message", id: message.id, text, level }),
    };
    const results: SearchRun<unknown> =
      message.op === "search" ? service.search(message.query, callOptions) : service.list(message.query, callOptions);
    let batch: unknown[] = [];
    let since = performance.now();
    const flush = async () => {
      if (batch.length === 0) return;
      while (job.unacked >= MAX_UNACKED && !job.controller.signal.aborted) {
        await new Promise<void>((resolve) => (job.resume = resolve));
      }
      job.unacked++;
      if (message.op === "search") {
        const packed = packFiles(batch as FileResult[]);
        control.post({ kind: "batch", id: message.id, items: packed } satisfies FromSearch, [packed.packed.numbers.buffer]);
      } else send({ kind: "batch", id: message.id, items: batch });
      batch = [];
      since = performance.now();
    };
    try {
      for await (const item of results) {
        batch.push(item);
        if (batch.length >= BATCH_ITEMS || performance.now() - since > BATCH_MS) await flush();
        if (job.controller.signal.aborted) return;
      }
      await flush();
      send({ kind: "done", id: message.id, stats: results.stats() });
    } catch (error) {
      if (!job.controller.signal.aborted) send({ kind: "error", id: message.id, error: serialize(error) });
    } finally {
      jobs.delete(message.id);
    }
  }

  control.listen((data) => {
    const message = data as ToSearch;
    if (message.kind === "run") void run(message);
    else if (message.kind === "invalidate") fs.invalidate(message.paths);
    else {
      const job = jobs.get(message.id);
      if (!job) return;
      if (message.kind === "ack") job.unacked--;
      else job.controller.abort();
      job.resume?.();
      job.resume = undefined;
    }
  });
}
