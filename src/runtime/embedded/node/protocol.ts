/**
 * What the shell's `node` command and the node runtime inside a sandbox say to each other. The program's
 * files travel as a snapshot (the runtime's fs is synchronous, and a sandbox reaches nothing by itself);
 * what the program changed comes back with its exit, and the command writes it into the workspace.
 */

/** One entry of the workspace as the program starts with it. */
export type SnapshotEntry =
  | { path: string; kind: "file"; data: Uint8Array; mode: number; mtimeMs: number }
  | { path: string; kind: "directory"; mode: number; mtimeMs: number }
  | { path: string; kind: "symlink"; target: string };

/** What the program left different from its snapshot. */
export interface FileChanges {
  /** Directories that appeared, parents first. */
  directories: string[];
  /** Files (and links) that are new or whose bytes changed. */
  files: SnapshotEntry[];
  /** Paths that are gone, children first. */
  removed: string[];
}

export interface NodeProgram {
  /** process.argv as Node gives it: ["/usr/local/bin/node", script?, ...args]. */
  argv: string[];
  /** Flags the runtime acts on, parsed by the command. */
  mode:
    | { kind: "file"; path: string }
    | { kind: "eval"; code: string; print: boolean; module: boolean }
    | { kind: "stdin"; code: string; module: boolean }
    | { kind: "test"; files: string[] };
  execArgv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The program's stdin, as bytes. */
  stdin: Uint8Array;
  files: ProgramFiles;
  /** Where the snapshot was taken; changes outside these are not reported. */
  roots: string[];
}

/**
 * The files a program starts with: all of them, or (to a sandbox preloaded while it waited) what changed
 * since its preload: entries new or different, and paths gone, children before parents.
 */
export type ProgramFiles = { kind: "full"; entries: SnapshotEntry[] } | { kind: "delta"; entries: SnapshotEntry[]; removed: string[] };

/** Which state of the workspace a snapshot shows, as the file host's snapshot cache counts them. */
export interface SnapshotVersion {
  /** The cache that answered (a new one, or one that forgot its history, answers in full). */
  epoch: string;
  stamp: number;
}

export type ToRuntime =
  /** The workspace as it was while the sandbox waited for a program: loaded ahead, so a run sends only a delta. */
  | { kind: "preload"; snapshot: SnapshotEntry[]; roots: string[] }
  | { kind: "run"; program: NodeProgram }
  /**
   * The answer to a child_process request, with what the child changed in the workspace; `notFound` when a
   * command run without a shell does not exist (Node's spawn ENOENT).
   */
  | {
      kind: "exec-result";
      id: number;
      exitCode: number;
      stdout: Uint8Array;
      stderr: Uint8Array;
      notFound?: boolean;
      changes: FileChanges;
    };

export type FromRuntime =
  | { kind: "output"; stream: "stdout" | "stderr"; data: Uint8Array }
  /**
   * A command for the shell (child_process): runs in the same shell, once the program's `changes` are
   * written; `file` is set when Node would run that command without a shell (checked to exist first).
   */
  | {
      kind: "exec";
      id: number;
      command: string;
      file?: string;
      cwd: string;
      env: Record<string, string>;
      stdin: Uint8Array;
      changes: FileChanges;
      /** For a blocking call (execSync): the shell writes the answer here (sync-reply.ts) instead of posting it. */
      reply?: SharedArrayBuffer;
      /** A blocking call's `timeout`: the shell ends the child after this long (the program cannot, it waits). */
      timeoutMs?: number;
    }
  /** Ends a running child_process command. */
  | { kind: "exec-kill"; id: number }
  | { kind: "exit"; code: number; changes: FileChanges };
