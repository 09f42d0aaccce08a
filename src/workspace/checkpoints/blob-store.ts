import { contentHash } from "./content-hash.js";
import type { CheckpointStorage, StoredBlob } from "./storage.js";

/** Below this a file is stored whole: a delta would save little and cost a lookup. */
const DELTA_MIN_BYTES = 4096;
/** Deltas on deltas: past this depth the next version is stored whole, so reading one stays cheap. */
const MAX_DELTA_DEPTH = 128;

/**
 * Content-addressed blobs: a content stored twice is stored once. A new version of a file is stored as
 * a delta against its previous version (the caller names it) when that saves most of the bytes.
 */
export class BlobStore {
  /** Blobs known to be stored (so an unchanged file costs no storage round trip). */
  private readonly known = new Set<string>();
  /** Recently read contents, so undoing many steps over one file does not rebuild each delta chain. */
  private readonly cache = new Map<string, Uint8Array>();
  private cacheBytes = 0;

  constructor(private readonly storage: CheckpointStorage) {}

  /** Stores the bytes (unless there already) and returns their hash. */
  async put(bytes: Uint8Array, previous?: string): Promise<string> {
    const hash = await contentHash(bytes);
    if (this.known.has(hash)) return hash;
    if (await this.storage.getBlob(hash)) {
      this.known.add(hash);
      return hash;
    }
    const blob = (previous && bytes.byteLength >= DELTA_MIN_BYTES && (await this.deltaAgainst(previous, bytes))) || {
      kind: "full" as const,
      bytes: bytes.slice(),
    };
    await this.storage.putBlob(hash, blob);
    this.known.add(hash);
    this.remember(hash, bytes);
    return hash;
  }

  async get(hash: string): Promise<Uint8Array> {
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const blob = await this.storage.getBlob(hash);
    if (!blob) throw new Error(`the checkpoint blob ${hash.slice(0, 12)} is missing from storage: this checkpoint cannot be restored`);
    let bytes: Uint8Array;
    if (blob.kind === "full") bytes = blob.bytes;
    else {
      const base = await this.get(blob.base);
      bytes = new Uint8Array(blob.prefix + blob.middle.byteLength + blob.suffix);
      bytes.set(base.subarray(0, blob.prefix), 0);
      bytes.set(blob.middle, blob.prefix);
      bytes.set(base.subarray(base.byteLength - blob.suffix), blob.prefix + blob.middle.byteLength);
    }
    this.remember(hash, bytes);
    return bytes;
  }

  /** The hashes a stored blob needs to be read (itself and its delta bases). */
  async closure(hash: string): Promise<string[]> {
    const chain = [hash];
    let blob = await this.storage.getBlob(hash);
    while (blob?.kind === "delta") {
      chain.push(blob.base);
      blob = await this.storage.getBlob(blob.base);
    }
    return chain;
  }

  forget(hashes: Iterable<string>): void {
    for (const hash of hashes) {
      this.known.delete(hash);
      const cached = this.cache.get(hash);
      if (cached) this.cacheBytes -= cached.byteLength;
      this.cache.delete(hash);
    }
  }

  private async deltaAgainst(previous: string, bytes: Uint8Array): Promise<StoredBlob | undefined> {
    const stored = await this.storage.getBlob(previous);
    if (!stored) return undefined;
    const depth = stored.kind === "delta" ? stored.depth + 1 : 1;
    if (depth > MAX_DELTA_DEPTH) return undefined;
    const base = await this.get(previous);
    const limit = Math.min(base.byteLength, bytes.byteLength);
    let prefix = 0;
    while (prefix < limit && base[prefix] === bytes[prefix]) prefix++;
    let suffix = 0;
    while (suffix < limit - prefix && base[base.byteLength - 1 - suffix] === bytes[bytes.byteLength - 1 - suffix]) suffix++;
    const middle = bytes.slice(prefix, bytes.byteLength - suffix);
    // Worth it only when most of the file is shared.
    if (middle.byteLength > bytes.byteLength / 2) return undefined;
    return { kind: "delta", base: previous, prefix, suffix, middle, depth };
  }

  private remember(hash: string, bytes: Uint8Array): void {
    const CACHE_LIMIT = 64 * 1024 * 1024;
    if (bytes.byteLength > CACHE_LIMIT / 4) return;
    this.cache.set(hash, bytes);
    this.cacheBytes += bytes.byteLength;
    for (const [oldest, value] of this.cache) {
      if (this.cacheBytes <= CACHE_LIMIT) break;
      this.cache.delete(oldest);
      this.cacheBytes -= value.byteLength;
    }
  }
}
