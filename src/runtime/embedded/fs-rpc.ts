import { deserializeError, serializeError, toRuntimeError, type SerializedError } from "../errors.js";
import type { Endpoint } from "./endpoint.js";
import { workspaceFsOps, type WorkspaceFs, type WorkspaceFsOp } from "./workspace-fs.js";

interface FsRequest {
  kind: "fs-request";
  id: number;
  op: WorkspaceFsOp;
  args: unknown[];
}

type FsResponse =
  | { kind: "fs-response"; id: number; ok: true; value: unknown }
  | { kind: "fs-response"; id: number; ok: false; error: SerializedError };

function isRequest(message: unknown): message is FsRequest {
  return typeof message === "object" && message !== null && (message as FsRequest).kind === "fs-request";
}

function isResponse(message: unknown): message is FsResponse {
  return typeof message === "object" && message !== null && (message as FsResponse).kind === "fs-response";
}

/** Serves a WorkspaceFs to the other end of `endpoint` (the shell worker). */
export function serveFs(fs: WorkspaceFs, endpoint: Endpoint): () => void {
  return endpoint.listen(async (message) => {
    if (!isRequest(message) || !workspaceFsOps.includes(message.op)) return;
    try {
      const method = fs[message.op] as (...args: unknown[]) => Promise<unknown>;
      let value = await method.apply(fs, message.args);
      let transfer: Transferable[] = [];
      if (value instanceof Uint8Array) {
        // Hand the bytes over without a copy, unless they are a view into a larger (maybe pooled) buffer.
        if (value.byteOffset !== 0 || value.byteLength !== value.buffer.byteLength) value = value.slice();
        transfer = [(value as Uint8Array).buffer as ArrayBuffer];
      }
      endpoint.post({ kind: "fs-response", id: message.id, ok: true, value } satisfies FsResponse, transfer);
    } catch (error) {
      const mapped = toRuntimeError(error, message.op, typeof message.args[0] === "string" ? message.args[0] : undefined);
      endpoint.post({ kind: "fs-response", id: message.id, ok: false, error: serializeError(mapped) } satisfies FsResponse);
    }
  });
}

/** A WorkspaceFs whose every call is answered by `serveFs` at the other end of `endpoint`. */
export function createFsClient(endpoint: Endpoint): WorkspaceFs {
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  endpoint.listen((message) => {
    if (!isResponse(message)) return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(deserializeError(message.error));
  });
  const call = (op: WorkspaceFsOp, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      endpoint.post({ kind: "fs-request", id, op, args } satisfies FsRequest);
    });
  const client = {} as Record<WorkspaceFsOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of workspaceFsOps) client[op] = (...args: unknown[]) => call(op, args);
  return client as unknown as WorkspaceFs;
}
