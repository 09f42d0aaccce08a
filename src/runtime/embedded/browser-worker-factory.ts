import { endpointOf } from "./endpoint.js";
import type { ShellWorker, ShellWorkerFactory } from "./shell-pool.js";
import type { SandboxServer } from "./sandbox/page-sandboxes.js";

/**
 * Hands a shell worker's requests for sandboxes (sandbox/requests.ts) to the page's sandbox server, loaded on
 * the first one (so the page's first load carries none of it). Returns what ends the worker's sandboxes.
 */
function serveSandboxes(worker: Worker): () => void {
  let server: Promise<SandboxServer> | undefined;
  worker.addEventListener("message", (event: MessageEvent<{ kind?: string }>) => {
    const kind = event.data?.kind;
    if (kind !== "sandbox-open" && kind !== "sandbox-close") return;
    server ??= import("./sandbox/page-sandboxes.js").then(({ createSandboxServer }) => createSandboxServer(worker));
    void server.then((started) => started.handle(event.data));
  });
  return () => void server?.then((started) => started.close());
}

/** Shell and search workers as module Web Workers, bundled by Vite (which needs each URL spelled out). */
export const browserShellWorkerFactory: ShellWorkerFactory = async (entry = "shell") => {
  const worker =
    entry === "search"
      ? new Worker(new URL("./search.worker.ts", import.meta.url), { type: "module", name: "workbench-search" })
      : new Worker(new URL("./shell.worker.ts", import.meta.url), { type: "module", name: "workbench-shell" });
  const channel = new MessageChannel();
  let crash: (message: string) => void = () => {};
  worker.addEventListener("error", (event) => crash(event.message || `the ${entry} worker failed to load`));
  await new Promise<void>((resolve, reject) => {
    const onMessage = (event: MessageEvent<{ kind?: string }>) => {
      if (event.data?.kind !== "connected") return;
      worker.removeEventListener("message", onMessage);
      resolve();
    };
    worker.addEventListener("message", onMessage);
    worker.addEventListener("error", (event) => reject(new Error(event.message || `the ${entry} worker failed to load`)), { once: true });
    worker.postMessage({ kind: "connect", fsPort: channel.port2 }, [channel.port2]);
  });
  const endSandboxes = entry === "shell" ? serveSandboxes(worker) : () => {};
  const shell: ShellWorker = {
    control: endpointOf(worker),
    fsEndpoint: endpointOf(channel.port1),
    onCrash: (handler) => (crash = handler),
    setBusy: () => {},
    terminate: () => {
      channel.port1.close();
      worker.terminate();
      endSandboxes();
    },
  };
  return shell;
};
