/**
 * The page's side of the search worker: a SearchService whose every search runs in the worker
 * (search-core.ts), started on the first search and started again if it ever dies. The page reports
 * every change to the files, so what the worker has cached stays true.
 */
import { abortError, GlobError, SearchPatternError } from "../../search/errors.js";
import type { ListedFile, SearchCallOptions, SearchRun, SearchService, SearchStats } from "../../search/service.js";
import type { FileResult } from "../../search/search.js";
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

interface Live {
  worker: ShellWorker;
  /** Fails every search in progress (the worker died). */
  failures: Set<(error: Error) => void>;
}

export function createWorkerSearchService(
  start: () => Promise<ShellWorker>,
  serveFs: (fsEndpoint: Endpoint) => () => void,
): WorkerSearchService {
  let live: Promise<Live> | undefined;
  let ready: Live | undefined;
  let disposed = false;
  let nextId = 1;

  function connect(): Promise<Live> {
    if (disposed) return Promise.reject(new Error("the runtime was disposed"));
    live ??= (async () => {
      const worker = await start();
      const unserve = serveFs(worker.fsEndpoint);
      const current: Live = { worker, failures: new Set() };
      worker.onCrash((message) => {
        unserve();
        worker.terminate();
        if (ready === current) ready = undefined;
        live = undefined;
        for (const fail of current.failures) fail(new Error(`the search worker stopped (${message}); run the search again`));
      });
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
    options: SearchCallOptions,
    decode: (items: PackedFiles | unknown[]) => T[],
  ): SearchRun<T> {
    let stats: SearchStats = { errored: false, filesSearched: 0 };
    return {
      stats: () => ({ ...stats }),
      async *[Symbol.asyncIterator]() {
        const { signal, onMessage } = options;
        if (signal?.aborted) throw abortError(signal);
        const { worker, failures } = await connect();
        const id = nextId++;
        const post = (message: ToSearch) => worker.control.post(message);
        const queue: Array<FromSearch | { kind: "failed"; error: Error }> = [];
        let wake: (() => void) | undefined;
        const push = (message: (typeof queue)[number]) => {
          queue.push(message);
          wake?.();
        };
        const unlisten = worker.control.listen((data) => {
          const message = data as FromSearch;
          if (message.id === id) push(message);
        });
        const fail = (error: Error) => push({ kind: "failed", error });
        failures.add(fail);
        const onAbort = () => wake?.();
        signal?.addEventListener("abort", onAbort);
        let ended = false;
        try {
          post({ kind: "run", id, op, query } as ToSearch);
          for (;;) {
            if (signal?.aborted) throw abortError(signal);
            const message = queue.shift();
            if (!message) {
              await new Promise<void>((resolve) => (wake = resolve));
              wake = undefined;
              continue;
            }
            if (message.kind === "batch") {
              post({ kind: "ack", id });
              for (const item of decode(message.items)) {
                if (signal?.aborted) throw abortError(signal);
                yield item;
              }
            } else if (message.kind === "message") {
              if (message.level === "error") stats = { ...stats, errored: true };
              onMessage?.(message.text, message.level);
            } else if (message.kind === "done") {
              ended = true;
              stats = message.stats;
              return;
            } else {
              ended = true;
              throw message.kind === "failed" ? message.error : deserialize(message.error);
            }
          }
        } finally {
          // Stopped early (aborted, or the reader broke off): the worker stops too.
          if (!ended) post({ kind: "abort", id });
          unlisten();
          failures.delete(fail);
          signal?.removeEventListener("abort", onAbort);
        }
      },
    };
  }

  return {
    search: (query, options = {}) => run<FileResult>("search", query, options, (items) => unpackFiles(items as PackedFiles)),
    list: (query, options = {}) => run<ListedFile>("list", query, options, (items) => items as ListedFile[]),
    invalidate(paths) {
      // Nothing is cached before the worker is up; messages after this one see the change.
      ready?.worker.control.post({ kind: "invalidate", paths } satisfies ToSearch);
    },
    dispose() {
      disposed = true;
      ready?.worker.terminate();
      ready = undefined;
      live = undefined;
    },
  };
}
