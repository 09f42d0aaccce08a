import type { OutputStream, ShellState } from "../types.js";

/** Limits handed to just-bash; `null` lifts one (a runaway loop is then stopped only by abort or timeout). */
export interface ShellLimits {
  maxLoopIterations?: number | null;
  maxCommandCount?: number | null;
  maxCallDepth?: number | null;
}

export interface ShellInit {
  kind: "init";
  root: string;
  env: Record<string, string>;
  limits: ShellLimits;
  /** The runtime has a python3 sandbox: the shell offers python3, python, pip and pip3. */
  python?: boolean;
}

interface ShellExec {
  kind: "exec";
  id: number;
  command: string;
  cwd: string;
  env: Record<string, string>;
}

interface ShellAbort {
  kind: "abort";
  id: number;
}

/** The answer to a "fetch-check": absent `refused`, the fetch may go. */
interface ShellFetchVerdict {
  kind: "fetch-verdict";
  check: number;
  refused?: string;
}

export type ToShell = ShellInit | ShellExec | ShellAbort | ShellFetchVerdict;

export type FromShell =
  | { kind: "ready" }
  /** Output of a command still running (a top-level statement that ended); the rest comes with "done". */
  | { kind: "output"; id: number; stream: OutputStream; text: string }
  | { kind: "done"; id: number; exitCode: number; stdout: string; stderr: string; state: ShellState }
  | { kind: "failed"; id: number; message: string }
  /** A command (npm) is about to fetch `url`: may it? (ExecOptions.fetchGate) */
  | { kind: "fetch-check"; id: number; check: number; url: string };
