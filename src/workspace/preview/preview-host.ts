/**
 * The page's side of the preview: one per runtime, shared by the Preview pane (which shows its frame) and
 * the preview tool (`ctx.preview`). It builds a page of the workspace's web app, hands it to a sandboxed
 * frame (an opaque origin: see docs/preview.md), answers the frame's requests for workspace files, keeps
 * its console and errors, follows the address bar's history, and rebuilds when a file the page loaded
 * changes.
 */
import { posix } from "pathe";
import type { Runtime } from "../../runtime/types.js";
import type { PreviewBuild, PreviewBuilder, PreviewFiles } from "./build.js";
import { mimeType } from "./mime-type.js";
import { type FrameConfig, frameDocument } from "./frame-document.js";
import { FrameMessage } from "./frame-messages.js";
import { type FrameFiles, frameFiles, planHotUpdate } from "./hot-update.js";
import type { ConsoleLine, PageError, PageSnapshot } from "./preview-types.js";
import { errorMessage } from "../../base/error-message.js";

/** The frame may run scripts, submit forms, open dialogs and popups (sandboxed too); never allow-same-origin. */
const FRAME_SANDBOX = "allow-scripts allow-forms allow-modals allow-popups allow-downloads allow-pointer-lock";
/** Relative URLs in the app resolve under this path on the workbench's origin, where the fetch shim answers. */
const URL_PREFIX = "/__preview__/";
/** As Vite's server.fs.deny: secrets stay out of what a page can fetch. */
const DENIED = [/(^|\/)\.env($|\.)/, /\.(pem|crt|key)$/i];
const MAX_ENTRIES = 500;
/** Changes that come together (a bulk write, an install) give one rebuild. */
const CHANGE_DEBOUNCE_MS = 10;
const HELLO_TIMEOUT_MS = 10_000;
const SNAPSHOT_TIMEOUT_MS = 3_000;
const SCREENSHOT_TIMEOUT_MS = 8_000;
/** A hot update the frame has not finished by then is given up for a full reload. */
const HOT_TIMEOUT_MS = 5_000;

/** Performance marks on the page's timeline, so the bench can say where a reload's time goes. */
function mark(name: "change" | "build-start" | "build-end" | "frame-set" | "hello" | "hot-sent" | "hot-done"): void {
  performance.mark(`wb-preview-${name}`);
}

/** modern-screenshot's browser build as text, fetched with the first screenshot (never with the page). */
let renderer: Promise<string> | undefined;
function screenshotRenderer(): Promise<string> {
  renderer ??= import("modern-screenshot/dist/index.js?raw").then((module) => module.default);
  return renderer;
}

export type PreviewEntry = ({ type: "console" } & ConsoleLine) | ({ type: "error" } & PageError);

export type PreviewPhase = "idle" | "building" | "running" | "failed";

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

function runtimeFiles(runtime: Runtime): PreviewFiles {
  return {
    isFile: (path) =>
      runtime.fs.stat(path).then(
        (stat) => stat.type === "file",
        () => false,
      ),
    readText: (path) =>
      runtime.fs.readFile(path).then(
        (bytes) => new TextDecoder().decode(bytes),
        () => undefined,
      ),
    readBytes: (path) =>
      runtime.fs.readFile(path).then(
        (bytes) => bytes,
        () => undefined,
      ),
  };
}

interface Loaded {
  /** What the frame runs now: the build it was loaded with, or the build of its last hot update. */
  build: PreviewBuild;
  /** The nonce and file numbers of the build the frame was loaded with. */
  nonce: string;
  files: FrameFiles;
  /** The frame said it has a React root: an edit of a module can be a hot update (see hot-update.ts). */
  hotReady: boolean;
  /** How the frame was set up: "Open in a new tab" makes a document of the build it runs now with it. */
  config: FrameConfig;
  port?: MessagePort;
  started: Promise<void>;
  start: () => void;
}

