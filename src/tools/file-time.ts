import { fingerprint, sameContent, type Fingerprint } from "../runtime/fingerprint.js";
import type { RuntimeFs } from "../runtime/types.js";

/** What a session last saw of a file: when, and its content's fingerprint when it was small enough to take. */
export interface FileSeen {
  at: number;
  fingerprint?: Fingerprint;
}

/**
 * When each session last read each file and what the file held then, so a tool never overwrites a file the
 * model has not seen, or one that changed after it was read (by the user, the terminal, another tool or
 * another session). The comparison is on content (size and hash), so two writes within one mtime tick, or
 * a file put back with its old mtime, are seen; only a file too big to fingerprint falls back to its mtime.
 * This is the early check; the one that counts is repeated at the moment of writing, under the file's lock
 * (RuntimeFs.writeFileAtomic's `expect`).
 */
export class FileTime {
  private readonly reads = new Map<string, Map<string, FileSeen>>();
  private readonly locks = new Map<string, Promise<void>>();

  /** The slack for file systems whose mtime is coarser than the clock (OpenCode uses 50 ms). */
  static readonly TOLERANCE_MS = 50;
  /** Larger files are not fingerprinted on read (they are compared by mtime; an edit reads them whole anyway). */
  static readonly FINGERPRINT_MAX_BYTES = 32 * 1024 * 1024;

  constructor(
    private readonly fs: Pick<RuntimeFs, "stat" | "readFile">,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes that the session saw the file now; with the content's fingerprint when the caller has the bytes. */
  read(sessionID: string, path: string, seen?: Fingerprint): void {
    this.note(sessionID, path, this.now(), seen);
  }

  /** `read`, taking the fingerprint from the file as it is now (call it before reading what is shown). */
  async record(sessionID: string, path: string): Promise<void> {
    // The time is when the look began, so a change made while it was reading counts as after it.
    const at = this.now();
    const stat = await this.fs.stat(path);
    const seen =
      stat.type === "file" && stat.size <= FileTime.FINGERPRINT_MAX_BYTES ? fingerprint(await this.fs.readFile(path)) : undefined;
    this.note(sessionID, path, at, seen);
  }

  private note(sessionID: string, path: string, at: number, seen: Fingerprint | undefined): void {
    let session = this.reads.get(sessionID);
    if (!session) this.reads.set(sessionID, (session = new Map()));
    session.set(path, seen ? { at, fingerprint: seen } : { at });
  }

  get(sessionID: string, path: string): number | undefined {
    return this.reads.get(sessionID)?.get(path)?.at;
  }

  seen(sessionID: string, path: string): FileSeen | undefined {
    return this.reads.get(sessionID)?.get(path);
  }

  /** Forgets every session's read of `path`, as after a person edits it by hand. */
  invalidate(path: string): void {
    for (const session of this.reads.values()) session.delete(path);
  }

  /**
   * Throws unless the session read the file and it is unchanged since. `current`: the file's bytes when the
   * caller already has them (saves reading them again).
   */
  async assert(sessionID: string, path: string, current?: Uint8Array): Promise<void> {
    const seen = this.seen(sessionID, path);
    if (seen === undefined) throw new Error(`You must read file ${path} before overwriting it. Use the Read tool first`);
    const { mtimeMs } = await this.fs.stat(path);
    const changed = seen.fingerprint
      ? !sameContent(seen.fingerprint, fingerprint(current ?? (await this.fs.readFile(path))))
      : mtimeMs > seen.at + FileTime.TOLERANCE_MS;
    if (changed) throw modifiedSinceRead(path, mtimeMs, seen.at);
  }

  /** Runs `fn` after every earlier holder of `path`'s lock is done (first come, first served; not re-entrant). */
  async withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(path) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => current);
    this.locks.set(path, chained);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(path) === chained) this.locks.delete(path);
    }
  }
}

/** OpenCode's words for a file that changed after the session read it. */
export function modifiedSinceRead(path: string, mtimeMs: number | undefined, readAt: number | undefined): Error {
  const when = (ms: number | undefined) => (ms === undefined || !Number.isFinite(ms) ? "unknown" : new Date(ms).toISOString());
  return new Error(
    `File ${path} has been modified since it was last read.\nLast modification: ${when(mtimeMs)}\nLast read: ${when(readAt)}\n\nPlease read the file again before modifying it.`,
  );
}
