/**
 * The search worker's body: ripgrep's search (src/search) over the workspace files, which it reaches
 * through `fsEndpoint` like the shell does, with a cache in front (CachedSearchFs) that the page keeps
 * honest by reporting every change. The first search reads the files over the port; later ones read
 * memory, and none of them runs on the page's thread. Matching lines leave as packed bytes (the page
 * decodes each batch once).
 */
import { CachedSearchFs } from "../../search/cached-fs.js";
import { GlobError } from "../../search/glob.js";
import { SearchPatternError } from "../../search/matcher.js";
import { Search } from "../../search/search.js";
import { createLocalSearchService, type SearchStats } from "../../search/service.js";
import type { MessageKind } from "../../search/walk.js";
import type { Endpoint } from "./endpoint.js";
import { createFsClient } from "./fs-rpc.js";
import {
  BATCH_ITEMS,
  BATCH_MS,
  MAX_UNACKED,
  PackedFilesWriter,
  type FromSearch,
  type SerializedSearchError,
  type ToSearch,
} from "./search-protocol.js";

type MessageSink = (text: string, level: MessageKind) => void;

function serialize(error: unknown): SerializedSearchError {
  if (error instanceof SearchPatternError)
    return { name: error.name, message: error.message, reason: error.reason, pattern: error.pattern };
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

  /** Waits while the reader has MAX_UNACKED batches it has not taken yet; false once aborted. */
  async function roomFor(job: Job): Promise<boolean> {
    while (job.unacked >= MAX_UNACKED && !job.controller.signal.aborted) {
      await new Promise<void>((resolve) => (job.resume = resolve));
    }
    return !job.controller.signal.aborted;
  }

  /** A grep: hits packed straight from the file bytes, no line text made here. */
  async function search(message: Extract<ToSearch, { kind: "run"; op: "search" }>, job: Job, onMessage: MessageSink): Promise<SearchStats> {
    const search = new Search(fs, { ...message.query, shard: message.shard, signal: job.controller.signal, onMessage });
    const positions = message.query.positions ?? true;
    const writer = new PackedFilesWriter();
    let since = performance.now();
    const post = (walked: number) => {
      job.unacked++;
      const { batch, transferables } = writer.finish();
      control.post({ kind: "batch", id: message.id, items: batch, walked } satisfies FromSearch, transferables);
      since = performance.now();
    };
    if (message.shard && message.shard.count > 1) {
      // The page merges the shares in walk order: a share that has found little for a while still says
      // how far it has got (with what it holds, if the reader has room), or the others' results would
      // wait for its next hit, or its end.
      search.onProgress = (walked) => {
        if (performance.now() - since < BATCH_MS) return;
        if (writer.files === 0) {
          send({ kind: "progress", id: message.id, walked });
          since = performance.now();
        } else if (job.unacked < MAX_UNACKED) post(walked);
      };
    }
    const flush = async () => {
      if (writer.files > 0 && (await roomFor(job))) post(search.settled);
    };
    for await (const { file, hits, seq } of search.hits()) {
      writer.add(file, hits, seq, search.matcher, positions);
      if (writer.files >= BATCH_ITEMS || performance.now() - since > BATCH_MS) await flush();
      if (job.controller.signal.aborted) return { errored: search.errored, filesSearched: search.filesSearched };
    }
    await flush();
    return { errored: search.errored, filesSearched: search.filesSearched };
  }

  /** A listing, as the local service gives it. */
  async function list(message: Extract<ToSearch, { kind: "run"; op: "list" }>, job: Job, onMessage: MessageSink): Promise<SearchStats> {
    const results = service.list(message.query, { signal: job.controller.signal, onMessage });
    let batch: unknown[] = [];
    let since = performance.now();
    const flush = async () => {
      if (batch.length === 0 || !(await roomFor(job))) return;
      job.unacked++;
      send({ kind: "batch", id: message.id, items: batch });
      batch = [];
      since = performance.now();
    };
    for await (const item of results) {
      batch.push(item);
      if (batch.length >= BATCH_ITEMS || performance.now() - since > BATCH_MS) await flush();
      if (job.controller.signal.aborted) return results.stats();
    }
    await flush();
    return results.stats();
  }

  async function run(message: Extract<ToSearch, { kind: "run" }>): Promise<void> {
    const job: Job = { controller: new AbortController(), unacked: 0 };
    jobs.set(message.id, job);
    const onMessage: MessageSink = (text, level) => send({ kind: "message", id: message.id, text, level });
    try {
      const stats = message.op === "search" ? await search(message, job, onMessage) : await list(message, job, onMessage);
      if (!job.controller.signal.aborted) send({ kind: "done", id: message.id, stats });
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
