/**
 * The runtime contract: where tools act. One interface, three backends (embedded, node, webcontainer).
 * The contract test suite in test/runtime/contract is what defines the behaviour behind these types.
 */

import type { SearchService } from "../search/service.js";
import type { Fingerprint } from "./fingerprint.js";

export type RuntimeKind = "embedded" | "webcontainer" | "node";

/**
 * "fifo", "socket" and "device" are special files (a named pipe, a socket, a character or block device):
 * only the node runtime meets them. They have no content to read (a FIFO blocks, /dev/zero never ends),
 * so tools skip or refuse them, as ripgrep skips them when walking.
 */
export type EntryType = "file" | "directory" | "symlink" | SpecialType;

export type SpecialType = "fifo" | "socket" | "device";

export function isSpecialType(type: string): type is SpecialType {
  return type === "fifo" || type === "socket" || type === "device";
}

/** How a special file is named in messages: "a FIFO (named pipe)". */
export function describeSpecialType(type: SpecialType): string {
  return type === "fifo" ? "a FIFO (named pipe)" : type === "socket" ? "a socket" : "a device";
}

export interface Stat {
  type: EntryType;
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  type: EntryType;
}

/** What a checked write requires at the moment it writes. */
export interface AtomicWriteOptions {
  /**
   * The file's content must still be this ("absent": there must be no file yet); otherwise nothing is
   * written and a WriteConflict says what changed. Absent: the write does not look at what is there.
   */
  expect?: Fingerprint | "absent";
  /**
   * The real folder (links resolved) the caller judged the file to be in. If the folder the path leads
   * to is another one by the time of writing (a link was made or swapped on the way), nothing is written
   * and a WriteConflict says so.
   */
  parent?: string;
  /**
   * Makes the folders missing on the way, none through a link: the path must then be real (no link on it),
   * and a link found on the way is a WriteConflict ("moved"), as a link swapped in after the check would be.
   */
  makeParents?: boolean;
}

/** Promise-based file access. Every path is absolute (posix). */
export interface RuntimeFs {
  /**
   * With `noFollow`, a symbolic link at `path` itself is not followed (ELOOP), as O_NOFOLLOW: for a tool that
   * judged where a path leads and must read only there, even if a link is swapped in meanwhile.
   */
  readFile(path: string, options?: { noFollow?: boolean }): Promise<Uint8Array>;
  /** A ranged read: at most `length` bytes from byte `position`; fewer at the end of the file. */
  read(path: string, range: { position: number; length: number }): Promise<Uint8Array>;
  /** Creates or replaces a file. The parent folder must exist (ENOENT otherwise), as in node:fs. */
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  /**
   * Writes a whole file as one step, for tools that judged the path first: the parent folder must be
   * `options.parent` and the content `options.expect` at that moment, and a symbolic link at `path` is
   * never followed (ELOOP: resolve links first and pass the real path). Checks and write happen under a
   * lock every workbench writer on the same files honours (a lock file on node, one lock in the page), and
   * the data replaces the file whole (a reader never sees half of it). Keeps the file's mode.
   */
  writeFileAtomic(path: string, data: Uint8Array, options?: AtomicWriteOptions): Promise<void>;
  /** Adds to the end of a file, creating it when missing (the parent must exist). */
  appendFile(path: string, data: Uint8Array | string): Promise<void>;
  stat(path: string): Promise<Stat>;
  lstat(path: string): Promise<Stat>;
  readdir(path: string): Promise<DirEntry[]>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
}

export type OutputStream = "stdout" | "stderr";

export interface OutputChunk {
  stream: OutputStream;
  text: string;
}

/** Shell state a terminal carries from one command to the next. */
export interface ShellState {
  cwd: string;
  env: Record<string, string>;
}

export interface ExecOptions {
  /** Where the command starts; the workspace root when absent. Nothing carries over between calls. */
  cwd?: string;
  /** Variables added to the backend's base environment. */
  env?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Called with output as it arrives (how often depends on `capabilities.streaming`). A promise returned
   * holds further output back until it settles, where the backend can (node pauses its pipes), so a slow
   * consumer is not flooded.
   */
  onOutput?: (chunk: OutputChunk) => unknown;
  /**
   * false: the result's stdout, stderr and output come back empty, and output reaches the caller only
   * through onOutput, so a command printing 50 MB never sits in memory as one string (the bash tool).
   */
  collect?: boolean;
  /** Report the cwd and environment the command ended with (for a terminal). */
  captureState?: boolean;
  /**
   * Asked before a program of the runtime's own fetches `url` (the embedded shell's npm, from its registry):
   * a rejection refuses that fetch, and the program fails saying so. Absent: fetches are not asked about.
   * Programs on the real machine (the node runtime) are not seen by this.
   */
  fetchGate?: (url: string) => Promise<void>;
}

export interface ExecResult {
  /** null when the command was killed (timeout or abort) before it exited. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr in the order they arrived (on webcontainer everything arrives as stdout). */
  output: string;
  timedOut: boolean;
  aborted: boolean;
  state?: ShellState;
}

export interface Capabilities {
  /**
   * Output reaches onOutput while the command runs, not only when it ends. The embedded shell says false
   * but still delivers each top-level command's output as that command ends (`echo a && sleep 9` gives
   * "a" at once; see embedded/statement-stream.ts), and node, python3, npm and npx as they write it when
   * their output goes straight there (embedded/live-output.ts).
   */
  streaming: boolean;
  /** Commands are real OS processes (node) rather than an interpreter. */
  realProcesses: boolean;
  symlinks: boolean;
  /** File modes are enforced (EACCES can happen). */
  modes: boolean;
  /** stderr is kept apart from stdout. */
  separateStderr: boolean;
  /** exec can report the shell state it ended with (captureState). */
  shellState: boolean;
}

export interface Runtime {
  readonly kind: RuntimeKind;
  /** The workspace folder, absolute. */
  readonly root: string;
  readonly fs: RuntimeFs;
  readonly capabilities: Capabilities;
  /**
   * Commands whose programs run in a sandbox that reaches only the workspace and a scratch /tmp (the
   * embedded runtime's node, npm, npx and python3): code they are given inline cannot reach anything
   * outside, so the permission rules judge it as any command rather than asking about code they cannot
   * read. Absent or empty: every interpreter runs on the real machine.
   */
  readonly sandboxedCommands?: readonly string[];
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /**
   * ripgrep's search over the workspace's files, run where the files are: in process on node, beside
   * the files in a worker on embedded (so a big search never holds up the page).
   */
  readonly search: SearchService;
  /** Called after anything may have changed the files (a write through fs, or any command). */
  onChange(listener: (paths: string[] | "unknown") => void): () => void;
  dispose(): Promise<void>;
}
