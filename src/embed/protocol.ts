/**
 * The wire between a host page (embed.js) and the workbench frame. Plain constants and types only:
 * embed.js bundles this file, so nothing here may pull in zod, solid or the AI SDK.
 *
 * 1. The host posts `{ [TAG]: "init", id }` to the frame's window every HANDSHAKE_INTERVAL_MS until it
 *    answers (the frame may still be loading), at most HANDSHAKE_ATTEMPTS times.
 * 2. The frame checks the message's origin against its allow-list. Allowed: it answers
 *    `{ [TAG]: "ready", id }` with a MessagePort transferred; refused: `{ [TAG]: "refused", id, error }`.
 *    The first allowed origin is the only one the frame ever talks to.
 * 3. Requests then go over the port as `{ id, method, params }` and come back as
 *    `{ id, ok: true, value }` or `{ id, ok: false, error }`; events as `{ event, data }`.
 */
export const TAG = "workbench-embed";
export const PROTOCOL_VERSION = 1;
export const HANDSHAKE_INTERVAL_MS = 250;
export const HANDSHAKE_ATTEMPTS = 120;

export type ViewName = "chat" | "tools" | "editor" | "terminal" | "preview";
export type ThemeName = "light" | "dark";

/** Files as the host gives them: text, or bytes for binary files. Paths are relative to the workspace. */
export type FileMap = Record<string, string | Uint8Array>;

export interface FsDiff {
  create?: FileMap;
  destroy?: string[];
}

/** What the frame needs at start, sent in the first request after the handshake (too big for a URL). */
export interface StartPayload {
  files?: FileMap;
  /** A recorded session (`workbench-session` JSON) to show, or a script (`{version, steps}`) to replay. */
  session?: unknown;
  /** opencode.json contents, as an object or as the file's text. */
  config?: unknown;
  open?: string[];
  autoplay?: boolean;
}

export type MethodName =
  | "start"
  | "applyFsDiff"
  | "getFsSnapshot"
  | "runTool"
  | "run"
  | "openFile"
  | "setTheme"
  | "setView"
  | "shareUrl"
  | "measure"
  | "revert"
  | "reset";

export interface Request {
  id: number;
  method: MethodName;
  params?: unknown;
}

export type Response = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: string };

export type EventName = "call" | "files" | "resize";

export interface EventMessage {
  event: EventName;
  data: unknown;
}

export interface HandshakeMessage {
  [TAG]: "init" | "ready" | "refused";
  id: string;
  version?: number;
  error?: string;
}

/** Options shown in the frame's address (small, and known before any script runs). */
export interface FrameParams {
  view?: ViewName;
  theme?: ThemeName;
  readOnly?: boolean;
  clickToLoad?: boolean;
  /** Host origins the frame accepts a handshake from; any origin when empty. */
  origins?: string[];
  /** The frame measures its content and reports its height (the host's `height: "auto"`). */
  autoHeight?: boolean;
}

/** The frame's address for `params`, under the workbench at `base`. */
export function frameUrl(base: string, params: FrameParams): string {
  const url = new URL(base);
  url.searchParams.set("embed", "1");
  if (params.view) url.searchParams.set("view", params.view);
  if (params.theme) url.searchParams.set("theme", params.theme);
  if (params.readOnly) url.searchParams.set("readOnly", "1");
  if (params.clickToLoad) url.searchParams.set("ctl", "1");
  if (params.autoHeight) url.searchParams.set("autoHeight", "1");
  if (params.origins && params.origins.length > 0) url.searchParams.set("origins", params.origins.join(" "));
  return url.toString();
}

export function isHandshake(data: unknown): data is HandshakeMessage {
  return (
    typeof data === "object" &&
    data !== null &&
    typeof (data as Record<string, unknown>)[TAG] === "string" &&
    typeof (data as Record<string, unknown>).id === "string"
  );
}
