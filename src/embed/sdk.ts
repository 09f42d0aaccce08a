/**
 * embed.js: what a docs page imports to hold a workbench. `embed(elementOrId, options)` puts a frame in
 * the page and resolves to a VM once the frame answers; `connect(iframe)` does the same for a frame the
 * page wrote itself. Bundled alone (vite.config.ts builds it as its own entry), so it imports only the
 * protocol's constants: no solid, no AI SDK, no zod.
 */
import {
  frameUrl,
  HANDSHAKE_ATTEMPTS,
  HANDSHAKE_INTERVAL_MS,
  isHandshake,
  PROTOCOL_VERSION,
  TAG,
  type EventMessage,
  type EventName,
  type FileMap,
  type FsDiff,
  type MethodName,
  type Response,
  type StartPayload,
  type ThemeName,
  type ViewName,
} from "./protocol.js";

export type { FileMap, FsDiff, ThemeName, ViewName } from "./protocol.js";

export interface EmbedOptions extends StartPayload {
  view?: ViewName;
  theme?: ThemeName;
  /** Pixels, any CSS length, or "auto" (the frame reports its content's height and the frame follows). */
  height?: number | string;
  readOnly?: boolean;
  /** The frame shows a button and starts the workbench only when the reader presses it. */
  clickToLoad?: boolean;
  /** Host origins the frame will answer (this page's own origin when omitted). */
  origins?: string[];
  /** The workbench's address; the folder embed.js was loaded from by default. */
  workbench?: string;
  /** The frame's accessible name. */
  title?: string;
}

export interface ToolCallRecord {
  id: string;
  tool: string;
  status: string;
  input: Record<string, unknown>;
  output?: string;
  error?: string;
  title?: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

type Listener = (data: never) => void;

/** The handle on one embedded workbench. Every method's promise rejects with the frame's error. */
export class WorkbenchVM {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly port: MessagePort,
    readonly frame: HTMLIFrameElement,
  ) {
    port.onmessage = (event: MessageEvent) => this.receive(event.data);
    port.start();
  }

  private receive(data: unknown): void {
    if (typeof data !== "object" || data === null) return;
    if ("event" in data) {
      const { event, data: payload } = data as EventMessage;
      for (const listener of [...(this.listeners.get(event) ?? [])]) (listener as (value: unknown) => void)(payload);
      return;
    }
    const reply = data as Response;
    const entry = this.waiting.get(reply.id);
    if (!entry) return;
    this.waiting.delete(reply.id);
    if (reply.ok) entry.resolve(reply.value);
    else entry.reject(new Error(reply.error));
  }

  /** @internal */
  request<T>(method: MethodName, params?: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.port.postMessage({ id, method, params });
    });
  }

  /** Writes `create` (path to text or bytes) and deletes `destroy` in the embed's workspace. */
  applyFsDiff(diff: FsDiff): Promise<void> {
    return this.request("applyFsDiff", diff);
  }

  /** Every file of the workspace: text as strings, binary files as bytes. */
  getFsSnapshot(): Promise<FileMap> {
    return this.request("getFsSnapshot");
  }

  /** Runs one tool in the frame (its permission prompt shown there) and resolves to the call's record. */
  runTool(id: string, args: Record<string, unknown> = {}): Promise<ToolCallRecord> {
    return this.request("runTool", { tool: id, args });
  }

  /** Sends a message to the agent (needs the `session` script, or a provider configured for the embed). */
  run(message: string): Promise<void> {
    return this.request("run", { message });
  }

  openFile(path: string): Promise<void> {
    return this.request("openFile", { path });
  }

  setTheme(theme: ThemeName): Promise<void> {
    return this.request("setTheme", { theme });
  }

  setView(view: ViewName): Promise<void> {
    return this.request("setView", { view });
  }

  /**
   * The embed's files as they were before that call (every later change taken back, edits made in the
   * frame included); resolves to the paths set back.
   */
  revert(callID: string): Promise<string[]> {
    return this.request("revert", { callID });
  }

  /** The embed's files as `start` left them; resolves to the paths set back. */
  reset(): Promise<string[]> {
    return this.request("reset");
  }

  /** A link that opens the embed's files and session in the full workbench. */
  shareUrl(): Promise<string> {
    return this.request("shareUrl");
  }

  /** The frame's content height now, in CSS pixels. */
  measure(): Promise<number> {
    return this.request("measure");
  }

  /** `call` (a call's record as it changes), `files` (paths changed), `resize` ({ height }). */
  on(event: "call", listener: (call: ToolCallRecord) => void): () => void;
  on(event: "files", listener: (paths: string[] | "unknown") => void): () => void;
  on(event: "resize", listener: (size: { height: number }) => void): () => void;
  on(event: EventName, listener: (data: never) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
}

