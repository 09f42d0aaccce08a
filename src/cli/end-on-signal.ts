/**
 * The CLI's commands end with it. SIGTERM, SIGHUP (and SIGINT when nothing else handles it) would
 * otherwise end node at once and leave a running bash call's processes orphaned: they are ended first,
 * then the CLI exits with 128 + the signal's number, as a shell reports it. The handlers are in place
 * only while a call runs, so at any other time the signals keep node's default, which also ends a CLI
 * frozen by a custom tool's synchronous loop (a handler could not run then). Any exit ends the calls too.
 * A SIGKILL cannot be caught: a watchdog process ends the commands then (orphan-watchdog.ts).
 */
import { endAllCalls, watchLiveCalls } from "../runtime/node/call-sweep.js";
import { startOrphanWatchdog } from "./orphan-watchdog.js";

const NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type Handled = keyof typeof NUMBERS;

function handler(signal: Handled): () => void {
  return () => {
    // `workbench run` stops its run on the first Ctrl-C (which aborts the call) and handles the second.
    if (signal === "SIGINT" && process.listenerCount("SIGINT") > 1) return;
    endAllCalls();
    process.exit(128 + NUMBERS[signal]);
  };
}

export function endCommandsOnSignals(): void {
  process.on("exit", endAllCalls);
  const handlers = (Object.keys(NUMBERS) as Handled[]).map((signal) => [signal, handler(signal)] as const);
  let attached = false;
  watchLiveCalls({
    attach() {
      if (attached) return;
      attached = true;
      startOrphanWatchdog();
      for (const [signal, listener] of handlers) process.on(signal, listener);
    },
    detach() {
      if (!attached) return;
      attached = false;
      for (const [signal, listener] of handlers) process.off(signal, listener);
    },
  });
}
