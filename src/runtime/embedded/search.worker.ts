// Browser entry of the search worker.
import { startWhenConnected } from "./browser-worker-entry.js";
import { runSearchHost } from "./search-core.js";

startWhenConnected(runSearchHost);
