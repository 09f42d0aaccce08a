/**
 * Where full outputs are kept when the model only sees a preview: one file per truncated output, named by
 * an ascending id, in `<dataDir>/tool-output`, written through the runtime (so the read and grep tools can
 * open it later, in whichever backend the workspace lives). Files older than the retention are cleaned up.
 */
import { isRuntimeError } from "../../runtime/errors.js";
import type { Runtime } from "../../runtime/types.js";
import { ID_PREFIX, OUTPUT_FOLDER, RETENTION_MS } from "./constants.js";
import { nextToolId, toolIdTimestamp } from "./ids.js";
import { OutputWriter } from "./writer.js";

export interface OutputStoreOptions {
  /** The application's data folder (absolute); outputs go to `<dataDir>/tool-output`. */
  dataDir: string;
  /** Names for new files; the process-wide ascending generator unless a test supplies one. */
  nextId?: () => string;
  /**
   * Remove expired outputs the first time this store writes one (default true). OpenCode's docs promise
   * cleanup "on first truncation"; a long-lived session can also call cleanup() on a timer.
   */
  cleanupOnFirstWrite?: boolean;
}

export interface OpenOptions {
  /** Bytes gathered before each append (tests use small ones to exercise batching). */
  batchBytes?: number;
}

export class OutputStore {
  /** The folder holding the outputs. */
  readonly dir: string;
  /** The permission pattern that lets the model read them (OpenCode allows it for external_directory). */
  readonly glob: string;
  private readonly nextId: () => string;
  private firstCleanup: Promise<void> | undefined;

  constructor(
    readonly runtime: Runtime,
    private readonly options: OutputStoreOptions,
  ) {
    if (!options.dataDir.startsWith("/")) {
      throw new RangeError(`the data folder must be an absolute path, got ${options.dataDir}`);
    }
    this.dir = `${options.dataDir.replace(/\/+$/, "")}/${OUTPUT_FOLDER}`;
    this.glob = `${this.dir}/*`;
    this.nextId = options.nextId ?? nextToolId;
  }

  /** Saves a whole output at once; returns its path. */
  async save(text: string): Promise<string> {
    const path = this.pathFor(this.nextId());
    await this.prepare();
    await this.runtime.fs.writeFile(path, text);
    return path;
  }

  /**
   * A writer for an output that arrives in pieces. Its path is fixed now (so the id reflects when the
   * output started); the file itself appears only when the first batch is written.
   */
  open(options: OpenOptions = {}): OutputWriter {
    const target = { fs: this.runtime.fs, path: this.pathFor(this.nextId()), prepare: () => this.prepare() };
    return new OutputWriter(target, options.batchBytes);
  }

  /**
   * Removes the outputs made before `now - 7 days`, judged by the timestamp inside their id. Anything else
   * in the folder (other names, folders, ids it cannot read) is left alone. Returns the removed paths.
   */
  async cleanup(now: number = Date.now()): Promise<string[]> {
    const cutoff = now - RETENTION_MS;
    let entries;
    try {
      entries = await this.runtime.fs.readdir(this.dir);
    } catch (error) {
      if (isRuntimeError(error, "ENOENT")) return []; // nothing was ever saved
      throw error;
    }
    const removed: string[] = [];
    for (const entry of entries) {
      if (entry.type !== "file" || !entry.name.startsWith(`${ID_PREFIX}_`)) continue;
      const made = toolIdTimestamp(entry.name);
      if (made === undefined || made >= cutoff) continue;
      const path = this.pathFor(entry.name);
      try {
        await this.runtime.fs.rm(path, { force: true });
        removed.push(path);
      } catch {
        // One file we may not remove (permissions, a read-only workspace) must not stop the others.
      }
    }
    return removed;
  }

  /** Makes the folder exist and, once per store, clears expired outputs. Used by save() and writers. */
  private async prepare(): Promise<void> {
    // mkdir every time: cheap, and the folder may have been deleted by the user since the last save.
    await this.runtime.fs.mkdir(this.dir, { recursive: true });
    if (this.options.cleanupOnFirstWrite === false) return;
    // Best effort: failing to delete old outputs must never fail the tool call that is saving a new one.
    this.firstCleanup ??= this.cleanup().then(
      () => undefined,
      () => undefined,
    );
    await this.firstCleanup;
  }

  private pathFor(name: string): string {
    return `${this.dir}/${name}`;
  }
}
