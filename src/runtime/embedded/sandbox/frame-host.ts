/**
 * Sandboxes in the page: workers started inside one hidden `<iframe sandbox="allow-scripts">` (no
 * allow-same-origin), so a program runs in an opaque origin: no IndexedDB, localStorage or cookies of the
 * workbench, no DOM, no parent window; the frame's Content-Security-Policy (which its workers inherit) lets
 * nothing be fetched. The runtime's script is fetched here, once, and handed to the frame as text. The page
 * talks to the frame only to start and end workers; the shell worker talks to each sandbox over its own port.
 * Loaded on the first `node`, so the page's first load does not grow.
 */
import nodeRuntimeUrl from "../node/runtime/entry.ts?worker&url";
import { SANDBOX_MAIN, type SandboxRuntime } from "./contract.js";

const RUNTIME_URLS: Record<SandboxRuntime, string> = { node: nodeRuntimeUrl };

/** Runs inside each sandbox worker after the runtime's script: hands the runtime its port. */
const WORKER_BOOTSTRAP = `
;(() => {
  const scope = self;
  const main = scope[${JSON.stringify(SANDBOX_MAIN)}];
  delete scope[${JSON.stringify(SANDBOX_MAIN)}];
  scope.addEventListener("message", (event) => {
    const port = event.ports[0];
    if (!port || typeof main !== "function") return;
    let uncaught = (error) => { throw error; };
    let unhandled = (reason) => { throw reason; };
    scope.addEventListener("error", (event) => { event.preventDefault(); uncaught(event.error ?? new Error(event.message)); });
    scope.addEventListener("unhandledrejection", (event) => { event.preventDefault(); unhandled(event.reason, event.promise); });
    const handlers = [];
    port.onmessage = (event) => { for (const handler of handlers) handler(event.data); };
    main({
      post: (message, transfer) => port.postMessage(message, transfer ?? []),
      listen: (handler) => { handlers.push(handler); },
      onUncaughtException: (handler) => { uncaught = handler; },
      onUnhandledRejection: (handler) => { unhandled = handler; },
    });
  }, { once: true });
})();
`;

/** The frame's document: its policy, and a script that starts and ends workers when the page asks. */
const FRAME_DOCUMENT = `<!doctype html>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:; connect-src 'none'">
<script>
const workers = new Map();
const scripts = new Map();
addEventListener("message", (event) => {
  if (event.source !== parent) return;
  const message = event.data;
  if (message.kind === "script") {
    scripts.set(message.runtime, URL.createObjectURL(new Blob([message.source, "\\n//# sourceURL=node:internal/workbench-runtime\\n", ${JSON.stringify(WORKER_BOOTSTRAP)}], { type: "text/javascript" })));
    parent.postMessage({ kind: "script-ready", runtime: message.runtime }, "*");
  } else if (message.kind === "spawn") {
    // A classic worker: module workers do not start from an opaque origin.
    const worker = new Worker(scripts.get(message.runtime), { name: "workbench-sandbox" });
    workers.set(message.id, worker);
    worker.addEventListener("error", (error) => {
      error.preventDefault();
      parent.postMessage({ kind: "crashed", id: message.id, message: error.message || "the program's worker failed" }, "*");
    });
    worker.postMessage({ kind: "port" }, [event.ports[0]]);
  } else if (message.kind === "kill") {
    workers.get(message.id)?.terminate();
    workers.delete(message.id);
  } else if (message.kind === "ping") {
    parent.postMessage({ kind: "pong" }, "*");
  }
});
parent.postMessage({ kind: "loaded" }, "*");
</script>`;

export interface FrameSandbox {
  terminate(): void;
}

type FromFrame =
  | { kind: "loaded" }
  | { kind: "script-ready"; runtime: string }
  | { kind: "crashed"; id: number; message: string }
  | { kind: "pong" };

/** How often the frame is asked whether it is alive while a sandbox runs, and how long a silence ends it. */
const PING_MS = 1_000;
const SILENCE_MS = 5_000;

const FRAME_GONE_MESSAGE =
  "the program's sandbox was ended by the browser (most likely it ran out of memory); the workspace's files are as they were before it";

class FrameHost {
  private nextId = 1;
  private readonly crashHandlers = new Map<number, (message: string) => void>();
  private readonly scripts = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, () => void>();
  private pinger: ReturnType<typeof setInterval> | undefined;
  /** When the oldest ping not yet answered went out. */
  private unansweredSince: number | undefined;
  private lastTick = 0;
  private readonly onMessage = (event: MessageEvent) => {
    if (event.source !== this.frame.contentWindow) return;
    const message = event.data as FromFrame;
    if (message.kind === "crashed") this.crashHandlers.get(message.id)?.(message.message);
    else if (message.kind === "script-ready") this.waiting.get(`script:${message.runtime}`)?.();
    else if (message.kind === "pong") this.unansweredSince = undefined;
  };

