// The Node entry of an execute program's worker (a worker_threads thread, for the CLI and tests). It is
// handed nothing but its message channel (and an empty environment: see node-program-thread.ts).
import { parentPort } from "node:worker_threads";
import type { ToProgram } from "./protocol.js";
import { serveProgram } from "./serve-program.js";

const port = parentPort!;
serveProgram({
  post: (message) => port.postMessage(message),
  listen: (handler) => port.on("message", (message: ToProgram) => handler(message)),
});
