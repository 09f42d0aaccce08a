import type { StartProgramThread } from "./program-thread.js";

const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string";

/** A module worker in a browser; a worker_threads thread in Node (the page's build never loads the latter). */
export const startProgramThread: StartProgramThread = async () =>
  isNode
    ? (await import("./node-program-thread.js")).startNodeProgramThread()
    : (await import("./browser-program-thread.js")).startBrowserProgramThread();
