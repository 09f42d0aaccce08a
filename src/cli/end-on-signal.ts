/**
 * The CLI's commands end with it. SIGTERM, SIGHUP (and SIGINT when nothing else handles it) would
 * otherwise end node at once and leave a running bash call's processes orphaned: they are ended first,
 * then the CLI exits with 128 + the signal's number, as a shell reports it. Any other exit ends them too.
 * A SIGKILL cannot be caught: what runs then outlives the CLI (known gap, see DEVELOPERS.md).
 */
import { endAllCalls } from "../runtime/node/call-sweep.js";

const NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

export function endCommandsOnSignals(): void {
  process.on("exit", endAllCalls);
  for (const [signal, number] of Object.entries(NUMBERS) as Array<[keyof typeof NUMBERS, number]>) {
    process.on(signal, () => {
      // `workbench run` stops its run on the first Ctrl-C and handles the second itself.
      if (signal === "SIGINT" && process.listenerCount("SIGINT") > 1) return;
      endAllCalls();
      process.exit(128 + number);
    });
  }
}
