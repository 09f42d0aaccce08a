/**
 * What the preview tool may ask of the page's preview, and no more: load a page of the workspace's web
 * app, let it run, and read back what it shows and printed. The page implements it (the Preview pane's
 * frame); the CLI has no page, so its sessions have no `ctx.preview` and no preview tool.
 */

/** Where in the workspace's source a line was printed or an error thrown (line as in the source file). */
export interface PreviewSource {
  /** Relative to the workspace folder. */
  path: string;
  line: number;
  column: number;
}

export interface PreviewConsoleLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  text: string;
  source?: PreviewSource;
}

export interface PreviewError {
  /** uncaught: thrown and not caught; rejection: a promise rejected with no handler; build: the page could not be built. */
  kind: "uncaught" | "rejection" | "build";
  message: string;
  stack?: string;
  source?: PreviewSource;
}

export interface PreviewSnapshot {
  /** The page loaded, relative to the workspace folder ("/index.html"). */
  path: string;
  title: string;
  /** The page's visible text (document.body.innerText). */
  text: string;
  console: PreviewConsoleLine[];
  errors: PreviewError[];
  /** Imports left unresolved that may fail when they run (a dynamic import, a require behind a check). */
  warnings: string[];
  /** The page as drawn, a PNG data: URL, where the browser could draw it; else why not. */
  screenshot?: { dataUrl: string } | { missing: string };
}

export interface PreviewAccess {
  /** Loads `path` (the workspace's index.html when absent), waits `waitMs` after it starts, and reads it. */
  inspect(path: string | undefined, waitMs: number, signal: AbortSignal): Promise<PreviewSnapshot>;
}
