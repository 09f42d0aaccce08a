/**
 * What the preview reports, in the workspace layer's own words. The tools layer declares the same shapes
 * (src/tools/ports/preview-access.ts) for ctx.preview; the workspace may not import tools, so the session,
 * which hands one to the other, is where TypeScript checks that they fit.
 */
interface SourcePosition {
  /** Relative to the workspace folder. */
  path: string;
  line: number;
  column: number;
}

export interface ConsoleLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  text: string;
  source?: SourcePosition;
}

export interface PageError {
  kind: "uncaught" | "rejection" | "build";
  message: string;
  stack?: string;
  source?: SourcePosition;
}

export interface PageSnapshot {
  path: string;
  title: string;
  text: string;
  console: ConsoleLine[];
  errors: PageError[];
  warnings: string[];
  /** A PNG data: URL of the page as drawn, or why there is none. */
  screenshot?: { dataUrl: string } | { missing: string };
}
