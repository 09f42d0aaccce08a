/// <reference lib="webworker" />
// Browser entry of the shell worker: the first message carries the port to the file host.
import "./buffer-global.js";
import { endpointOf } from "./endpoint.js";
import { runShell } from "./shell-core.js";
import { stubbedCommands } from "./zlib-stub.js";

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.addEventListener(
  "message",
  (event: MessageEvent<{ kind: "connect"; fsPort: MessagePort }>) => {
    if (event.data?.kind !== "connect") return;
    runShell(endpointOf(scope), endpointOf(event.data.fsPort), { unavailable: stubbedCommands });
    scope.postMessage({ kind: "connected" });
  },
  { once: true },
);
