/**
 * The part of @webcontainer/api this project uses, and nothing more. The real package satisfies it
 * (checked at compile time in test/runtime/webcontainer-api-shape.test.ts); the test stand-in
 * implements exactly it.
 */

export interface WcDirEnt {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

interface WcWatcher {
  close(): void;
}

/** Paths are relative to the workdir. There is no stat, lstat, symlink, readlink or chmod. */
export interface WcFileSystem {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  readdir(path: string, options: { withFileTypes: true }): Promise<WcDirEnt[]>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  mkdir(path: string, options?: { recursive?: false }): Promise<void>;
  rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  watch(
    path: string,
    options: { recursive?: boolean },
    listener: (event: "rename" | "change", filename: string | Uint8Array) => void,
  ): WcWatcher;
}

export interface WcProcess {
  exit: Promise<number>;
  /** stdout and stderr of the process and its children, merged and PTY-formatted. */
  output: ReadableStream<string>;
  kill(): void;
}

export type WcFileSystemTree = {
  [name: string]: { directory: WcFileSystemTree } | { file: { contents: string | Uint8Array } } | { file: { symlink: string } };
};

export interface WcInstance {
  readonly workdir: string;
  readonly fs: WcFileSystem;
  mount(tree: WcFileSystemTree): Promise<void>;
  spawn(
    command: string,
    args: string[],
    options?: { cwd?: string; env?: Record<string, string | number | boolean>; terminal?: { cols: number; rows: number } },
  ): Promise<WcProcess>;
  teardown(): void;
}

export interface WcApi {
  boot(options?: { coep?: "require-corp" | "credentialless" | "none"; workdirName?: string }): Promise<WcInstance>;
}
