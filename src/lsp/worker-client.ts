/**
 * The page side of the language worker: requests out, replies in, and the worker's file requests
 * answered from the workspace. A worker that fails to start or dies makes every pending and later
 * request fail with the reason, instead of hanging a tool call.
 */
import type { BackendFactory, LanguageBackend } from "./backend.js";
import type { FileReply, FileRequest, Reply, Request } from "./protocol.js";
import type { Diagnostic } from "./types.js";

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Method = Request extends infer R ? (R extends { method: infer M } ? M : never) : never;

export function workerBackend(createWorker: () => Worker): BackendFactory {
  return async (root, files) => {
    const worker = createWorker();
    const pending = new Map<number, Pending>();
    let nextId = 1;
    let dead: Error | undefined;
    const failAll = (error: Error) => {
      dead = error;
      for (const entry of pending.values()) entry.reject(error);
      pending.clear();
    };
    worker.addEventListener("error", (event) => failAll(new Error(`the language worker failed: ${event.message || "it could not start"}`)));
    worker.addEventListener("message", (event: MessageEvent<Reply | FileRequest>) => {
      const data = event.data;
      if ("fileRequest" in data) {
        Promise.all([data.read.length > 0 ? files.read(data.read) : {}, data.list.length > 0 ? files.list(data.list) : {}]).then(
          ([texts, listings]) => worker.postMessage({ fileReply: data.fileRequest, texts, listings } satisfies FileReply),
          (error: unknown) =>
            worker.postMessage({ fileReply: data.fileRequest, texts: {}, listings: {}, error: String(error) } satisfies FileReply),
        );
        return;
      }
      const entry = pending.get(data.id);
      pending.delete(data.id);
      if (!entry) return;
      if (data.ok) entry.resolve(data.value);
      else entry.reject(new Error(data.error));
    });
    const call = <T>(method: Method, params: Record<string, unknown>): Promise<T> => {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        worker.postMessage({ id, method, ...params } as Request);
      });
    };
    await call("open", { root });
    const backend: LanguageBackend = {
      update: (path, text) => call("update", { path, text }),
      refresh: () => call("refresh", {}),
      diagnostics: (paths) => call<Record<string, Diagnostic[]>>("diagnostics", { paths }),
      query: (query) => call("query", { query }),
      dispose: () => {
        failAll(new Error("the language worker was stopped"));
        worker.terminate();
      },
    };
    return backend;
  };
}