  private constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly onGone: () => void,
  ) {
    window.addEventListener("message", this.onMessage);
  }

  /**
   * A program that allocates without end makes the browser end the frame's process (Chromium gives
   * sandboxed frames a process of their own), and nothing in the page is told: the program's call would
   * wait for ever. While a sandbox runs, the frame's own thread (never the program's) answers pings; a
   * silence ends every sandbox in it with a clear message, and the next program gets a new frame.
   */
  private watch(): void {
    if (this.pinger !== undefined) return;
    this.pinger = setInterval(() => {
      if (this.crashHandlers.size === 0) {
        clearInterval(this.pinger);
        this.pinger = undefined;
        this.unansweredSince = undefined;
        return;
      }
      const now = performance.now();
      // A page that was itself too busy to tick may not have read the answers yet: the count starts over.
      if (now - this.lastTick > PING_MS * 2) this.unansweredSince = undefined;
      this.lastTick = now;
      if (this.unansweredSince !== undefined && now - this.unansweredSince > SILENCE_MS) return this.gone();
      this.unansweredSince ??= now;
      this.post({ kind: "ping" });
    }, PING_MS);
    this.lastTick = performance.now();
  }

  private gone(): void {
    clearInterval(this.pinger);
    this.pinger = undefined;
    window.removeEventListener("message", this.onMessage);
    this.frame.remove();
    this.onGone();
    const handlers = [...this.crashHandlers.values()];
    this.crashHandlers.clear();
    for (const handler of handlers) handler(FRAME_GONE_MESSAGE);
  }

  static async create(onGone: () => void): Promise<FrameHost> {
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.title = "program sandbox";
    frame.style.cssText = "position:absolute;width:0;height:0;border:0;visibility:hidden";
    const loaded = new Promise<void>((resolve) => {
      const onMessage = (event: MessageEvent) => {
        if (event.source !== frame.contentWindow || (event.data as FromFrame)?.kind !== "loaded") return;
        window.removeEventListener("message", onMessage);
        resolve();
      };
      window.addEventListener("message", onMessage);
    });
    frame.srcdoc = FRAME_DOCUMENT;
    document.body.append(frame);
    await loaded;
    return new FrameHost(frame, onGone);
  }

  private post(message: unknown, transfer: Transferable[] = []): void {
    // The frame's origin is opaque: "*" is the only target a message to it can name.
    this.frame.contentWindow?.postMessage(message, "*", transfer);
  }

  /** `key` names the script in the frame: a runtime, or the URL of another sandboxed script. */
  private script(key: string, url: string): Promise<void> {
    const runtime = key;
    let ready = this.scripts.get(runtime);
    if (!ready) {
      ready = (async () => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`the ${runtime} runtime did not load (${response.status})`);
        const source = await response.text();
        await new Promise<void>((resolve) => {
          this.waiting.set(`script:${runtime}`, resolve);
          this.post({ kind: "script", runtime, source });
        });
      })();
      ready.catch(() => this.scripts.delete(runtime));
      this.scripts.set(runtime, ready);
    }
    return ready;
  }

  spawn(runtime: SandboxRuntime, port: MessagePort, onCrash: (message: string) => void): Promise<FrameSandbox> {
    return this.spawnScript(runtime, RUNTIME_URLS[runtime], port, onCrash);
  }

  /**
   * A sandbox worker running the script at `url` (bundled into one classic script that defines the
   * sandbox's main function, as a runtime's does): workspace code other than programs, such as custom tools.
   */
  async spawnScript(key: string, url: string, port: MessagePort, onCrash: (message: string) => void): Promise<FrameSandbox> {
    const runtime = key;
    await this.script(key, url);
    const id = this.nextId++;
    this.crashHandlers.set(id, onCrash);
    this.post({ kind: "spawn", id, runtime }, [port]);
    this.watch();
    return {
      terminate: () => {
        this.crashHandlers.delete(id);
        this.post({ kind: "kill", id });
      },
    };
  }
}

let host: Promise<FrameHost> | undefined;

/** The page's one sandbox frame, made on first use. */
export function frameHost(): Promise<FrameHost> {
  if (host) return host;
  // A frame the browser ended is forgotten, so the next program gets a new one.
  const made: Promise<FrameHost> = FrameHost.create(() => {
    if (host === made) host = undefined;
  }).catch((error: unknown) => {
    if (host === made) host = undefined;
    throw error;
  });
  host = made;
  return made;
}
