/**
 * A workspace's checkpoints in the browser: one IndexedDB database per workspace, beside its files, with
 * the timeline (keyed by checkpoint number) and the blobs (keyed by hash). Structured clone keeps the bytes
 * as they are, so nothing is encoded on the way.
 */
import type { CheckpointStorage, StoredBlob } from "./storage.js";
import type { Checkpoint } from "./types.js";

const TIMELINE = "timeline";
const BLOBS = "blobs";

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error("IndexedDB transaction failed"));
    transaction.onabort = () => reject(transaction.error ?? new Error("IndexedDB transaction aborted (is the browser's storage full?)"));
  });
}

function checkpointDatabaseName(workspace: string): string {
  return `workbench-checkpoints:${workspace}`;
}

export async function openIndexedDBCheckpointStorage(workspace: string, factory: IDBFactory = indexedDB): Promise<CheckpointStorage> {
  const request = factory.open(checkpointDatabaseName(workspace), 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(TIMELINE);
    request.result.createObjectStore(BLOBS);
  };
  const db = await done(request);
  const write = async (store: string, act: (objects: IDBObjectStore) => void) => {
    const transaction = db.transaction(store, "readwrite");
    act(transaction.objectStore(store));
    await committed(transaction);
  };
  const read = <T>(store: string, ask: (objects: IDBObjectStore) => IDBRequest<T>) => done(ask(db.transaction(store).objectStore(store)));
  return {
    loadTimeline: async () => {
      const all = await read(TIMELINE, (objects) => objects.getAll() as IDBRequest<Checkpoint[]>);
      return all.sort((a, b) => a.seq - b.seq);
    },
    putCheckpoint: (checkpoint) => write(TIMELINE, (objects) => objects.put(checkpoint, checkpoint.seq)),
    deleteCheckpoints: (seqs) => write(TIMELINE, (objects) => seqs.forEach((seq) => objects.delete(seq))),
    getBlob: (hash) => read(BLOBS, (objects) => objects.get(hash) as IDBRequest<StoredBlob | undefined>),
    putBlob: (hash, blob) => write(BLOBS, (objects) => objects.put(blob, hash)),
    listBlobs: async () => (await read(BLOBS, (objects) => objects.getAllKeys())).map(String),
    deleteBlobs: (hashes) => write(BLOBS, (objects) => hashes.forEach((hash) => objects.delete(hash))),
  };
}
