/// <reference lib="webworker" />
import { endpointOf, type Endpoint } from "./endpoint.js";

/**
 * The start of a browser worker (shell or search): the page's first message carries the port to the
 * file host; `run` starts on it, and the page is told the worker is ready.
 */
export function startWhenConnected(run: (control: Endpoint, fsEndpoint: Endpoint) => void): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  scope.addEventListener(
    "message",
    (event: MessageEvent<{ kind: "connect"; fsPort: MessagePort }>) => {
      if (event.data?.kind !== "connect") return;
      run(endpointOf(scope), endpointOf(event.data.fsPort));
      scope.postMessage({ kind: "connected" });
    },
    { once: true },
  );
}
