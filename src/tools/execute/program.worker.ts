/// <reference lib="webworker" />
// The page's entry of an execute program's worker (a module worker bundled by Vite). It is handed nothing
// but its message channel: no port to the files, no storage handle, no key.
import type { ToProgram } from "./protocol.js";
import { serveProgram } from "./serve-program.js";

const scope = self as unknown as DedicatedWorkerGlobalScope;
serveProgram({
  post: (message) => scope.postMessage(message),
  listen: (handler) => scope.addEventListener("message", (event: MessageEvent<ToProgram>) => handler(event.data)),
});
