import type { RuntimeFs, Stat } from "../types.js";

/** A stat with the file mode, which the embedded shell needs (ls -l, test -x). */
export interface ModeStat extends Stat {
  mode: number;
}

/**
 * What the embedded shell needs from the workspace's files beyond the runtime contract. It is the
 * surface the file host serves to the shell worker over a message port.
 */
export interface WorkspaceFs extends RuntimeFs {
  stat(path: string): Promise<ModeStat>;
  lstat(path: string): Promise<ModeStat>;
  appendFile(path: string, data: Uint8Array | string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void>;
  link(existing: string, path: string): Promise<void>;
}

/**
 * Many new files in one step, as the file host's writeMany writes them (parents made, one store transaction,
 * one change announced, a link on the way refused): what npm's unpack uses from the shell worker.
 */
export interface BulkWrites {
  writeMany(files: ReadonlyArray<{ path: string; data: Uint8Array }>): Promise<void>;
}

/** Whether `files` offers writeMany (the shell worker's client of the file host does). */
export function canWriteMany<T extends object>(files: T): files is T & BulkWrites {
  return typeof (files as Partial<BulkWrites>).writeMany === "function";
}

export type WorkspaceFsOp = {
  [K in keyof WorkspaceFs]: WorkspaceFs[K] extends (...args: never[]) => unknown ? K : never;
}[keyof WorkspaceFs];

export const workspaceFsOps: readonly WorkspaceFsOp[] = [
  "readFile",
  "read",
  "writeFile",
  "stat",
  "lstat",
  "readdir",
  "mkdir",
  "rm",
  "rename",
  "realpath",
  "readlink",
  "symlink",
  "appendFile",
  "chmod",
  "utimes",
  "link",
];

/** Operations that change the files: refused on a read-only workspace, announced as changes. */
const mutatingOps: ReadonlySet<WorkspaceFsOp> = new Set<WorkspaceFsOp>([
  "writeFile",
  "mkdir",
  "rm",
  "rename",
  "symlink",
  "appendFile",
  "chmod",
  "utimes",
  "link",
]);