export class PreviewHost {
  readonly frame: HTMLIFrameElement;
  /** The builder (sucrase and the module lexers) loads with the first preview, not with the page. */
  private builderLoad?: Promise<PreviewBuilder>;
  private builderMade?: PreviewBuilder;
  private readonly listeners = new Set<() => void>();
  private readonly revealListeners = new Set<() => void>();
  private history: string[] = [];
  private index = -1;
  private generation = 0;
  private loaded?: Loaded;
  private pendingLoad?: Promise<void>;
  private changeTimer?: ReturnType<typeof setTimeout>;
  /** The paths changed since the last refresh ("unknown" when a change named none). */
  private pendingChanges: Set<string> | "unknown" = new Set();
  private hotReplies = new Map<number, (reply: { roots: number; failed: boolean }) => void>();
  private snapshots = new Map<number, (reply: { title: string; text: string }) => void>();
  private screenshots = new Map<number, (reply: { dataUrl?: string; error?: string }) => void>();
  private nextSnapshot = 1;
  private offscreen?: HTMLElement;
  private readonly stopWatching: () => void;
  phase: PreviewPhase = "idle";
  failure = "";
  entries: PreviewEntry[] = [];
  /** Bumped on every load that reaches the frame (the bench and tests wait on it). */
  loads = 0;

  private builder(): Promise<PreviewBuilder> {
    this.builderLoad ??= import("./build.js").then(({ PreviewBuilder }) => {
      this.builderMade = new PreviewBuilder(runtimeFiles(this.runtime), this.runtime.root);
      return this.builderMade;
    });
    // A failed load (the chunk could not be fetched) is tried again with the next preview.
    this.builderLoad.catch(() => (this.builderLoad = undefined));
    return this.builderLoad;
  }

  constructor(private readonly runtime: Runtime) {
    this.frame = document.createElement("iframe");
    this.frame.setAttribute("sandbox", FRAME_SANDBOX);
    this.frame.title = "Preview of the workspace's web app";
    this.frame.className = "preview-frame";
    this.frame.dataset.testid = "preview-frame";
    window.addEventListener("message", this.onWindowMessage);
    this.stopWatching = runtime.onChange((paths) => this.onFilesChanged(paths));
  }

  get path(): string | undefined {
    return this.history[this.index];
  }
  get canBack(): boolean {
    return this.index > 0;
  }
  get canForward(): boolean {
    return this.index < this.history.length - 1;
  }

