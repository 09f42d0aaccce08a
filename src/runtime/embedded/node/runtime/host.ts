/**
 * What the node runtime needs from where it runs: the sandbox's channel (see sandbox/contract.ts), over
 * which the shell and the runtime speak the messages of ../protocol.ts.
 */
import type { FromRuntime, ToRuntime } from "../protocol.js";

export interface RuntimeHost {
  post(message: FromRuntime, transfer?: Transferable[]): void;
  listen(handler: (message: ToRuntime) => void): void;
  /** Called with an exception thrown by a callback (a timer, an event) that nothing caught. */
  onUncaughtException(handler: (error: unknown) => void): void;
  /** Called with the reason of a rejected promise that had no handler when its turn ended. */
  onUnhandledRejection(handler: (reason: unknown, promise: Promise<unknown>) => void): void;
}
