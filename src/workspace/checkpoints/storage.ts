/**
 * Where a workspace's checkpoints are kept: the timeline (one record per checkpoint) and the blobs it
 * names. IndexedDB in the page, a folder of the workbench's own data on node, memory in tests.
 */
import type { Checkpoint } from "./types.js";

/**
 * A blob as stored: whole, or as the bytes that differ from another blob (the common start and end
 * kept by length), so one changed line of a big file costs about that line.
 */
export type StoredBlob =
  | { kind: "full"; bytes: Uint8Array }
  | { kind: "delta"; base: string; prefix: number; suffix: number; middle: Uint8Array; depth: number };

export interface CheckpointStorage {
  loadTimeline(): Promise<Checkpoint[]>;
  putCheckpoint(checkpoint: Checkpoint): Promise<void>;
  deleteCheckpoints(seqs: readonly number[]): Promise<void>;
  getBlob(hash: string): Promise<StoredBlob | undefined>;
  putBlob(hash: string, blob: StoredBlob): Promise<void>;
  listBlobs(): Promise<string[]>;
  deleteBlobs(hashes: readonly string[]): Promise<void>;
}

/** Everything in memory: tests, and a workspace that has no storage of its own. */
export class MemoryCheckpointStorage implements CheckpointStorage {
  readonly checkpoints = new Map<number, Checkpoint>();
  readonly blobs = new Map<string, StoredBlob>();

  async loadTimeline(): Promise<Checkpoint[]> {
    return [...this.checkpoints.values()].sort((a, b) => a.seq - b.seq).map((checkpoint) => structuredClone(checkpoint));
  }
  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    this.checkpoints.set(checkpoint.seq, structuredClone(checkpoint));
  }
  async deleteCheckpoints(seqs: readonly number[]): Promise<void> {
    for (const seq of seqs) this.checkpoints.delete(seq);
  }
  async getBlob(hash: string): Promise<StoredBlob | undefined> {
    return this.blobs.get(hash);
  }
  async putBlob(hash: string, blob: StoredBlob): Promise<void> {
    this.blobs.set(hash, blob);
  }
  async listBlobs(): Promise<string[]> {
    return [...this.blobs.keys()];
  }
  async deleteBlobs(hashes: readonly string[]): Promise<void> {
    for (const hash of hashes) this.blobs.delete(hash);
  }
  /** Bytes held by blobs (what a step costs in storage). */
  blobBytes(): number {
    let total = 0;
    for (const blob of this.blobs.values()) total += blob.kind === "full" ? blob.bytes.byteLength : blob.middle.byteLength + 64;
    return total;
  }
}
