/**
 * The answer to a blocking child_process call (execSync and its kin), written by the shell into memory the
 * waiting program shares, where there is shared memory (the CLI's worker threads; a page without
 * cross-origin isolation has none). Layout: two int32s (state, then the length of a JSON head), the head,
 * then the byte blobs the head points at (stdout, stderr, the files the child changed).
 */
import type { FileChanges, SnapshotEntry } from "./protocol.js";

export interface SyncReply {
  exitCode: number;
  notFound?: boolean;
  /** Ended by the call's `timeout`. */
  timedOut?: boolean;
  stdout: Uint8Array;
  stderr: Uint8Array;
  changes: FileChanges;
}

/** 0 while the shell works; then done, or too large for the memory the program gave. */
const SYNC_WAITING = 0;
const SYNC_DONE = 1;
const SYNC_TOO_LARGE = 2;

/** Bytes a blocking call's answer may take (stdout, stderr and the child's changed files together). */
const SYNC_REPLY_MAX = 512 * 1024 * 1024;

const HEADER = 8;

type Head = {
  exitCode: number;
  notFound?: boolean;
  timedOut?: boolean;
  stdout: number;
  stderr: number;
  changes: Omit<FileChanges, "files"> & {
    files: Array<Exclude<SnapshotEntry, { kind: "file" }> | (Omit<Extract<SnapshotEntry, { kind: "file" }>, "data"> & { data: number })>;
  };
};

/** Memory for one blocking call's answer: it grows as the answer needs, up to SYNC_REPLY_MAX. */
export function newReplyBuffer(): SharedArrayBuffer {
  const Shared = SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => SharedArrayBuffer;
  return new Shared(64 * 1024, { maxByteLength: SYNC_REPLY_MAX });
}

export function writeSyncReply(buffer: SharedArrayBuffer, reply: SyncReply): void {
  const blobs: Uint8Array[] = [];
  const blob = (data: Uint8Array) => blobs.push(data) - 1;
  const head: Head = {
    exitCode: reply.exitCode,
    notFound: reply.notFound,
    timedOut: reply.timedOut,
    stdout: blob(reply.stdout),
    stderr: blob(reply.stderr),
    changes: {
      directories: reply.changes.directories,
      removed: reply.changes.removed,
      files: reply.changes.files.map((entry) => (entry.kind === "file" ? { ...entry, data: blob(entry.data) } : entry)),
    },
  };
  const headBytes = new TextEncoder().encode(JSON.stringify({ head, sizes: blobs.map((data) => data.byteLength) }));
  const needed = HEADER + headBytes.byteLength + blobs.reduce((sum, data) => sum + data.byteLength, 0);
  const state = new Int32Array(buffer, 0, 2);
  const growable = buffer as SharedArrayBuffer & { grow?(length: number): void; growable?: boolean };
  if (needed > buffer.byteLength) {
    if (needed <= SYNC_REPLY_MAX && growable.growable && growable.grow) growable.grow(needed);
    else {
      Atomics.store(state, 0, SYNC_TOO_LARGE);
      Atomics.notify(state, 0);
      return;
    }
  }
  const bytes = new Uint8Array(buffer);
  bytes.set(headBytes, HEADER);
  let at = HEADER + headBytes.byteLength;
  for (const data of blobs) {
    bytes.set(data, at);
    at += data.byteLength;
  }
  state[1] = headBytes.byteLength;
  Atomics.store(state, 0, SYNC_DONE);
  Atomics.notify(state, 0);
}

/** Blocks until the shell has answered; undefined when the answer did not fit. */
export function waitForSyncReply(buffer: SharedArrayBuffer): SyncReply | undefined {
  const state = new Int32Array(buffer, 0, 2);
  while (Atomics.load(state, 0) === SYNC_WAITING) Atomics.wait(state, 0, SYNC_WAITING);
  if (Atomics.load(state, 0) === SYNC_TOO_LARGE) return undefined;
  const bytes = new Uint8Array(buffer);
  const headLength = state[1]!;
  const { head, sizes } = JSON.parse(new TextDecoder().decode(bytes.slice(HEADER, HEADER + headLength))) as { head: Head; sizes: number[] };
  const blobs: Uint8Array[] = [];
  let at = HEADER + headLength;
  for (const size of sizes) {
    blobs.push(bytes.slice(at, at + size));
    at += size;
  }
  return {
    exitCode: head.exitCode,
    notFound: head.notFound,
    timedOut: head.timedOut,
    stdout: blobs[head.stdout]!,
    stderr: blobs[head.stderr]!,
    changes: {
      directories: head.changes.directories,
      removed: head.changes.removed,
      files: head.changes.files.map((entry): SnapshotEntry => (entry.kind === "file" ? { ...entry, data: blobs[entry.data]! } : entry)),
    },
  };
}
