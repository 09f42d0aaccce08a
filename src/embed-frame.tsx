/**
 * The page as an embed's frame (`/?embed=1`): the protocol server starts first, so the host's
 * handshake is answered while the workbench loads; the workspace is a fresh one in memory, named for
 * this frame alone; the embed layout (src/ui/embed) shows it, and the backend (src/embed) drives it.
 */
import { relative } from "pathe";
import { render } from "solid-js/web";
import { FrameBackend } from "./embed/frame-backend.js";
import { readFrameParams } from "./embed/frame-params.js";
import { startFrameServer, type EmbedBackend } from "./embed/frame-server.js";
import { EmbedApp, type EmbedAppSurface } from "./ui/embed/EmbedApp.js";
import { browserPlatform } from "./workspace/browser-platform.js";
import { Workspace } from "./workspace/workspace.js";

/** The theme the author named, else the reader's own. */
function themeOf(named: "light" | "dark" | undefined): "light" | "dark" {
  return named ?? (window.matchMedia?.("(prefers-color-scheme: light)").matches ? "light" : "dark");
}

function clickToLoad(root: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button embed-load";
    button.dataset.testid = "embed-load";
    button.textContent = "▶ Load the workbench";
    button.addEventListener("click", () => resolve(), { once: true });
    root.replaceChildren(button);
  });
}

export async function startEmbedFrame(root: HTMLElement): Promise<void> {
  const params = readFrameParams(window.location.search);
  let ready!: (backend: EmbedBackend) => void;
  const server = startFrameServer(window, params.origins, new Promise<EmbedBackend>((resolve) => (ready = resolve)));
  const theme = themeOf(params.theme);
  // The button is the first thing the reader sees: in the author's theme already.
  document.documentElement.dataset.theme = theme;
  if (params.clickToLoad) await clickToLoad(root);
  const name = `embed-${crypto.randomUUID()}`;
  // No lock: the name is this frame's alone, and a sandboxed frame may be denied Web Locks.
  const platform = { ...browserPlatform, acquireLock: async () => ({ held: true as const, release: () => {} }) };
  const workspace = await Workspace.open(
    { name, requested: "embedded", bootTimeoutMs: 20_000, memoryOnly: true, unlimited: false },
    platform,
  );
  let surface: EmbedAppSurface | undefined;
  let backend: FrameBackend | undefined;
  root.textContent = "";
  render(
    () => (
      <EmbedApp
        workspace={workspace}
        settings={{ view: params.view ?? "chat", theme, readOnly: params.readOnly, autoHeight: params.autoHeight }}
        workbenchHref={() => backend!.handle("shareUrl", undefined) as Promise<string>}
        bind={(bound) => (surface = bound)}
      />
    ),
    root,
  );
  const bound = surface!;
  const rootDir = workspace.runtime.root;
  bound.onCall((call) => server.emit("call", JSON.parse(JSON.stringify(call))));
  const resized = (height: number) => server.emit("resize", { height });
  bound.onResize(resized);
  workspace.runtime.onChange((paths) => server.emit("files", paths === "unknown" ? paths : paths.map((path) => relative(rootDir, path))));
  // The first measure may come before the host connected: it hears the height once it has started.
  backend = new FrameBackend(bound, {
    workbench: `${window.location.origin}${window.location.pathname}`,
    onStarted: () => params.autoHeight && resized(bound.measure()),
    host: () => server.host(),
    openFirstFile: params.view === undefined,
  });
  ready(backend);
}
