/// <reference lib="webworker" />
// Browser entry of the search worker: the first message carries the port to the file host.
import { endpointOf } from "./endpoint.js";
import { runSearchHost } from "./search-core.js";

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.addEventListener(
  "message",
  (event: MessageEvent<{ kind: "connect"; fsPort: MessagePort }>) => {
    if (event.data?.kind !== "connect") return;
    runSearchHost(endpointOf(scope), endpointOf(event.data.fsPort));
    scope.postMessage({ kind: "connected" });
  },
  { once: true },
);
