import type { DirEntry, EntryType } from "../../runtime/types.js";

/**
 * What checkpoints need of a workspace's files: the runtime's file operations, with the mode where the
 * backend has one (the embedded host's stat has it; the CLI passes node's). Paths are absolute.
 */
export interface TreeFs {
  lstat(path: string): Promise<{ type: EntryType; size: number; mtimeMs: number; mode?: number }>;
  readdir(path: string): Promise<DirEntry[]>;
  readFile(path: string, options?: { noFollow?: boolean }): Promise<Uint8Array>;
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  chmod?(path: string, mode: number): Promise<void>;
}

/** Never recorded nor restored: a repository's own history is not the workspace's content. */
export function defaultIgnore(relative: string): boolean {
  return relative.split("/").includes(".git");
}
