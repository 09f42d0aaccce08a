// Browser entry of the shell worker.
import { startWhenConnected } from "./browser-worker-entry.js";
import { runShell } from "./shell-core.js";

startWhenConnected(runShell);