function randomId(): string {
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

/**
 * Whether the frame holds the workbench's page yet. Until it does, its window is the blank page it started
 * with, of the host's own origin, and a message for the workbench's origin sent there is dropped with an
 * error in the host page's console.
 */
function frameLoaded(frame: HTMLIFrameElement, target: string): boolean {
  try {
    return frame.contentWindow?.location.origin === target;
  } catch {
    // Reading another origin's location throws: the blank page is gone, the workbench's is there.
    return true;
  }
}

/**
 * Connects to a workbench frame already in the page: the handshake is sent until the frame answers (it
 * may still be loading), then every request goes over the MessagePort it hands back.
 */
export function connect(frame: HTMLIFrameElement): Promise<WorkbenchVM> {
  const target = new URL(frame.src, location.href).origin;
  const id = randomId();
  return new Promise((resolve, reject) => {
    let tries = 0;
    const stop = () => {
      clearInterval(timer);
      window.removeEventListener("message", onMessage);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.origin !== target || !isHandshake(event.data) || event.data.id !== id) return;
      stop();
      if (event.data[TAG] === "refused") return reject(new Error(event.data.error ?? "The workbench frame refused this page."));
      const port = event.ports[0];
      if (event.data[TAG] !== "ready" || !port)
        return reject(new Error("The workbench frame answered without a channel: is it the same version as embed.js?"));
      resolve(new WorkbenchVM(port, frame));
    };
    const send = () => {
      if (tries++ >= HANDSHAKE_ATTEMPTS) {
        stop();
        reject(
          new Error(
            `The workbench frame at ${target} did not answer in ${(HANDSHAKE_ATTEMPTS * HANDSHAKE_INTERVAL_MS) / 1000} s: check that the address serves the workbench and that the page can reach it.`,
          ),
        );
        return;
      }
      if (frameLoaded(frame, target)) frame.contentWindow?.postMessage({ [TAG]: "init", id, version: PROTOCOL_VERSION }, target);
    };
    window.addEventListener("message", onMessage);
    const timer = setInterval(send, HANDSHAKE_INTERVAL_MS);
    send();
  });
}

function cssLength(height: number | string | undefined): string {
  if (height === undefined || height === "auto") return "480px";
  return typeof height === "number" ? `${height}px` : height;
}

/**
 * Replaces the element (or the element with that id) with a workbench frame, starts it with `options`,
 * and resolves to its VM.
 */
export async function embed(target: string | HTMLElement, options: EmbedOptions = {}): Promise<WorkbenchVM> {
  const element = typeof target === "string" ? document.getElementById(target) : target;
  if (!element)
    throw new Error(
      `embed: no element with id "${String(target)}" in the page; add one (e.g. <div id="${String(target)}"></div>) before calling embed.`,
    );
  const base = options.workbench ?? new URL("./", import.meta.url).href;
  const auto = options.height === "auto";
  const frame = document.createElement("iframe");
  frame.src = frameUrl(base, {
    view: options.view,
    theme: options.theme,
    readOnly: options.readOnly,
    clickToLoad: options.clickToLoad,
    autoHeight: auto,
    origins: options.origins ?? [location.origin],
  });
  if (element.id) frame.id = element.id;
  frame.title = options.title ?? "Workbench";
  frame.setAttribute("allow", "clipboard-write");
  frame.setAttribute(
    "sandbox",
    "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads allow-modals",
  );
  frame.style.cssText = `display:block;width:100%;border:1px solid #8884;border-radius:6px;height:${cssLength(options.height)}`;
  element.replaceWith(frame);
  const vm = await connect(frame);
  if (auto) vm.on("resize", ({ height }) => (frame.style.height = `${Math.ceil(height)}px`));
  const start: StartPayload = {};
  for (const key of ["files", "session", "config", "open", "autoplay"] as const) {
    if (options[key] !== undefined) (start as Record<string, unknown>)[key] = options[key];
  }
  await vm.request("start", start);
  return vm;
}
