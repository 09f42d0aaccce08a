import { deserializeError, RuntimeError, serializeError, toRuntimeError, type SerializedError } from "../errors.js";
import type { Endpoint } from "./endpoint.js";
import { workspaceFsOps, type BulkWrites, type WorkspaceFs, type WorkspaceFsOp } from "./workspace-fs.js";
import type { ProgramFiles, SnapshotVersion } from "./node/protocol.js";
import { takeSnapshot } from "./node/snapshot.js";
import type { SnapshotCache } from "./snapshot-cache.js";

/**
 * A whole tree in one answer (what `node` starts a program with): walked where the files are, so a program's
 * start costs one round trip rather than several per file.
 */
interface SnapshotRequest {
  kind: "fs-snapshot";
  id: number;
  roots: string[];
  /** The version the asker already holds: the answer may then be only what changed since. */
  since?: SnapshotVersion;
}

/** A snapshot: its version when it came from a cache (which can later answer with a delta from it). */
export interface SnapshotReply {
  version?: SnapshotVersion;
  files: ProgramFiles;
}

type SnapshotResponse =
  | ({ kind: "fs-snapshot-response"; id: number; ok: true } & SnapshotReply)
  | { kind: "fs-snapshot-response"; id: number; ok: false; error: SerializedError };

function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

async function answerSnapshot(
  fs: WorkspaceFs,
  endpoint: Endpoint,
  request: SnapshotRequest,
  cache: SnapshotCache | undefined,
): Promise<void> {
  try {
    if (cache) {
      // The cache keeps its bytes: they are copied over, not moved.
      const { version, files } = await cache.read(request.roots, request.since);
      endpoint.post({ kind: "fs-snapshot-response", id: request.id, ok: true, version, files } satisfies SnapshotResponse);
      return;
    }
    const entries = (await takeSnapshot(fs, request.roots)).map((entry) =>
      entry.kind === "file" ? { ...entry, data: ownBuffer(entry.data) } : entry,
    );
    const transfer = entries.flatMap((entry) => (entry.kind === "file" ? [entry.data.buffer as ArrayBuffer] : []));
    endpoint.post({ kind: "fs-snapshot-response", id: request.id, ok: true, files: { kind: "full", entries } } satisfies SnapshotResponse, [
      ...new Set(transfer),
    ]);
  } catch (error) {
    endpoint.post({
      kind: "fs-snapshot-response",
      id: request.id,
      ok: false,
      error: serializeError(toRuntimeError(error, "snapshot")),
    } satisfies SnapshotResponse);
  }
}

/** Asks `serveFs` at the other end of `endpoint` for the trees under `roots`, in one answer. */
export function createSnapshotClient(endpoint: Endpoint): (roots: string[], since?: SnapshotVersion) => Promise<SnapshotReply> {
  let nextId = 1;
  const pending = new Map<number, { resolve(reply: SnapshotReply): void; reject(error: Error): void }>();
  endpoint.listen((message) => {
    const response = message as SnapshotResponse;
    if (response?.kind !== "fs-snapshot-response") return;
    const waiter = pending.get(response.id);
    if (!waiter) return;
    pending.delete(response.id);
    if (response.ok) waiter.resolve({ version: response.version, files: response.files });
    else waiter.reject(deserializeError(response.error));
  });
  return (roots, since) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      endpoint.post({ kind: "fs-snapshot", id, roots, ...(since ? { since } : {}) } satisfies SnapshotRequest);
    });
}

/** The workspace's operations, and the host's bulk write (answered ENOSYS by a host without one). */
type ServedOp = WorkspaceFsOp | "writeMany";
const servedOps: ReadonlySet<string> = new Set<string>([...workspaceFsOps, "writeMany"]);

interface FsRequest {
  kind: "fs-request";
  id: number;
  op: ServedOp;
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

/**
 * Serves a WorkspaceFs to the other end of `endpoint` (the shell worker); snapshots come from `snapshots`
 * when given (else each is read in full).
 */
export function serveFs(fs: WorkspaceFs, endpoint: Endpoint, snapshots?: SnapshotCache): () => void {
  return endpoint.listen(async (message) => {
    if ((message as SnapshotRequest)?.kind === "fs-snapshot") return answerSnapshot(fs, endpoint, message as SnapshotRequest, snapshots);
    if (!isRequest(message) || !servedOps.has(message.op)) return;
    try {
      const method = (fs as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>)[message.op];
      if (!method) throw new RuntimeError("ENOSYS", message.op, undefined, "this file host writes no files in bulk");
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
  const call = (op: ServedOp, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      endpoint.post({ kind: "fs-request", id, op, args } satisfies FsRequest);
    });
  const client = {} as Record<WorkspaceFsOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of workspaceFsOps) client[op] = (...args: unknown[]) => call(op, args);
  const bulk: BulkWrites = { writeMany: (files) => call("writeMany", [files]) as Promise<void> };
  return Object.assign(client as unknown as WorkspaceFs, bulk);
}
