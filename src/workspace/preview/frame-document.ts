/**
 * The document the preview frame is given (as its srcdoc). The frame is sandboxed without
 * allow-same-origin, so its origin is opaque: it cannot read the workbench's storage or script its window.
 * Its first script is `frameMain`, serialised whole (it must use nothing from outside its own body): it
 * opens a MessagePort to the page, reports console lines and errors with their workspace file and line,
 * turns each file of the build into a blob: URL of the frame's own origin, writes an import map from
 * module keys to those URLs, and then writes the app's HTML in place (document.write while the page is
 * still being parsed, so every tag of the app is parsed as if it had been there).
 */
import type { FramePayload } from "./build.js";
import type { HotUpdate } from "./hot-update.js";

export interface FrameConfig {
  /** The workbench's origin: relative URLs resolve under `${origin}${prefix}`, which the fetch shim serves. */
  origin: string;
  prefix: string;
  /** The page's path under the app's folder, with a leading slash ("/index.html"). */
  page: string;
  /** The workspace folder, left off the paths shown in the console. */
  root: string;
}

/** Runs in the frame. Self-contained: it is turned into text with toString(). */
function frameMain(payload: FramePayload, config: FrameConfig): void {
  performance.mark("wb-frame-start");
  const channel = new MessageChannel();
  const port = channel.port1;
  parent.postMessage({ wbPreview: payload.nonce, type: "hello" }, "*", [channel.port2]);
  const send = (message: unknown) => {
    try {
      port.postMessage(message);
    } catch {
      // a value that cannot be cloned is dropped, as a console that cannot show it would
    }
  };

  const shown = (path: string) => (path.startsWith(`${config.root}/`) ? path.slice(config.root.length + 1) : path);
  const pathOfUrl: Record<string, string> = {};
  const BLOB = /blob:[^\s)]*?\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const mapStack = (stack: string) => stack.replace(BLOB, (url) => pathOfUrl[url] ?? url);
  /** The first place in a stack that is a workspace file: "src/App.tsx:12:5". */
  const sourceOf = (stack: string | undefined) => {
    if (!stack) return undefined;
    for (const match of stack.matchAll(/(blob:[^\s)]*?\/[0-9a-f-]{36}):(\d+):(\d+)/g)) {
      const path = pathOfUrl[match[1]!];
      if (path) return { path, line: Number(match[2]), column: Number(match[3]) };
    }
    return undefined;
  };

  const describe = (value: unknown, depth: number): string => {
    if (typeof value === "string") return depth === 0 ? value : JSON.stringify(value);
    if (value instanceof Error) return value.stack ? mapStack(value.stack) : `${value.name}: ${value.message}`;
    if (typeof value === "function") return `[Function ${value.name || "anonymous"}]`;
    if (typeof value !== "object" || value === null) return String(value);
    if (depth > 2) return Array.isArray(value) ? "[Array]" : "[Object]";
    try {
      if (value instanceof Node) return `<${value.nodeName.toLowerCase()}>`;
      if (Array.isArray(value)) return `[${value.map((item) => describe(item, depth + 1)).join(", ")}]`;
      const entries = Object.keys(value)
        .slice(0, 50)
        .map((key) => `${key}: ${describe((value as Record<string, unknown>)[key], depth + 1)}`);
      return `{ ${entries.join(", ")} }`;
    } catch {
      return "[object]";
    }
  };
  const format = (args: unknown[]) => {
    let text = args.map((arg) => describe(arg, 0)).join(" ");
    if (text.length > 10_000) text = `${text.slice(0, 10_000)}…`;
    return text;
  };

  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      send({ type: "console", level, text: format(args), source: sourceOf(new Error().stack) });
      original.apply(console, args);
    };
  }
  window.addEventListener("error", (event) => {
    const error: unknown = event.error;
    const stack = error instanceof Error && error.stack ? error.stack : undefined;
    const source =
      event.filename && pathOfUrl[event.filename]
        ? { path: pathOfUrl[event.filename]!, line: event.lineno, column: event.colno }
        : sourceOf(stack);
    send({ type: "error", kind: "uncaught", message: event.message || String(error), stack: stack ? mapStack(stack) : undefined, source });
  });
  window.addEventListener("unhandledrejection", (event) => {
    const reason: unknown = event.reason;
    const stack = reason instanceof Error && reason.stack ? reason.stack : undefined;
    const message = reason instanceof Error ? `${reason.name}: ${reason.message}` : format([reason]);
    send({ type: "error", kind: "rejection", message, stack: stack ? mapStack(stack) : undefined, source: sourceOf(stack) });
  });

  // Relative URLs lead under the prefix on the workbench's origin: fetch() there is answered from the
  // workspace by the page; anything else is the app's own request.
  const ownFetch = window.fetch.bind(window);
  const waiting: Record<number, { resolve: (response: Response) => void; reject: (error: Error) => void }> = {};
  let nextFetch = 1;
  const underPrefix = (url: URL) => url.origin === config.origin && url.pathname.startsWith(config.prefix);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    let url: URL;
    try {
      url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
    } catch {
      return ownFetch(input, init);
    }
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (!underPrefix(url) || (method !== "GET" && method !== "HEAD")) return ownFetch(input, init);
    const id = nextFetch++;
    return new Promise<Response>((resolve, reject) => {
      waiting[id] = { resolve, reject };
      // A tab opened with "Open in a new tab" has no workbench behind it to answer.
      setTimeout(() => {
        if (!waiting[id]) return;
        delete waiting[id];
        reject(new TypeError(`${url.pathname}: the workbench did not answer (a preview opened in its own tab serves no files)`));
      }, 10_000);
      send({ type: "fetch", id, path: decodeURIComponent(url.pathname.slice(config.prefix.length - 1)) });
    });
  };
  // A link within the app is a navigation of the preview (its address bar), not of this frame to the
  // workbench's server; a fragment link scrolls.
  document.addEventListener("click", (event) => {
    const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(anchor instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || anchor.target === "_blank") return;
    const url = new URL(anchor.href, document.baseURI);
    if (!underPrefix(url)) return;
    event.preventDefault();
    const page = config.prefix.slice(0, -1) + config.page;
    if (url.pathname === page && url.hash) {
      location.hash = url.hash;
      return;
    }
    send({ type: "navigate", path: decodeURIComponent(url.pathname.slice(config.prefix.length - 1)) + url.search });
  });
  // The page hands over the renderer (modern-screenshot's browser build) with the first request; it draws
  // the document into a canvas here, in the frame's own origin, so nothing of the app leaves but the PNG.
  type Renderer = { domToPng(node: Node, options: Record<string, unknown>): Promise<string> };
  let renderer: Promise<Renderer> | undefined;
  const screenshot = (id: number, code: string) => {
    renderer ??= new Promise<Renderer>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
      script.onload = () => {
        const loaded = (window as unknown as { modernScreenshot?: Renderer }).modernScreenshot;
        if (loaded) resolve(loaded);
        else reject(new Error("the screenshot renderer did not load"));
      };
      script.onerror = () => reject(new Error("the screenshot renderer could not be loaded"));
      document.head.appendChild(script);
    });
    const root = document.documentElement;
    // The renderer measures each element's default style in a blank same-origin frame it makes; in this
    // opaque origin such a frame is another origin. A hidden box that resets every property stands in.
    const blank = document.createElement("div");
    blank.setAttribute("style", "all: initial; position: fixed; visibility: hidden; width: 0; height: 0; overflow: hidden");
    root.appendChild(blank);
    const standIn = {
      contentWindow: {
        document: { createElement: (name: string) => document.createElement(name), body: blank },
        getComputedStyle: (element: Element, pseudo?: string | null) => window.getComputedStyle(element, pseudo),
      },
      remove: () => blank.remove(),
    };
    const painted = getComputedStyle(document.body ?? root).backgroundColor;
    const background = !painted || painted === "transparent" || painted === "rgba(0, 0, 0, 0)" ? "#ffffff" : painted;
    renderer
      .then((render) =>
        render.domToPng(root, {
          width: Math.min(Math.max(root.clientWidth, 1), 1600),
          height: Math.min(Math.max(root.clientHeight, 1), 1200),
          scale: 1,
          backgroundColor: background,
          sandbox: standIn,
          filter: (node: Node) => node !== blank,
        }),
      )
      .finally(() => blank.remove())
      .then(
        (dataUrl) => send({ type: "screenshot", id, dataUrl }),
        (error: unknown) => send({ type: "screenshot", id, error: String(error instanceof Error ? error.message : error).slice(0, 2_000) }),
      );
  };
  let hotQueue = Promise.resolve();
  port.onmessage = (event: MessageEvent) => {
    const message = event.data as { type: string; id: number; status?: number; body?: ArrayBuffer; contentType?: string; error?: string };
    if (message.type === "snapshot") {
      send({ type: "snapshot", id: message.id, title: document.title, text: document.body ? document.body.innerText : "" });
    } else if (message.type === "screenshot") {
      screenshot(message.id, (message as { code?: string }).code ?? "");
    } else if (message.type === "hot") {
      // One at a time: an update that overtook one still importing would be undone by its entries.
      hotQueue = hotQueue.then(() => hotUpdate(message as unknown as HotMessage));
    } else if (message.type === "fetch-reply") {
      const pending = waiting[message.id];
      delete waiting[message.id];
      if (!pending) return;
      if (message.error) pending.reject(new TypeError(message.error));
      else
        pending.resolve(
          new Response(message.body ?? null, { status: message.status ?? 200, headers: { "content-type": message.contentType ?? "" } }),
        );
    }
  };

  const win = window as unknown as Record<string, unknown>;
  win.process ??= {
    env: { NODE_ENV: "development" },
    browser: true,
    platform: "browser",
    version: "",
    versions: {},
    cwd: () => "/",
    nextTick: (fn: (...a: unknown[]) => void, ...a: unknown[]) => queueMicrotask(() => fn(...a)),
  };
  // React roots the app makes: a hot update unmounts them (their effects clean up) before the entries run
  // again and make new ones. The page offers hot updates only once a root exists (see hot-update.ts).
  type HotMessage = { id: number } & HotUpdate;
  type Root = { unmount(): void };
  const roots: Root[] = [];
  const watchRoots = (client: Record<string, unknown>) => {
    for (const name of ["createRoot", "hydrateRoot"]) {
      const make = client[name];
      if (typeof make !== "function") continue;
      client[name] = function (this: unknown, ...args: unknown[]) {
        const root = make.apply(this, args) as Root;
        const unmount = root.unmount;
        root.unmount = function (this: unknown) {
          roots.splice(roots.indexOf(root) >>> 0, 1);
          unmount.call(this);
        };
        roots.push(root);
        send({ type: "hot-ready" });
        return root;
      };
    }
  };
  const definitions: Record<string, { requires: Record<string, string | null>; run: Function }> = {};
  const cache: Record<string, { exports: unknown }> = {};
  win.__wbDefine = (path: string, requires: Record<string, string | null>, run: Function) => {
    definitions[path] = { requires, run };
  };
  const require = (path: string): unknown => {
    const cached = cache[path];
    if (cached) return cached.exports;
    const definition = definitions[path];
    if (!definition) throw new Error(`${shown(path)} is not loaded in the preview`);
    const module = { exports: {} as unknown, id: path };
    cache[path] = module;
    const local = (specifier: string) => {
      const target = definition.requires[specifier];
      if (!target)
        throw new Error(
          `Cannot find module '${specifier}' required by ${shown(path)}: the preview loads only workspace files and packages in node_modules`,
        );
      return require(target);
    };
    definition.run.call(module.exports, module, module.exports, local, win.process, window);
    if (/\/node_modules\/react-dom\/client\.js$/.test(path)) watchRoots(module.exports as Record<string, unknown>);
    return module.exports;
  };
  win.__wbRequire = require;

  // Binary assets first, then style sheets (whose url()s name them), then code.
  const rank = { asset: 0, "text-asset": 1, cjs: 2, script: 2, esm: 3 } as const;
  const blobs = [...payload.blobs].sort((a, b) => rank[a.kind] - rank[b.kind]);
  const urlOf: Record<number, string> = {};
  const placeholder = new RegExp(`__wbref_${payload.nonce}_(\\d+)__`, "g");
  const fill = (text: string) => text.replace(placeholder, (_, ref: string) => urlOf[Number(ref)] ?? "");
  const imports: Record<string, string> = {};
  const classic: string[] = [];
  for (const blob of blobs) {
    let made: Blob;
    if (blob.kind === "asset") {
      const binary = atob(blob.base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      made = new Blob([bytes], { type: blob.type });
    } else if (blob.kind === "text-asset") made = new Blob([fill(blob.text)], { type: blob.type });
    else if (blob.kind === "cjs") {
      // One line of header, so the file's lines keep their numbers.
      const head = `__wbDefine(${JSON.stringify(blob.path)}, ${JSON.stringify(blob.requires)}, function (module, exports, require, process, global) {`;
      made = new Blob([`${head}${fill(blob.code)}\n});`], { type: "text/javascript" });
    } else made = new Blob([fill(blob.code)], { type: "text/javascript" });
    const url = URL.createObjectURL(made);
    urlOf[blob.ref] = url;
    pathOfUrl[url] = shown(blob.path.replace(/\?inline-\d+$/, ""));
    if (blob.kind === "esm") imports[blob.key] = url;
    if (blob.kind === "cjs") classic.push(`<script src="${url}"></script>`);
  }
  // A module's URL now: the import map's, or the one a hot update made (which the map cannot learn).
  const moduleUrl: Record<string, string> = { ...imports };
  const failed = (error: unknown) => {
    const stack = error instanceof Error && error.stack ? error.stack : undefined;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : format([error]);
    send({ type: "error", kind: "uncaught", message, stack: stack ? mapStack(stack) : undefined, source: sourceOf(stack) });
  };
  const hotUpdate = async (message: HotMessage) => {
    const ref = new RegExp(`__wbref_${message.nonce}_(\\d+)__`, "g");
    const made: Record<string, string> = {};
    for (const module of message.modules) {
      let code = "";
      let from = 0;
      for (const site of module.imports) {
        code += module.code.slice(from, site.start) + (made[site.key] ?? moduleUrl[site.key] ?? site.key);
        from = site.end;
      }
      code += module.code.slice(from);
      code = code.replace(ref, (_, n: string) => urlOf[message.refs[Number(n)] ?? -1] ?? "");
      const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
      made[module.key] = url;
      pathOfUrl[url] = shown(module.path.replace(/\?inline-\d+$/, ""));
    }
    Object.assign(moduleUrl, made);
    try {
      // Evaluated before the app is taken down, so an error here leaves the page as it was.
      for (const module of message.modules) if (!message.entries.includes(module.key)) await import(made[module.key]!);
      for (const root of [...roots]) root.unmount();
      for (const entry of message.entries) await import(made[entry] ?? moduleUrl[entry] ?? entry);
      send({ type: "hot-done", id: message.id, roots: roots.length });
    } catch (error) {
      failed(error);
      send({ type: "hot-done", id: message.id, roots: roots.length, failed: true });
    }
  };
  const map = JSON.stringify({ imports }).replace(/</g, "\\u003c");
  const base = `<base href="${config.origin}${config.prefix.slice(0, -1)}${config.page}">`;
  const html = fill(payload.html).replace(/^\s*<!doctype[^>]*>/i, "");
  performance.mark("wb-frame-blobs");
  document.write(`${base}<script type="importmap">${map}</script>${classic.join("")}${html}`);
}

/** Inside a <script>: JSON with every `<` escaped, so no `</script>` in a file can end the script early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * esbuild's keepNames (tsx, vitest) wraps a function's inner functions in `__name(fn, "name")`, a helper
 * defined outside the function; the frame gets a stand-in that names nothing.
 */
const NAME_HELPER = "var __name = function (target) { return target; };";

/**
 * The build travels as JSON data, not as a JavaScript literal: JSON.parse reads a megabyte of module text
 * several times faster than the script parser would; the element goes once it is read.
 */
const READ_PAYLOAD =
  '(function () { var data = document.getElementById("wb-payload"); data.remove(); return JSON.parse(data.textContent); })()';

export function frameDocument(payload: FramePayload, config: FrameConfig): string {
  return `<!doctype html><html><head><meta charset="utf-8"><script type="application/json" id="wb-payload">${scriptJson(payload)}</script><script>${NAME_HELPER}(${frameMain.toString()})(${READ_PAYLOAD}, ${scriptJson(config)});</script>`;
}
