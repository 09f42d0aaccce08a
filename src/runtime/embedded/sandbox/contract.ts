/**
 * A sandbox: a fresh JavaScript thread that reaches nothing but one message channel. It evaluates a
 * program runtime's script (the node runtime today; python or a preview could bring theirs), which defines
 * `globalThis[SANDBOX_MAIN]`; the sandbox's bootstrap takes that function, removes it, and calls it with the
 * channel. In the page a sandbox is a worker inside an opaque-origin frame (no storage, cookies, DOM or
 * network); in node it is a worker thread whose `process`, `require` and module loader are out of reach.
 * Either way it is thrown away after one program: terminating it is how a runaway program ends.
 */
import type { Endpoint } from "../endpoint.js";

export const SANDBOX_MAIN = "__workbenchSandboxMain";

/** What the runtime's main function is given. */
interface SandboxChannel {
  post(message: unknown, transfer?: Transferable[]): void;
  listen(handler: (message: unknown) => void): void;
  onUncaughtException(handler: (error: unknown) => void): void;
  onUnhandledRejection(handler: (reason: unknown, promise: Promise<unknown>) => void): void;
}

export interface Sandbox {
  endpoint: Endpoint;
  /** Sets the one handler told when the sandbox dies on its own (out of memory, a crash). */
  onCrash(handler: (message: string) => void): void;
  terminate(): void;
}

/** Which runtime's script a sandbox evaluates. */
export type SandboxRuntime = "node";

export type SandboxFactory = (runtime: SandboxRuntime) => Promise<Sandbox>;

/** How much heap a program may use before it is stopped with an error (node's sandbox; the browser has its own limit). */
export const SANDBOX_HEAP_MB = 1024;
