/**
 * A sandbox for workspace code that is not a program (custom tools and plugins): a worker in the page's
 * opaque-origin sandbox frame, the same one `node` programs run in (src/runtime/embedded/sandbox), so
 * the code reaches no IndexedDB, localStorage, cookies, DOM or network of the workbench's. Loaded on the
 * first trusted workspace with such code, so the page's first load does not grow.
 */
export interface ScriptSandbox {
  post(message: unknown): void;
  onMessage(handler: (message: unknown) => void): void;
  onCrash(handler: (message: string) => void): void;
  terminate(): void;
}

/** Starts the script at `url` (one classic script defining the sandbox's main function) in a fresh sandbox. */
export async function openScriptSandbox(url: string): Promise<ScriptSandbox> {
  const { frameHost } = await import("../runtime/embedded/sandbox/frame-host.js");
  const host = await frameHost();
  const channel = new MessageChannel();
  let crashed: (message: string) => void = () => {};
  const sandbox = await host.spawnScript(url, url, channel.port2, (message) => crashed(message));
  return {
    post: (message) => channel.port1.postMessage(message),
    onMessage: (handler) => {
      channel.port1.onmessage = (event) => handler(event.data);
    },
    onCrash: (handler) => {
      crashed = handler;
    },
    terminate: () => {
      sandbox.terminate();
      channel.port1.close();
    },
  };
}
