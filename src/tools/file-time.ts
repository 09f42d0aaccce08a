import type { RuntimeFs } from "../runtime/types.js";

/**
 * When each session last read each file, so a tool never overwrites a file the model has not seen,
 * or one that changed after it was read (by the user, the terminal or another tool).
 */
export class FileTime {
  private readonly reads = new Map<string, Map<string, number>>();
  private readonly locks = new Map<string, Promise<void>>();

  /** The slack for file systems whose mtime is coarser than the clock (OpenCode uses 50 ms). */
  static readonly TOLERANCE_MS = 50;

  constructor(private readonly fs: Pick<RuntimeFs, "stat">, private readonly now: () => number = Date.now) {}

  read(sessionID: string, path: string): void {
    let session = this.reads.get(sessionID);
    if (!session) this.reads.set(sessionID, (session = new Map()));
    session.set(path, this.now());
  }

  get(sessionID: string, path: string): number | undefined {
    return this.reads.get(sessionID)?.get(path);
  }

  /** Forgets every session's read of `path`, as after a person edits it by hand. */
  invalidate(path: string): void {
    for (const session of this.reads.values()) session.delete(path);
  }

  async assert(sessionID: string, path: string): Promise<void> {
    const readAt = this.get(sessionID, path);
    if (readAt === undefined) throw new Error(`You must read file ${path} before overwriting it. Use the Read tool first`);
    const { mtimeMs } = await this.fs.stat(path);
    if (mtimeMs > readAt + FileTime.TOLERANCE_MS) {
      throw new Error(
        `File ${path} has been modified since it was last read.\nLast modification: ${new Date(mtimeMs).toISOString()}\nLast read: ${new Date(readAt).toISOString()}\n\nPlease read the file again before modifying it.`,
      );
    }
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