  onUpdate(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Called when the tool loads a page, so the pane can come forward. */
  onReveal(listener: () => void): () => void {
    this.revealListeners.add(listener);
    return () => this.revealListeners.delete(listener);
  }
  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Shows the frame in `container` (the pane); without one it runs off screen, for the tool. */
  attach(container: HTMLElement): void {
    container.appendChild(this.frame);
    this.offscreen?.remove();
    this.offscreen = undefined;
  }
  private ensureInDocument(): void {
    if (this.frame.isConnected) return;
    this.offscreen = document.createElement("div");
    this.offscreen.style.cssText = "position:fixed;left:-12000px;top:0;width:1024px;height:768px;";
    this.offscreen.appendChild(this.frame);
    document.body.appendChild(this.offscreen);
  }

  /** "/index.html", "app/", "/app/about.html?x=1" → a workspace-relative page path with a leading slash. */
  normalize(path: string): string {
    const trimmed = path.trim() || "/";
    return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
  }

  navigate(path: string): Promise<void> {
    const page = this.normalize(path);
    this.history = [...this.history.slice(0, this.index + 1), page];
    this.index = this.history.length - 1;
    return this.load();
  }
  back(): Promise<void> {
    if (!this.canBack) return Promise.resolve();
    this.index--;
    return this.load();
  }
  forward(): Promise<void> {
    if (!this.canForward) return Promise.resolve();
    this.index++;
    return this.load();
  }
  reload(): Promise<void> {
    if (this.path === undefined) return this.navigate("/index.html");
    return this.load();
  }

  private async pagePath(page: string): Promise<string> {
    const bare = page.split(/[?#]/)[0]!;
    const absolute = posix.join(this.runtime.root, bare);
    if (!inside(this.runtime.root, absolute)) throw new Error(`${page} is outside the workspace`);
    const stat = await this.runtime.fs.stat(absolute).catch(() => undefined);
    if (stat?.type === "directory" || bare.endsWith("/")) return posix.join(absolute, "index.html");
    if (!stat) throw new Error(`${bare} does not exist in the workspace: create it, or type the path of an HTML page`);
    return absolute;
  }

  private load(): Promise<void> {
    const generation = ++this.generation;
    const page = this.path!;
    this.phase = "building";
    this.changed();
    const run = (async () => {
      try {
        mark("build-start");
        const htmlPath = await this.pagePath(page);
        const build = await (await this.builder()).build(htmlPath);
        mark("build-end");
        if (generation !== this.generation) return;
        const config: FrameConfig = {
          origin: location.origin,
          prefix: URL_PREFIX,
          page: `/${posix.relative(build.appRoot, htmlPath)}`,
          root: this.runtime.root,
        };
        const document = frameDocument(build.payload, config);
        this.loaded?.port?.close();
        let start!: () => void;
        const started = new Promise<void>((resolve) => (start = resolve));
        this.loaded = {
          build,
          nonce: build.payload.nonce,
          files: frameFiles(build),
          hotReady: false,
          config,
          started,
          start,
        };
        this.entries = [];
        this.phase = "running";
        this.failure = "";
        this.loads++;
        this.ensureInDocument();
        this.frame.srcdoc = document;
        mark("frame-set");
      } catch (error) {
        if (generation !== this.generation) return;
        this.loaded?.port?.close();
        this.loaded = undefined;
        this.frame.srcdoc = "";
        this.phase = "failed";
        this.failure = errorMessage(error);
        this.entries = [{ type: "error", kind: "build", message: this.failure }];
      }
      this.changed();
    })();
    this.pendingLoad = run;
    return run;
  }

  private onFilesChanged(paths: string[] | "unknown"): void {
    mark("change");
    // A builder not made yet has read nothing that could be stale.
    this.builderMade?.invalidate(paths);
    const loaded = this.loaded?.build.loaded;
    // A build under way may have read a file before this change: build again rather than show the old one.
    const affects =
      paths === "unknown" ||
      this.phase === "failed" ||
      this.phase === "building" ||
      (loaded !== undefined && paths.some((path) => loaded.has(path)));
    if (!affects || this.path === undefined) return;
    if (paths === "unknown" || this.pendingChanges === "unknown") this.pendingChanges = "unknown";
    else for (const path of paths) this.pendingChanges.add(path);
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => void this.refresh(), CHANGE_DEBOUNCE_MS);
  }

  /** After an edit: a hot update where the page can take one, a full reload otherwise. */
  private async refresh(): Promise<void> {
    const changed = this.pendingChanges;
    this.pendingChanges = new Set();
    const current = this.loaded;
    // A load under way (a navigation, a reload) is for a new document: it must not be overtaken.
    if (changed === "unknown" || this.phase === "building" || !current?.hotReady || !current.port) return this.load();
    const generation = ++this.generation;
    const run = this.hotUpdate(current, [...changed], generation);
    this.pendingLoad = run;
    return run;
  }

  private async hotUpdate(current: Loaded, changed: string[], generation: number): Promise<void> {
    let next: PreviewBuild;
    try {
      mark("build-start");
      next = await (await this.builder()).build(current.build.htmlPath);
      mark("build-end");
    } catch (error) {
      if (generation !== this.generation) return;
      // The page stays as it was, with the error over it, until an edit mends it.
      this.phase = "failed";
      this.failure = errorMessage(error);
      this.entries = [{ type: "error", kind: "build", message: this.failure }];
      this.changed();
      return;
    }
    if (generation !== this.generation || this.loaded !== current) return;
    const plan = planHotUpdate(current.build, current.files, next, changed);
    if ("reload" in plan) return this.load();
    const loadedBefore = current.build.loaded;
    current.build = next;
    // Files the page fetched stay watched: a change to one reloads it.
    for (const path of loadedBefore) next.loaded.add(path);
    this.entries = [];
    this.phase = "running";
    this.failure = "";
    this.changed();
    if (plan.hot.modules.length === 0) return;
    const id = this.nextSnapshot++;
    const reply = new Promise<{ roots: number; failed: boolean }>((resolve) => this.hotReplies.set(id, resolve));
    current.port!.postMessage({ type: "hot", id, ...plan.hot });
    mark("hot-sent");
    const done = await withTimeout(reply, HOT_TIMEOUT_MS, "the hot update did not finish").catch(() => undefined);
    this.hotReplies.delete(id);
    mark("hot-done");
    if (this.loaded !== current) return;
    // Without a root to render again (or after a failure), the next edit reloads the page from scratch.
    current.hotReady = done !== undefined && !done.failed && done.roots > 0;
    if (!done) await this.load();
  }

  private readonly onWindowMessage = (event: MessageEvent) => {
    const current = this.loaded;
    if (!current || event.source !== this.frame.contentWindow) return;
    const data = event.data as { wbPreview?: unknown; type?: unknown } | null;
    if (data?.wbPreview !== current.nonce || data.type !== "hello" || current.port || !event.ports[0]) return;
    mark("hello");
    current.port = event.ports[0];
    current.port.onmessage = (message) => this.onFrameMessage(current, message.data);
    current.start();
  };

  private onFrameMessage(from: Loaded, data: unknown): void {
    if (from !== this.loaded) return;
    const parsed = FrameMessage.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.type) {
      case "console":
      case "error":
        if (this.entries.length >= MAX_ENTRIES) this.entries.shift();
        this.entries = [...this.entries, message.type === "console" ? { ...message } : { ...message }];
        this.changed();
        return;
      case "hot-ready":
        from.hotReady = true;
        return;
      case "hot-done":
        this.hotReplies.get(message.id)?.({ roots: message.roots, failed: message.failed ?? false });
        return;
      case "snapshot":
        this.snapshots.get(message.id)?.({ title: message.title, text: message.text });
        this.snapshots.delete(message.id);
        return;
      case "screenshot":
        this.screenshots.get(message.id)?.({
          ...(message.dataUrl ? { dataUrl: message.dataUrl } : {}),
          ...(message.error ? { error: message.error } : {}),
        });
        this.screenshots.delete(message.id);
        return;
      case "navigate": {
        const absolute = posix.join(from.build.appRoot, message.path);
        void this.navigate(`/${posix.relative(this.runtime.root, absolute)}`);
        return;
      }
      case "fetch":
        void this.serveFetch(from, message.id, message.path);
        return;
    }
  }

  /** A relative fetch() of the app: a file of its folder (or public/), never outside the workspace nor a secret. */
  private async serveFetch(from: Loaded, id: number, path: string): Promise<void> {
    const reply = (answer: Record<string, unknown>, transfer: Transferable[] = []) =>
      from.port?.postMessage({ type: "fetch-reply", id, ...answer }, transfer);
    const bare = path.split(/[?#]/)[0]!;
    for (const candidate of [posix.join(from.build.appRoot, bare), posix.join(from.build.appRoot, "public", bare)]) {
      if (!inside(this.runtime.root, candidate) || DENIED.some((pattern) => pattern.test(candidate))) break;
      const real = await this.runtime.fs.realpath(candidate).catch(() => undefined);
      if (!real || !inside(this.runtime.root, real)) continue;
      const stat = await this.runtime.fs.stat(real).catch(() => undefined);
      if (stat?.type !== "file") continue;
      const bytes = await this.runtime.fs.readFile(real).catch(() => undefined);
      if (!bytes) continue;
      from.build.loaded.add(candidate);
      const body = bytes.slice().buffer;
      reply({ status: 200, body, contentType: mimeType(candidate) }, [body]);
      return;
    }
    reply({ status: 404, body: new TextEncoder().encode(`${bare} is not a file of the app's folder`).buffer, contentType: "text/plain" });
  }

  /** Opens the page as it is now in a new tab: a page of ours holding the same sandboxed frame. */
  openInNewTab(): void {
    if (!this.loaded) return;
    const escaped = frameDocument(this.loaded.build.payload, this.loaded.config).replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    const wrapper = `<!doctype html><meta charset="utf-8"><title>Preview ${this.path ?? ""}</title><style>html,body,iframe{margin:0;border:0;width:100%;height:100%;display:block}</style><iframe sandbox="${FRAME_SANDBOX}" srcdoc="${escaped}"></iframe>`;
    const url = URL.createObjectURL(new Blob([wrapper], { type: "text/html" }));
    window.open(url, "_blank", "noopener");
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  async inspect(path: string | undefined, waitMs: number, signal: AbortSignal): Promise<PageSnapshot> {
    for (const listener of this.revealListeners) listener();
    await this.navigate(path ?? "/index.html");
    const page = this.path!;
    const current = this.loaded;
    const snapshot = (title: string, text: string): PageSnapshot => {
      const entries = this.loaded === current ? this.entries : [];
      return {
        path: page,
        title,
        text,
        console: entries.flatMap((entry) =>
          entry.type === "console" ? [{ level: entry.level, text: entry.text, source: entry.source }] : [],
        ),
        errors: entries.flatMap((entry) =>
          entry.type === "error" ? [{ kind: entry.kind, message: entry.message, stack: entry.stack, source: entry.source }] : [],
        ),
        warnings: current?.build.warnings ?? [],
      };
    };
    if (!current) return { ...snapshot("", ""), errors: [{ kind: "build", message: this.failure }] };
    await abortable(withTimeout(current.started, HELLO_TIMEOUT_MS, "the page did not start within 10 s"), signal);
    await abortable(new Promise((resolve) => setTimeout(resolve, waitMs)), signal);
    if (this.loaded !== current) throw new Error("the page was reloaded while it was being read (a file changed): call preview again");
    const id = this.nextSnapshot++;
    const reply = new Promise<{ title: string; text: string }>((resolve) => this.snapshots.set(id, resolve));
    current.port?.postMessage({ type: "snapshot", id });
    const read = await abortable(
      withTimeout(reply, SNAPSHOT_TIMEOUT_MS, "the page did not answer within 3 s (is a script stuck in a loop?)"),
      signal,
    );
    return { ...snapshot(read.title, read.text), screenshot: await this.screenshot(current, signal) };
  }

  /** The page as the frame draws it; a failure is said, never thrown: the text snapshot stands without it. */
  private async screenshot(current: Loaded, signal: AbortSignal): Promise<{ dataUrl: string } | { missing: string }> {
    try {
      const code = await screenshotRenderer();
      const id = this.nextSnapshot++;
      const reply = new Promise<{ dataUrl?: string; error?: string }>((resolve) => this.screenshots.set(id, resolve));
      current.port?.postMessage({ type: "screenshot", id, code });
      const drawn = await abortable(withTimeout(reply, SCREENSHOT_TIMEOUT_MS, "the page was not drawn within 8 s"), signal);
      return drawn.dataUrl ? { dataUrl: drawn.dataUrl } : { missing: drawn.error ?? "the page could not be drawn" };
    } catch (error) {
      if (signal.aborted) throw error;
      return { missing: errorMessage(error) };
    }
  }

  /** Resolves once the load under way (if any) has reached the frame or failed. */
  settled(): Promise<void> {
    return this.pendingLoad ?? Promise.resolve();
  }

  dispose(): void {
    window.removeEventListener("message", this.onWindowMessage);
    this.stopWatching();
    clearTimeout(this.changeTimer);
    this.loaded?.port?.close();
    this.frame.remove();
    this.offscreen?.remove();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const hosts = new WeakMap<Runtime, PreviewHost>();

/** The preview of a runtime's workspace, made on first use; the pane and the tool share it. */
export function previewFor(runtime: Runtime): PreviewHost {
  let host = hosts.get(runtime);
  if (!host) {
    host = new PreviewHost(runtime);
    hosts.set(runtime, host);
  }
  return host;
}
