/**
 * What a share carries: the workspace's files (text, or bytes), its opencode.json, the session as
 * session-json.ts exports it, and how the page should show them. Never keys, trust decisions or saved
 * approvals (see secrets.ts): a link is meant to be pasted in public.
 */
import { z } from "zod";
import { SessionFile } from "../../session/record/session-json.js";

export const SHARE_FORMAT = "workbench-share";

const Pane = z.enum(["chat", "tools", "editor", "terminal", "preview"]);
type Pane = z.infer<typeof Pane>;

export const ViewOptions = z.strictObject({
  /** The panes to show, first one in front. */
  panes: z.array(Pane).max(4).optional(),
  /** Files to open in the editor (paths of the share's files). */
  open: z.array(z.string()).max(20).optional(),
  theme: z.enum(["light", "dark"]).optional(),
  /** The page the Preview opens on, when "preview" is the first pane (the workspace's index.html by default). */
  preview: z.string().max(1000).optional(),
  /** The replay speed offered first (scripted provider: 1 natural, 0 instant). */
  replaySpeed: z.number().min(0).max(100).optional(),
});
export type ViewOptions = z.infer<typeof ViewOptions>;

/** A file's content: text (UTF-8 when written) or bytes as they are. */
const ShareContent = z.union([z.string(), z.instanceof(Uint8Array)]);

function isFiles(value: unknown): value is Record<string, string | Uint8Array> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((content) => typeof content === "string" || content instanceof Uint8Array);
}

export const ShareState = z.strictObject({
  /** What the share is called; names the workspace it opens in. */
  name: z.string().max(80).optional(),
  // Not z.record: it drops a key named __proto__, and a file of that name would be lost without a word.
  files: z.custom<Record<string, string | Uint8Array>>(isFiles, "files must map each path to its text or its bytes (a Uint8Array)"),
  /** opencode.json's text (JSONC), written as `opencode.json` unless the files already hold one. */
  config: z.string().optional(),
  session: SessionFile.optional(),
  view: ViewOptions.optional(),
});
export type ShareState = z.infer<typeof ShareState>;

/** A share refused: `message` says what is wrong and what to do. */
export type ShareResult = { ok: true; state: ShareState } | { ok: false; error: string };

export class ShareError extends Error {
  override readonly name = "ShareError";
}
