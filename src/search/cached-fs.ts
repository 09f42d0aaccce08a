/**
 * A SearchFs that remembers what it has read (listings, stats, real paths and file contents up to a
 * byte budget), for a search host that is told of every change to the files it serves. A workspace in
 * a browser tab is searched again and again while it changes a little: after the first search, the
 * next ones read memory, not the file system underneath (ZenFS costs ~100 µs a file, in memory).
 *
 * Correctness rests on `invalidate`: the owner must report every path that changed. A change drops
 * what is cached at that path and below it, and its parent folder's listing. Symbolic links make one
 * file reachable under several paths, so once a link has been seen, any change drops everything.
 * Reads that were in flight while a change was reported are used but not kept (they may predate it).
 * "No such file" is remembered too: a change at that path (or above it) forgets it.
 */
import { errorCode, type SearchDirEntry, type SearchFs, type SearchStat } from "./fs.js";

export interface CachedSearchFsOptions {
  /** At most this many bytes of file contents are kept (oldest use dropped first). Default 256 MiB. */
  maxBytes?: number;
}

/** Errors that mean "nothing there" (kept like an answer). */
const absent = new Set(["ENOENT", "ENOTDIR"]);

/** A remembered "nothing there": each read gets an error of its own, with the original's code and text. */
class Missing {
  constructor(private readonly original: Error) {}
  error(): Error {
    return Object.assign(new Error(this.original.message), { name: this.original.name, code: errorCode(this.original) });
  }
}

export class CachedSearchFs implements SearchFs {
  private readonly listings = new Map<string, SearchDirEntry[] | Missing>();
  private readonly stats = new Map<string, SearchStat | Missing>();
  private readonly lstats = new Map<string, SearchStat | Missing>();
  private readonly realpaths = new Map<string, string | Missing>();
  private readonly missingFiles = new Map<string, Missing>();
  private readonly contents = new Map<string, Uint8Array>();
  private contentBytes = 0;
  private readonly maxBytes: number;
  /** Counts changes, so a read can tell whether one was reported while it ran. */
  private epoch = 0;
  private sawLink = false;

  constructor(
    private readonly inner: SearchFs,
    options: CachedSearchFsOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 256 * 2 ** 20;
  }

  /** Bytes of file contents held now. */
  get cachedBytes(): number {
    return this.contentBytes;
  }

  /** Forgets what may be stale after changes at `paths` (absolute), or everything. */
  invalidate(paths: readonly string[] | "all"): void {
    this.epoch++;
    if (paths === "all" || this.sawLink) {
      this.clear();
      return;
    }
    const changed = new Set(paths);
    // One pass over what is cached, whatever the number of changes: a key goes when it or one of its
    // folders changed.
    const stale = (key: string): boolean => {
      for (let at = key.length; at > 0; at = key.lastIndexOf("/", at - 1)) {
        if (changed.has(at === key.length ? key : key.slice(0, at))) return true;
      }
      return changed.has("/");
    };
    for (const map of [this.listings, this.stats, this.lstats, this.realpaths, this.missingFiles] as Map<string, unknown>[]) {
      for (const key of map.keys()) if (stale(key)) map.delete(key);
    }
    for (const [key, bytes] of this.contents) {
      if (!stale(key)) continue;
      this.contents.delete(key);
      this.contentBytes -= bytes.byteLength;
    }
    for (const path of paths) {
      const slash = path.lastIndexOf("/");
      this.listings.delete(slash <= 0 ? "/" : path.slice(0, slash));
    }
  }

  private clear(): void {
    this.listings.clear();
    this.stats.clear();
    this.lstats.clear();
    this.realpaths.clear();
    this.missingFiles.clear();
    this.contents.clear();
    this.contentBytes = 0;
    this.sawLink = false;
  }

  /**
   * Reads through `load` and keeps the answer only if no change was reported meanwhile. "Not there"
   * is an answer too (every search looks for ignore files that mostly do not exist); making the
   * path reports it as a change like any other.
   */
  private async through<T>(map: Map<string, T | Missing>, path: string, load: () => Promise<T>): Promise<T> {
    const known = map.get(path);
    if (known instanceof Missing) throw known.error();
    if (known !== undefined) return known;
    const epoch = this.epoch;
    try {
      const value = await load();
      if (epoch === this.epoch) map.set(path, value);
      return value;
    } catch (error) {
      const code = errorCode(error);
      if (epoch === this.epoch && code && absent.has(code)) map.set(path, new Missing(error as Error));
      throw error;
    }
  }

  private noteType(type: string): void {
    if (type === "symlink") this.sawLink = true;
  }

  readdir(path: string): Promise<SearchDirEntry[]> {
    return this.through(this.listings, path, async () => {
      const entries = await this.inner.readdir(path);
      for (const entry of entries) this.noteType(entry.type);
      return entries;
    });
  }

  stat(path: string): Promise<SearchStat> {
    return this.through(this.stats, path, () => this.inner.stat(path));
  }

  lstat(path: string): Promise<SearchStat> {
    return this.through(this.lstats, path, async () => {
      const stat = await this.inner.lstat(path);
      this.noteType(stat.type);
      return stat;
    });
  }

  realpath(path: string): Promise<string> {
    return this.through(this.realpaths, path, async () => {
      const real = await this.inner.realpath(path);
      if (real !== path) this.sawLink = true;
      return real;
    });
  }

  readNow(path: string): Uint8Array | undefined {
    const known = this.contents.get(path);
    // Most recently used last, so eviction drops the coldest first; while the budget is far off,
    // the order does not matter yet and the two map operations per file are saved.
    if (known && this.contentBytes > this.maxBytes * 0.75) {
      this.contents.delete(path);
      this.contents.set(path, known);
    }
    return known;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const known = this.readNow(path);
    if (known) return known;
    const missing = this.missingFiles.get(path);
    if (missing) throw missing.error();
    const epoch = this.epoch;
    let bytes: Uint8Array;
    try {
      bytes = await this.inner.readFile(path);
    } catch (error) {
      const code = errorCode(error);
      if (epoch === this.epoch && code && absent.has(code)) this.missingFiles.set(path, new Missing(error as Error));
      throw error;
    }
    if (epoch === this.epoch && bytes.byteLength <= this.maxBytes) {
      this.contents.set(path, bytes);
      this.contentBytes += bytes.byteLength;
      for (const [key, old] of this.contents) {
        if (this.contentBytes <= this.maxBytes) break;
        this.contents.delete(key);
        this.contentBytes -= old.byteLength;
      }
    }
    return bytes;
  }
}
