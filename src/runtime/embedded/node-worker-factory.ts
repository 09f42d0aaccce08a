import { MessageChannel, Worker } from "node:worker_threads";
import { endpointOf, type Endpoint } from "./endpoint.js";
import type { ShellWorker, ShellWorkerFactory } from "./shell-pool.js";

/** Shell and search workers as worker_threads (tests, benchmarks, the CLI). The TypeScript entry runs through tsx. */
export const nodeShellWorkerFactory: ShellWorkerFactory = async (entry = "shell") => {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL("./worker.node.mjs", import.meta.url), {
    workerData: { fsPort: port2, entry },
    transferList: [port2],
  });
  const control: Endpoint = {
    post: (message, transfer) => worker.postMessage(message, (transfer ?? []) as never),
    listen(handler) {
      worker.on("message", handler);
      return () => worker.off("message", handler);
    },
  };
  let crash: (message: string) => void = () => {};
  let exited = false;
  worker.on("error", (error) => crash(error.message));
  worker.on("exit", (code) => {
    if (!exited) crash(`the worker exited with code ${code}`);
  });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: { kind?: string }) => {
      if (message?.kind !== "connected") return;
      worker.off("message", onMessage);
      resolve();
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
  });
  const fsEndpoint = endpointOf(port1 as never);
  worker.unref();
  port1.unref();
  const shell: ShellWorker = {
    control,
    fsEndpoint,
    onCrash: (handler) => (crash = handler),
    setBusy: (busy) => (busy ? worker.ref() : worker.unref()),
    terminate: () => {
      exited = true;
      port1.close();
      void worker.terminate();
    },
  };
  return shell;
};
