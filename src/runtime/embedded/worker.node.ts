// Node entry of the shell and search workers (worker_threads), for tests, benchmarks and the CLI.
import { parentPort, workerData } from "node:worker_threads";
import { endpointOf } from "./endpoint.js";
import { runSearchHost } from "./search-core.js";
import { runShell } from "./shell-core.js";
import type { WorkerEntry } from "./shell-pool.js";

const { fsPort, entry } = workerData as { fsPort: import("node:worker_threads").MessagePort; entry: WorkerEntry };
const run = entry === "search" ? runSearchHost : runShell;
run(endpointOf(parentPort as never), endpointOf(fsPort as never));
parentPort!.postMessage({ kind: "connected" });
