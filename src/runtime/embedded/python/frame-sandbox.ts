import driver from "./driver.py?raw";
import hostSource from "./sandbox-host.mjs?raw";
import type { FromSandbox, PyodideAssets, ToSandbox } from "./protocol.js";
import { START_TIMEOUT_MS, type PythonSandbox } from "./sandbox.js";

/**
 * The frame's own page: a policy that allows no request at all (Pyodide's files come from us by message),
 * and a relay that starts the host as a worker made from a blob and passes messages between it and the one
 * port the workbench hands over. `allow-scripts` without `allow-same-origin` makes the frame an opaque
 * origin: the program reaches none of the workbench's storage, cookies, DOM or window, and the worker has
 * no DOM at all.
 */
const FRAME_HTML = `<!doctype html>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:; worker-src blob:">
<script>
let connected = false;
addEventListener("message", (event) => {
  if (connected || event.source !== parent || event.data?.kind !== "connect" || !event.ports[0]) return;
  connected = true;
  const port = event.ports[0];
  const url = URL.createObjectURL(new Blob([event.data.source], { type: "text/javascript" }));
  // A classic worker: module scripts from a blob of an opaque origin are refused by some browsers.
  const worker = new Worker(url, { name: "python3" });
  worker.onmessage = (message) => port.postMessage(message.data);
  worker.onerror = (error) => port.postMessage({ kind: "crashed", message: error.message || "the python3 worker failed to load" });
  port.onmessage = (message) => worker.postMessage(message.data);
});
</script>`;

async function fetchAsset(name: string, base: URL): Promise<Response> {
  const response = await fetch(new URL(name, base));
  if (!response.ok) {
    throw new Error(`could not load ${name} (HTTP ${response.status}): the build must hold public/pyodide, which npm install copies`);
  }
  return response;
}

/** Pyodide's files from our own origin (the browser's cache keeps them after the first time). */
async function loadAssets(): Promise<PyodideAssets> {
  const base = new URL(`${import.meta.env.BASE_URL}pyodide/`, location.href);
  const [pyodideMjs, asmMjs, wasm, stdlib, lock] = await Promise.all([
    fetchAsset("pyodide.mjs", base).then((response) => response.text()),
    fetchAsset("pyodide.asm.mjs", base).then((response) => response.text()),
    fetchAsset("pyodide.asm.wasm", base).then((response) => response.arrayBuffer()),
    fetchAsset("python_stdlib.zip", base).then((response) => response.arrayBuffer()),
    fetchAsset("pyodide-lock.json", base).then((response) => response.text()),
  ]);
  return { pyodideMjs, asmMjs, wasm, stdlib, lock };
}

export async function startFrameSandbox(): Promise<PythonSandbox> {
  const assets = await loadAssets();
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.title = "python3 sandbox";
  frame.hidden = true;
  frame.dataset.python3Sandbox = "";
  frame.srcdoc = FRAME_HTML;
  const loaded = new Promise<void>((resolve) => frame.addEventListener("load", () => resolve(), { once: true }));
  document.body.append(frame);
  await loaded;
  const channel = new MessageChannel();
  const port = channel.port1;
  frame.contentWindow?.postMessage({ kind: "connect", source: hostSource }, "*", [channel.port2]);
  let ended = false;
  let exitHandler: (reason: string) => void = () => {};
  const kill = () => {
    ended = true;
    port.close();
    // Removing the frame ends its worker, whatever the program is doing.
    frame.remove();
  };
  const handlers = new Set<(message: FromSandbox) => void>();
  port.onmessage = (event: MessageEvent) => {
    const message = event.data as FromSandbox | { kind: "crashed"; message: string };
    if (message?.kind === "crashed") {
      if (ended) return;
      kill();
      exitHandler(`the python3 sandbox ended: ${String(message.message)}`);
      return;
    }
    for (const handler of handlers) handler(message);
  };
  const listen = (handler: (message: FromSandbox) => void) => {
    handlers.add(handler);
    return () => void handlers.delete(handler);
  };
  const version = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      kill();
      reject(new Error(`python3 did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    exitHandler = (reason) => {
      clearTimeout(timer);
      stop();
      reject(new Error(reason));
    };
    const stop = listen((message) => {
      if (message.kind === "started") {
        port.postMessage({ kind: "init", driver, assets } satisfies ToSandbox, [assets.wasm, assets.stdlib]);
      } else if (message.kind === "ready") {
        clearTimeout(timer);
        stop();
        resolve(String(message.version));
      } else if (message.kind === "failed") {
        clearTimeout(timer);
        stop();
        kill();
        reject(new Error(`python3 could not start: ${String(message.message)}`));
      }
    });
  });
  exitHandler = () => {};
  return {
    version,
    post: (message) => port.postMessage(message),
    listen,
    kill,
    onExit: (handler) => (exitHandler = handler),
  };
}
