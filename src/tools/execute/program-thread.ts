/**
 * The thread an execute program runs in, as the runner sees it: a worker it can message and terminate at
 * once. In the page it is a module worker, in Node (the CLI, tests) a worker_threads thread; tests may start
 * their own (one that crashes, one that never loads).
 */
import type { ToProgram } from "./protocol.js";

export interface ProgramThread {
  post(message: ToProgram): void;
  /** Every message the worker sends, in order, unchecked (the runner checks them). */
  onMessage(handler: (message: unknown) => void): void;
  /** The worker failed to load, threw outside the interpreter, or died: the reason in words. */
  onFailure(handler: (reason: string) => void): void;
  /** Ends the worker at once, wherever its program is (a tight loop included). */
  terminate(): void;
}

export type StartProgramThread = () => ProgramThread | Promise<ProgramThread>;
