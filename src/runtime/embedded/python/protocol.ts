/**
 * The two wires of python3:
 * - between the shell worker's `python3` command and the bridge on the files' side (over the shell's file
 *   port, beside the file requests): a command line in, its output and exit code back;
 * - between the bridge and the sandbox that runs Pyodide (sandbox-host.mjs): the files to bring up to date
 *   and the command line in, output and the files the program changed back. What comes back from the
 *   sandbox is untrusted: the program there may post anything (bridge.ts checks it).
 */
import type { OutputStream } from "../../types.js";

export interface PythonRunRequest {
  kind: "python-run";
  id: number;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: Uint8Array;
}

interface PythonStopRequest {
  kind: "python-stop";
  id: number;
}

export type ToBridge = PythonRunRequest | PythonStopRequest;

export type FromBridge =
  | { kind: "python-output"; id: number; stream: OutputStream; data: Uint8Array }
  /** The interpreter is being loaded for this run (the first, or the first after a stop). */
  | { kind: "python-loading"; id: number }
  | { kind: "python-done"; id: number; exitCode: number };

/** Files to bring the sandbox's copy up to date with, before a run. */
export interface SandboxSync {
  writes: { path: string; data: Uint8Array; mtimeMs: number }[];
  removes: string[];
  dirs: string[];
}

/** What the program changed under the workspace root. */
export interface SandboxChanges {
  writes: { path: string; data: Uint8Array }[];
  removes: string[];
  dirs: string[];
}

/** What the page hands the sandbox that may fetch nothing: Pyodide's files. */
export interface PyodideAssets {
  pyodideMjs: string;
  asmMjs: string;
  wasm: ArrayBuffer;
  stdlib: ArrayBuffer;
  lock: string;
}

export type ToSandbox =
  | { kind: "init"; driver: string; assets?: PyodideAssets }
  | {
      kind: "run";
      /** Unguessable, so a program cannot forge the end or the output of a later run. */
      id: string;
      root: string;
      argv: string[];
      cwd: string;
      env: Record<string, string>;
      stdin: Uint8Array;
      extraPath: string[];
      sync: SandboxSync;
    };

export type FromSandbox =
  | { kind: "started" }
  | { kind: "ready"; version: string }
  | { kind: "failed"; message: string }
  | { kind: "output"; id: string; stream: OutputStream; data: Uint8Array }
  /** `resync`: the sandbox dropped its copy of the workspace; the next run must send all of it. */
  | { kind: "exit"; id: string; code: number; changes: SandboxChanges; resync?: boolean; heapBytes?: number };

export function isToBridge(message: unknown): message is ToBridge {
  const kind = (message as { kind?: unknown } | null)?.kind;
  return kind === "python-run" || kind === "python-stop";
}

export function isFromBridge(message: unknown): message is FromBridge {
  const kind = (message as { kind?: unknown } | null)?.kind;
  return kind === "python-output" || kind === "python-loading" || kind === "python-done";
}
