import { endpointOf } from "./endpoint.js";
import type { ShellWorker, ShellWorkerFactory } from "./shell-pool.js";

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
  const shell: ShellWorker = {
    control: endpointOf(worker),
    fsEndpoint: endpointOf(channel.port1),
    onCrash: (handler) => (crash = handler),
    setBusy: () => {},
    terminate: () => {
      channel.port1.close();
      worker.terminate();
    },
  };
  return shell;
};
