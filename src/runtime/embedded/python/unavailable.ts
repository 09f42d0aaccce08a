import type { Endpoint } from "../endpoint.js";
import { isToBridge, type FromBridge } from "./protocol.js";

const message = new TextEncoder().encode(
  "python3: not available in this runtime (it runs through Pyodide in the page and in the CLI's embedded runtime)\n",
);

/** The answer to python3 where no sandbox was configured: a clear error, exit code 127 as for a missing command. */
export function serveNoPython(endpoint: Endpoint): () => void {
  return endpoint.listen((request) => {
    if (!isToBridge(request) || request.kind !== "python-run") return;
    endpoint.post({ kind: "python-output", id: request.id, stream: "stderr", data: message } satisfies FromBridge);
    endpoint.post({ kind: "python-done", id: request.id, exitCode: 127 } satisfies FromBridge);
  });
}
