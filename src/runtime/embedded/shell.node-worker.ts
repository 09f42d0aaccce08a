// Node entry of the shell worker (worker_threads), for tests, benchmarks and the CLI.
import { parentPort, workerData } from "node:worker_threads";
import { endpointOf } from "./endpoint.js";
import { runShell } from "./shell-core.js";

const { fsPort } = workerData as { fsPort: import("node:worker_threads").MessagePort };
runShell(endpointOf(parentPort as never), endpointOf(fsPort as never));
parentPort!.postMessage({ kind: "connected" });
