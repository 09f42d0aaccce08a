/**
 * Checkpoints of a real folder (the node runtime): its files read and restored with node's own calls
 * (the mode included), and the timeline and blobs kept in the workbench's data folder, one folder per
 * workspace named by a hash of its real path: never inside the person's folder, never in its `.git`.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { chmod, lstat, mkdir, open, readdir, readFile, readlink, realpath, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { EntryType } from "../runtime/types.js";
import type { CheckpointStorage, StoredBlob } from "../workspace/checkpoints/storage.js";
import { Checkpoints } from "../workspace/checkpoints/checkpoints.js";
import { defaultIgnore, type TreeFs } from "../workspace/checkpoints/tree-fs.js";
import type { Checkpoint } from "../workspace/checkpoints/types.js";

function typeOf(stats: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "directory";
  return stats.isFile() ? "file" : "device";
}

export const nodeTreeFs: TreeFs = {
  lstat: async (path) => {
    const stats = await lstat(path);
    return { type: typeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode & 0o7777 };
  },
  readdir: async (path) => (await readdir(path, { withFileTypes: true })).map((entry) => ({ name: entry.name, type: typeOf(entry) })),
  readFile: async (path, options) => {
    const handle = await open(path, constants.O_RDONLY | (options?.noFollow ? constants.O_NOFOLLOW : 0));
    try {
      return new Uint8Array(await handle.readFile());
    } finally {
      await handle.close();
    }
  },
  readlink: (path) => readlink(path),
  realpath: (path) => realpath(path),
  writeFile: (path, data) => writeFile(path, data),
  mkdir: async (path, options) => void (await mkdir(path, options)),
  rm: (path, options) => rm(path, options),
  symlink: (target, path) => symlink(target, path),
  chmod: (path, mode) => chmod(path, mode),
};

/** The folder holding one workspace's checkpoints inside the workbench's data folder. */
async function checkpointFolderFor(dataDir: string, workspace: string): Promise<string> {
  const key = createHash("sha256")
    .update(await realpath(workspace))
    .digest("hex")
    .slice(0, 24);
  return join(dataDir, "checkpoints", key);
}

/**
 * A checkpoint per JSON file (named by its number) and a blob per file (named by its hash): a header line
 * in JSON, then the bytes. Each file is written beside its name and renamed, so a crash leaves no half file.
 */
class FolderCheckpointStorage implements CheckpointStorage {
  private readonly timelineDir: string;
  private readonly blobDir: string;
  private ready: Promise<void>;

  constructor(readonly folder: string) {
    this.timelineDir = join(folder, "timeline");
    this.blobDir = join(folder, "blobs");
    this.ready = Promise.all([mkdir(this.timelineDir, { recursive: true }), mkdir(this.blobDir, { recursive: true })]).then(
      () => undefined,
    );
  }

  async loadTimeline(): Promise<Checkpoint[]> {
    await this.ready;
    const names = (await readdir(this.timelineDir)).filter((name) => /^\d+\.json$/.test(name));
    names.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    return Promise.all(names.map(async (name) => JSON.parse(await readFile(join(this.timelineDir, name), "utf8")) as Checkpoint));
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    await this.ready;
    await this.writeWhole(join(this.timelineDir, `${checkpoint.seq}.json`), JSON.stringify(checkpoint));
  }

  async deleteCheckpoints(seqs: readonly number[]): Promise<void> {
    await Promise.all(seqs.map((seq) => rm(join(this.timelineDir, `${seq}.json`), { force: true })));
  }

  async getBlob(hash: string): Promise<StoredBlob | undefined> {
    await this.ready;
    let data: Buffer;
    try {
      data = await readFile(join(this.blobDir, hash));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return undefined;
      throw error;
    }
    const newline = data.indexOf(10);
    const header = JSON.parse(data.subarray(0, newline).toString("utf8")) as
      | { kind: "full" }
      | { kind: "delta"; base: string; prefix: number; suffix: number; depth: number };
    const bytes = new Uint8Array(data.subarray(newline + 1));
    return header.kind === "full" ? { kind: "full", bytes } : { ...header, middle: bytes };
  }

  async putBlob(hash: string, blob: StoredBlob): Promise<void> {
    await this.ready;
    const { kind } = blob;
    const header = kind === "full" ? { kind } : { kind, base: blob.base, prefix: blob.prefix, suffix: blob.suffix, depth: blob.depth };
    const bytes = blob.kind === "full" ? blob.bytes : blob.middle;
    await this.writeWhole(join(this.blobDir, hash), Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), bytes]));
  }

  async listBlobs(): Promise<string[]> {
    await this.ready;
    return (await readdir(this.blobDir)).filter((name) => /^[0-9a-f]{64}$/.test(name));
  }

  async deleteBlobs(hashes: readonly string[]): Promise<void> {
    await Promise.all(hashes.map((hash) => unlink(join(this.blobDir, hash)).catch(() => undefined)));
  }

  private async writeWhole(path: string, data: string | Uint8Array): Promise<void> {
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, data);
    await rename(partial, path);
  }
}

/**
 * The checkpoints of a folder on disk, kept under the workbench's data folder. If that data folder is
 * itself inside the workspace (WORKBENCH_DATA_DIR pointed there), it is left out of what is recorded.
 */
export async function openFolderCheckpoints(workspace: string, dataDir: string): Promise<Checkpoints> {
  const folder = await checkpointFolderFor(dataDir, workspace);
  const root = await realpath(workspace);
  const own = relative(root, resolve(dataDir));
  const insideOwn = own !== "" && !own.startsWith("..") && !isAbsolute(own);
  return Checkpoints.open({
    fs: nodeTreeFs,
    root,
    storage: new FolderCheckpointStorage(folder),
    ignore: (path) => defaultIgnore(path) || (insideOwn && (path === own || path.startsWith(`${own}/`))),
  });
}
