/**
 * A streaming writer for one saved output. Text goes in as strings, is encoded into a fixed staging buffer
 * and reaches the runtime as batches through `appendFile`. Memory stays bounded whatever the output size:
 * the staging buffer, plus one batch in flight. A caller that awaits each `write` is held back while a
 * batch is being written (backpressure); one that does not (a synchronous onOutput callback) still gets
 * its chunks written in order, but then they queue in memory.
 *
 * The file is created lazily, by the first batch. Until then nothing touches the file system, so an output
 * that ends up within the limits costs no file operation at all (the sink then discards it).
 */
import type { RuntimeFs } from "../../runtime/types.js";
import { WRITE_BATCH_BYTES } from "./constants.js";

/** Where a writer puts its bytes; the store provides it (kept apart to avoid a store <-> writer cycle). */
export interface OutputTarget {
  readonly fs: RuntimeFs;
  readonly path: string;
  /** Makes the folder exist (and runs the store's first cleanup) before the file is created. */
  prepare(): Promise<void>;
}

// The smallest buffer that always has room for one encoded character (4 bytes) after a flush.
const MIN_BATCH_BYTES = 16;

const encoder = new TextEncoder();

export class OutputWriter {
  readonly path: string;
  private readonly staging: Uint8Array;
  private fill = 0;
  private encoded = 0;
  /** Every write runs after the previous one, so chunks reach the file in the order they were given. */
  private queue: Promise<void> = Promise.resolve();
  /** The batch being appended now; at most one, which is the backpressure. */
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;
  private failed = false;
  private created = false;
  private closed = false;

  constructor(
    private readonly target: OutputTarget,
    batchBytes: number = WRITE_BATCH_BYTES,
  ) {
    this.path = target.path;
    this.staging = new Uint8Array(Math.max(MIN_BATCH_BYTES, Math.floor(batchBytes)));
  }

  /** UTF-8 bytes accepted so far (exact once the writes given so far have settled). */
  get bytes(): number {
    return this.encoded;
  }

  /** Whether the file exists (or is being created): false until the first batch leaves the buffer. */
  get fileCreated(): boolean {
    return this.created;
  }

  /**
   * Adds text to the output. Resolves when the text is in the staging buffer or handed to the runtime;
   * rejects (with the runtime's error) if an earlier batch failed to be written.
   */
  write(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the output ${this.path} is already closed`));
    this.queue = this.queue.then(() => this.put(text));
    // A caller that ignores the returned promise must not crash the process with an unhandled rejection:
    // the failure stays in `queue` and is reported again by the next write, settle() and close().
    this.queue.catch(() => undefined);
    return this.queue;
  }

  /** Waits until every write given so far is encoded; `bytes` is then exact. */
  async settle(): Promise<void> {
    await this.queue;
    this.throwIfFailed();
  }

  /** Writes what is left and waits for the file to be complete. The file exists afterwards, even if empty. */
  async close(): Promise<void> {
    this.closed = true;
    await this.settle();
    if (this.fill > 0 || !this.created) await this.flush();
    await this.inFlight;
    this.throwIfFailed();
  }

  /** Drops the output: nothing more is written and the file, if it was created, is removed. */
  async discard(): Promise<void> {
    this.closed = true;
    await this.queue.catch(() => undefined);
    this.fill = 0;
    await this.inFlight;
    if (this.created) await this.target.fs.rm(this.path, { force: true });
  }

  private async put(text: string): Promise<void> {
    this.throwIfFailed();
    let rest = text;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.staging.subarray(this.fill));
      this.fill += written;
      this.encoded += written;
      if (read === rest.length) return;
      // encodeInto never splits a character, so `read` always ends on a whole one.
      rest = rest.slice(read);
      await this.flush();
    }
  }

  /** Hands the staging buffer's bytes to the runtime, after the previous batch has landed. */
  private async flush(): Promise<void> {
    await this.inFlight;
    this.throwIfFailed();
    // A copy, not a view: an in-memory file system may keep the very array it is given, and the staging
    // buffer is about to be refilled.
    const batch = this.staging.slice(0, this.fill);
    this.fill = 0;
    const first = !this.created;
    this.created = true;
    this.inFlight = this.append(batch, first).catch((error: unknown) => {
      this.failed = true;
      this.failure = error;
    });
  }

  private async append(batch: Uint8Array, first: boolean): Promise<void> {
    if (first) {
      await this.target.prepare();
      // writeFile, not appendFile: a fresh file even if some earlier run left one with this name.
      await this.target.fs.writeFile(this.path, batch);
    } else {
      await this.target.fs.appendFile(this.path, batch);
    }
  }

  private throwIfFailed(): void {
    if (this.failed) throw this.failure;
  }
}
