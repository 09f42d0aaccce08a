import { endpointOf } from "./endpoint.js";
import type { ShellWorker, ShellWorkerFactory } from "./shell-pool.js";
import type { FrameSandbox } from "./sandbox/frame-host.js";
import { isSandboxRequest, type SandboxAnswer, type SandboxRequest } from "./sandbox/requests.js";

/**
 * Serves a shell worker's requests for sandboxes (sandbox/requests.ts) from the page's sandbox frame,
 * loaded on the first request. Returns what ends them all, for when the shell worker goes.
 */
function serveSandboxes(worker: Worker): () => void {
  const open = new Map<number, FrameSandbox>();
  let closed = false;
  const answer = (message: SandboxAnswer, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  async function start(request: Extract<SandboxRequest, { kind: "sandbox-open" }>): Promise<void> {
    try {
      const { frameHost } = await import("./sandbox/frame-host.js");
      const host = await frameHost();
      const channel = new MessageChannel();
      const sandbox = await host.spawn(request.runtime, channel.port2, (message) =>
        answer({ kind: "sandbox-crashed", id: request.id, message }),
      );
      if (closed) return sandbox.terminate();
      open.set(request.id, sandbox);
      answer({ kind: "sandbox-opened", id: request.id, port: channel.port1 }, [channel.port1]);
    } catch (error) {
      answer({ kind: "sandbox-failed", id: request.id, message: error instanceof Error ? error.message : String(error) });
    }
  }
  worker.addEventListener("message", (event: MessageEvent) => {
    if (!isSandboxRequest(event.data)) return;
    if (event.data.kind === "sandbox-open") void start(event.data);
    else {
      open.get(event.data.id)?.terminate();
      open.delete(event.data.id);
    }
  });
  return () => {
    closed = true;
    for (const sandbox of open.values()) sandbox.terminate();
    open.clear();
  };
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
