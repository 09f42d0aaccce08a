import type { ProgramThread } from "./program-thread.js";

// Variables, not literals: the page's build (which never runs this file) must neither bundle node's module
// nor copy the entry as an asset. The CLI's bundle replaces the URL below with its compiled entry
// (WORKER_URLS in scripts/cli-bundle.mjs).
const WORKER_THREADS = "node:worker_threads";
const ENTRY = "./program-worker.node.mjs";

/** Heap for one program: far above what its limits let it build, and a runaway still dies alone. */
const HEAP_MB = 512;

/**
 * An execute program's worker in Node: a worker_threads thread with an empty environment and a heap of its
 * own. Tests start other entries (one that crashes, one that is missing) and smaller heaps.
 */
export async function startNodeProgramThread(entry: URL = new URL(ENTRY, import.meta.url), heapMb = HEAP_MB): Promise<ProgramThread> {
  const { Worker } = (await import(/* @vite-ignore */ WORKER_THREADS)) as typeof import("node:worker_threads");
  // No execArgv of ours: a loader the parent was started with (tsx under `npm run bench`) would load in it too.
  const worker = new Worker(entry, { env: {}, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  let terminated = false;
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.on("message", handler),
    onFailure(handler) {
      worker.on("error", (error) => handler(error.message));
      worker.on("exit", (code) => {
        if (!terminated) handler(`the worker exited with code ${code}`);
      });
    },
    terminate() {
      terminated = true;
      void worker.terminate();
    },
  };
}
