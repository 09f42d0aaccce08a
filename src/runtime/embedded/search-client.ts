/**
 * The page's side of the search workers: a SearchService whose every search runs off the page's
 * thread (search-core.ts), in one or more workers started on the first search and started again if
 * one ever dies. The page reports every change to the files, so what the workers have cached stays
 * true.
 *
 * With several workers, a grep is split among them by path (shard.ts): each walks the whole tree but
 * reads and searches only its share, and the page merges their results back into walk order. A
 * worker's result can be handed on once every other worker has walked past it (its batches say how
 * far they got) or has finished. Listings run in the first worker alone: they read no file.
 */
import { abortError, GlobError, SearchPatternError } from "../../search/errors.js";
import type { ListedFile, SearchCallOptions, SearchQuery, SearchRun, SearchService, SearchStats } from "../../search/service.js";
import type { FileResult } from "../../search/results.js";
import type { Endpoint } from "./endpoint.js";
import { unpackFiles, type FromSearch, type PackedFiles, type SerializedSearchError, type ToSearch } from "./search-protocol.js";
import type { ShellWorker } from "./shell-pool.js";

function deserialize(error: SerializedSearchError): Error {
  if (error.name === "SearchPatternError") return new SearchPatternError(error.message, error.reason ?? "", error.pattern ?? "");
  if (error.name === "GlobError") return new GlobError(error.glob ?? "", error.reason ?? "");
  const result = new Error(error.message);
  result.name = error.name;
  return result;
}

export interface WorkerSearchService extends SearchService {
  /** Files changed at these paths (or anywhere, "all"). */
  invalidate(paths: string[] | "all"): void;
  dispose(): void;
}

export interface WorkerSearchOptions {
  /** How many search workers split a grep (default 1). */
  workers?: number;
}

interface Live {
  workers: ShellWorker[];
  /** Fails every search in progress (a worker died). */
  failures: Set<(error: Error) => void>;
}

/** What one worker has sent for one search and the reader has not taken yet. */
interface Lane<T> {
  worker: ShellWorker;
  /**
   * Results in walk order from `head` on, each marked if it is the last of its batch (the batch is
   * acknowledged once that one is taken).
   */
  queue: Array<{ seq: number; result: T; last: boolean }>;
  head: number;
  /** Every result this worker will still send is at this walk position or later. */
  walked: number;
  done: boolean;
}

type Incoming<T> = { from: "worker"; lane: Lane<T>; message: FromSearch } | { from: "crash"; error: Error };

