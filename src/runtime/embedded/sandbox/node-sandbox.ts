/**
 * Sandboxes in node (the CLI's embedded runtime, tests): a worker thread that deletes `process`, `require`,
 * `fetch` and the other ways to the real machine from its global scope before the runtime's script runs,
 * and runs that script through `vm`, so `import()` from it (and from any code it evaluates) has no loader
 * and fails. The bootstrap keeps the real objects it needs in its own closure. A heap limit turns a runaway
 * allocation into the sandbox's crash, not the process'.
 */
import { Worker } from "node:worker_threads";
import type { Endpoint } from "../endpoint.js";
import { SANDBOX_HEAP_MB, SANDBOX_MAIN, type Sandbox } from "./contract.js";

/** Globals of a node worker that reach the real machine or the network, gone before the runtime starts. */
const REMOVED_GLOBALS = [
  "process",
  "require",
  "module",
  "exports",
  "__filename",
  "__dirname",
  "fetch",
  "Request",
  "Response",
  "Headers",
  "FormData",
  "WebSocket",
  "EventSource",
  "BroadcastChannel",
  "MessageChannel",
  "MessagePort",
  "MessageEvent",
  "Worker",
  "navigator",
  "global",
];

const BOOTSTRAP = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const vm = require("node:vm");
const realProcess = process;
let uncaught = (error) => { throw error; };
let unhandled = (reason) => { throw reason; };
realProcess.on("uncaughtException", (error) => uncaught(error));
realProcess.on("unhandledRejection", (reason, promise) => unhandled(reason, promise));
const port = parentPort;
const post = port.postMessage.bind(port);
const handlers = [];
port.on("message", (message) => { for (const handler of handlers) handler(message); });
for (const name of workerData.removed) {
  try { delete globalThis[name]; } catch {}
  if (name in globalThis) Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false });
}
vm.runInThisContext(workerData.source, { filename: "node:internal/workbench-runtime" });
const main = globalThis[workerData.main];
delete globalThis[workerData.main];
main({
  post: (message, transfer) => post(message, transfer),
  listen: (handler) => { handlers.push(handler); },
  onUncaughtException: (handler) => { uncaught = handler; },
  onUnhandledRejection: (handler) => { unhandled = handler; },
});
`;

export function createNodeSandbox(source: string): Sandbox {
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { source, removed: REMOVED_GLOBALS, main: SANDBOX_MAIN },
    env: {},
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: SANDBOX_HEAP_MB },
  });
  let crash: (message: string) => void = () => {};
  let ended = false;
  worker.on("error", (error: Error & { code?: string }) => {
    if (ended) return;
    ended = true;
    crash(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? `the program ran out of memory (the limit is ${SANDBOX_HEAP_MB} MB)` : error.message);
  });
  worker.on("exit", (code) => {
    if (ended) return;
    ended = true;
    crash(`the sandbox ended with code ${code}`);
  });
  const endpoint: Endpoint = {
    post: (message, transfer) => worker.postMessage(message, (transfer ?? []) as never),
    listen(handler) {
      worker.on("message", handler);
      return () => worker.off("message", handler);
    },
  };
  return {
    endpoint,
    onCrash: (handler) => (crash = handler),
    terminate: () => {
      ended = true;
      void worker.terminate();
    },
  };
}
