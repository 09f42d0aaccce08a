import { RuntimeError } from "../../errors.js";
import type { ModeStat, WorkspaceFs } from "../workspace-fs.js";

/** The node-style stat isomorphic-git reads (it compares these with the index to skip rehashing). */
interface GitStat {
  type: "file" | "dir" | "symlink";
  mode: number;
  size: number;
  ino: number;
  dev: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  ctimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The promise-based fs isomorphic-git expects (its `fs.promises` contract). */
export interface GitFs {
  promises: {
    readFile(path: string, options?: { encoding?: string } | string): Promise<Uint8Array | string>;
    writeFile(path: string, data: Uint8Array | string, options?: { mode?: number } | string): Promise<void>;
    unlink(path: string): Promise<void>;
    readdir(path: string): Promise<string[]>;
    mkdir(path: string): Promise<void>;
    rmdir(path: string): Promise<void>;
    stat(path: string): Promise<GitStat>;
    lstat(path: string): Promise<GitStat>;
    readlink(path: string): Promise<string>;
    symlink(target: string, path: string): Promise<void>;
    chmod(path: string, mode: number): Promise<void>;
  };
}

const typeBits = { file: 0o100000, directory: 0o040000, symlink: 0o120000 } as const;

/** How recent a change must be for its stat to be distrusted (see `ctimeMs` below). */
const RECENT_MS = 2_000;
let statCounter = 0;

function toGitStat(stat: ModeStat): GitStat {
  const recent = Date.now() - stat.mtimeMs < RECENT_MS;
  // Special files (FIFOs, sockets, devices) exist only on the node runtime; git would see them as files.
  const kind = stat.type === "directory" || stat.type === "symlink" ? stat.type : "file";
  return {
    type: kind === "directory" ? "dir" : kind,
    mode: typeBits[kind] | (stat.mode & 0o7777),
    size: stat.size,
    ino: 0,
    dev: 0,
    uid: 0,
    gid: 0,
    mtimeMs: stat.mtimeMs,
    // The host keeps millisecond times only, so a same-size rewrite within the millisecond the index
    // recorded would look unchanged (git's "racy clean" case). For a file changed in the last moments
    // a ctime that never repeats makes isomorphic-git compare content; an older file has settled,
    // and its stat can be trusted, which keeps `git status` on a large tree to stats alone.
    ctimeMs: recent ? Date.now() + ++statCounter / 1_000_000 : stat.mtimeMs,
    isFile: () => stat.type === "file",
    isDirectory: () => stat.type === "directory",
    isSymbolicLink: () => stat.type === "symlink",
  };
}

function encodingOf(options: { encoding?: string } | string | undefined): string | undefined {
  return typeof options === "string" ? options : options?.encoding;
}

/**
 * isomorphic-git's file system over the same workspace files the shell uses, so `git` sees exactly
 * what `ls` and the tools see. Errors keep node's `code` (ENOENT, EEXIST, ...) which isomorphic-git
 * branches on.
 */
export function createGitFs(fs: WorkspaceFs): GitFs {
  return {
    promises: {
      async readFile(path, options) {
        const bytes = await fs.readFile(path);
        const encoding = encodingOf(options);
        return encoding === "utf8" || encoding === "utf-8" ? new TextDecoder().decode(bytes) : bytes;
      },
      async writeFile(path, data, options) {
        await fs.writeFile(path, data);
        const mode = typeof options === "object" ? options.mode : undefined;
        if (mode !== undefined) await fs.chmod(path, mode & 0o777);
      },
      async unlink(path) {
        const stat = await fs.lstat(path);
        if (stat.type === "directory") throw new RuntimeError("EISDIR", "unlink", path);
        await fs.rm(path);
      },
      readdir: async (path) => (await fs.readdir(path)).map((entry) => entry.name),
      mkdir: (path) => fs.mkdir(path),
      async rmdir(path) {
        const stat = await fs.lstat(path);
        if (stat.type !== "directory") throw new RuntimeError("ENOTDIR", "rmdir", path);
        if ((await fs.readdir(path)).length > 0) throw new RuntimeError("ENOTEMPTY", "rmdir", path);
        await fs.rm(path, { recursive: true });
      },
      stat: async (path) => toGitStat(await fs.stat(path)),
      lstat: async (path) => toGitStat(await fs.lstat(path)),
      readlink: (path) => fs.readlink(path),
      symlink: (target, path) => fs.symlink(target, path),
      chmod: (path, mode) => fs.chmod(path, mode & 0o7777),
    },
  };
}