export function createWorkerSearchService(
  start: () => Promise<ShellWorker>,
  serveFs: (fsEndpoint: Endpoint) => () => void,
  options: WorkerSearchOptions = {},
): WorkerSearchService {
  const count = Number.isFinite(options.workers) ? Math.max(1, Math.floor(options.workers!)) : 1;
  let live: Promise<Live> | undefined;
  let ready: Live | undefined;
  let disposed = false;
  let nextId = 1;

  function connect(): Promise<Live> {
    if (disposed) return Promise.reject(new Error("the runtime was disposed"));
    live ??= (async () => {
      const started = await Promise.allSettled(Array.from({ length: count }, () => start()));
      const workers = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      const failed = started.find((outcome) => outcome.status === "rejected");
      if (failed) {
        for (const worker of workers) worker.terminate();
        throw failed.reason;
      }
      const unserve = workers.map((worker) => serveFs(worker.fsEndpoint));
      const current: Live = { workers, failures: new Set() };
      let crashed = false;
      for (const worker of workers) {
        worker.onCrash((message) => {
          if (crashed) return;
          crashed = true;
          // One worker's share is gone: the others' answers would be incomplete, so all start afresh.
          for (const stop of unserve) stop();
          for (const other of workers) other.terminate();
          if (ready === current) ready = undefined;
          live = undefined;
          for (const fail of current.failures) fail(new Error(`the search worker stopped (${message}); run the search again`));
        });
      }
      ready = current;
      return current;
    })().catch((error: unknown) => {
      live = undefined;
      throw error;
    });
    return live;
  }

  function run<T>(
    op: "search" | "list",
    query: Extract<ToSearch, { kind: "run" }>["query"],
    callOptions: SearchCallOptions,
    decode: (message: Extract<FromSearch, { kind: "batch" }>, lane: Lane<T>) => Array<{ seq: number; result: T }>,
  ): SearchRun<T> {
    // Summed over the workers as each finishes; an error message marks it errored at once.
    const totals: SearchStats = { errored: false, filesSearched: 0 };
    return {
      stats: () => ({ ...totals }),
      async *[Symbol.asyncIterator]() {
        const { signal, onMessage } = callOptions;
        if (signal?.aborted) throw abortError(signal);
        const { workers, failures } = await connect();
        const id = nextId++;
        const used = op === "list" ? workers.slice(0, 1) : workers;
        const lanes: Lane<T>[] = used.map((worker) => ({ worker, queue: [], head: 0, walked: 0, done: false }));
        const incoming: Incoming<T>[] = [];
        let wake: (() => void) | undefined;
        const push = (item: Incoming<T>) => {
          incoming.push(item);
          wake?.();
        };
        const unlisten = lanes.map((lane) =>
          lane.worker.control.listen((data) => {
            const message = data as FromSearch;
            if (message.id === id) push({ from: "worker", lane, message });
          }),
        );
        const fail = (error: Error) => push({ from: "crash", error });
        failures.add(fail);
        const onAbort = () => wake?.();
        signal?.addEventListener("abort", onAbort);
        try {
          lanes.forEach((lane, index) => {
            const shard = lanes.length > 1 ? { index, count: lanes.length } : undefined;
            const message = op === "search" ? { kind: "run", id, op, query: query as SearchQuery, shard } : { kind: "run", id, op, query };
            lane.worker.control.post(message as ToSearch);
          });
          for (;;) {
            if (signal?.aborted) throw abortError(signal);
            // Hand on whatever no other worker can still come before.
            for (let lane = nextInOrder(lanes); lane; lane = nextInOrder(lanes)) {
              const item = take(lane);
              if (item.last) lane.worker.control.post({ kind: "ack", id } satisfies ToSearch);
              yield item.result;
              if (signal?.aborted) throw abortError(signal);
            }
            if (lanes.every((lane) => lane.done && lane.head === lane.queue.length)) return;
            const next = incoming.shift();
            if (!next) {
              await new Promise<void>((resolve) => (wake = resolve));
              wake = undefined;
              continue;
            }
            if (next.from === "crash") throw next.error;
            const { lane, message } = next;
            if (message.kind === "batch") {
              const items = decode(message, lane);
              items.forEach(({ seq, result }, k) => lane.queue.push({ seq, result, last: k === items.length - 1 }));
              lane.walked = message.walked ?? lane.walked + items.length;
              if (items.length === 0) lane.worker.control.post({ kind: "ack", id } satisfies ToSearch);
            } else if (message.kind === "progress") {
              lane.walked = Math.max(lane.walked, message.walked);
            } else if (message.kind === "message") {
              if (message.level === "error") totals.errored = true;
              onMessage?.(message.text, message.level);
            } else if (message.kind === "done") {
              lane.done = true;
              totals.errored ||= message.stats.errored;
              totals.filesSearched += message.stats.filesSearched;
            } else throw deserialize(message.error);
          }
        } finally {
          // Stopped early (aborted, failed, or the reader broke off): every worker still at it stops too.
          for (const lane of lanes) if (!lane.done) lane.worker.control.post({ kind: "abort", id } satisfies ToSearch);
          for (const stop of unlisten) stop();
          failures.delete(fail);
          signal?.removeEventListener("abort", onAbort);
        }
      },
    };
  }

  return {
    search: (query, options = {}) => run<FileResult>("search", query, options, (message) => unpackFiles(message.items as PackedFiles)),
    // A listing runs in one worker: its items go out as they come, numbered here.
    list: (query, options = {}) =>
      run<ListedFile>("list", query, options, (message, lane) =>
        (message.items as ListedFile[]).map((result, k) => ({ seq: lane.walked + k, result })),
      ),
    invalidate(paths) {
      // Nothing is cached before the workers are up; messages after this one see the change.
      for (const worker of ready?.workers ?? []) worker.control.post({ kind: "invalidate", paths } satisfies ToSearch);
    },
    dispose() {
      disposed = true;
      for (const fail of ready?.failures ?? []) fail(new Error("the runtime was disposed"));
      for (const worker of ready?.workers ?? []) worker.terminate();
      ready = undefined;
      live = undefined;
    },
  };
}

/**
 * The lane whose next result comes first in walk order and can go out now: no other lane may still
 * send one before it (each has a queued result after it, has walked past it, or is done).
 */
function nextInOrder<T>(lanes: Lane<T>[]): Lane<T> | undefined {
  let best: Lane<T> | undefined;
  let seq = Infinity;
  for (const lane of lanes) {
    const head = lane.queue[lane.head];
    if (head && head.seq < seq) {
      best = lane;
      seq = head.seq;
    }
  }
  if (!best) return undefined;
  for (const lane of lanes) {
    if (lane === best || lane.head < lane.queue.length || lane.done) continue;
    if (lane.walked <= seq) return undefined;
  }
  return best;
}

/** The lane's next result (there is one). */
function take<T>(lane: Lane<T>): Lane<T>["queue"][number] {
  const item = lane.queue[lane.head++]!;
  if (lane.head === lane.queue.length) {
    lane.queue.length = 0;
    lane.head = 0;
  }
  return item;
}
