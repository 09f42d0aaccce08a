// Node entry of the shell and search workers (worker_threads), for tests, benchmarks and the CLI.
import { parentPort, workerData } from "node:worker_threads";
import { endpointOf } from "./endpoint.js";
import { runSearchHost } from "./search-core.js";
import { runShell } from "./shell-core.js";
import { nodeRuntimeScript } from "./node/runtime-bundle.node.js";
import { createNodeSandbox } from "./sandbox/node-sandbox.js";
import type { WorkerEntry } from "./shell-pool.js";

const { fsPort, entry } = workerData as { fsPort: import("node:worker_threads").MessagePort; entry: WorkerEntry };
if (entry === "search") runSearchHost(endpointOf(parentPort as never), endpointOf(fsPort as never));
else {
  // Programs run in worker threads of this one: terminating this worker ends them too.
  runShell(endpointOf(parentPort as never), endpointOf(fsPort as never), {
    openSandbox: async () => createNodeSandbox(await nodeRuntimeScript()),
  });
}
parentPort!.postMessage({ kind: "connected" });
