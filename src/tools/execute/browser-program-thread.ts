import type { ProgramThread } from "./program-thread.js";

/** An execute program's worker in the page: a same-origin module worker that Vite bundles. */
export function startBrowserProgramThread(): ProgramThread {
  const worker = new Worker(new URL("./program.worker.ts", import.meta.url), { type: "module", name: "workbench-execute" });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.addEventListener("message", (event) => handler(event.data)),
    onFailure(handler) {
      // A load failure is a plain Event with no message; an uncaught error in the worker is an ErrorEvent.
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        handler(event instanceof ErrorEvent && event.message ? event.message : "the worker's script did not load");
      });
      worker.addEventListener("messageerror", () => handler("a message from the worker could not be read"));
    },
    terminate: () => worker.terminate(),
  };
}
