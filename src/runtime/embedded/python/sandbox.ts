import type { FromSandbox, ToSandbox } from "./protocol.js";

/** A started python3 sandbox (sandbox-host.mjs with Pyodide loaded and the driver run), ready for runs. */
export interface PythonSandbox {
  readonly version: string;
  post(message: ToSandbox, transfer?: Transferable[]): void;
  /** Every message the sandbox sends; untrusted (the program may post anything). */
  listen(handler: (message: FromSandbox) => void): () => void;
  /** Ends the sandbox at once (a program in `while True: pass` included). */
  kill(): void;
  /** Told once when the sandbox ends by itself (crashed, or out of memory). */
  onExit(handler: (reason: string) => void): void;
}

/** Starts a sandbox: a child process under node's permission model (node-sandbox.ts) or a page worker in an opaque origin (browser-sandbox.ts). */
export type PythonSandboxFactory = () => Promise<PythonSandbox>;

/** How long loading Pyodide may take before the start is given up (a busy machine takes about 10 s). */
export const START_TIMEOUT_MS = 120_000;
