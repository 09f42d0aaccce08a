/**
 * The `.workbench.json` file: a share too big for an address, as readable JSON (text files as text,
 * binary ones as base64). The page opens it by drop, by file picker or from `#from=<url>`; the CLI
 * writes and reads it too. It is checked exactly as a link is.
 */
import { z } from "zod";
import { SessionFile } from "../../session/record/session-json.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { nestsDeeperThan } from "./json-depth.js";
import { MAX_JSON_DEPTH, MAX_SHARE_FILE_BYTES, MAX_SHARE_FILES } from "./limits.js";
import { printable } from "./paths.js";
import { describeIssue } from "./pack.js";
import { SHARE_FORMAT, ShareError, ViewOptions, type ShareResult, type ShareState } from "./state.js";
import { checkedState } from "./validate.js";
import { errorMessage } from "../../base/error-message.js";

export const SHARE_FILE_SUFFIX = ".workbench.json";

const ShareFile = z.strictObject({
  format: z.literal(SHARE_FORMAT),
  version: z.literal(1),
  name: z.string().optional(),
  files: z
    .array(z.union([z.strictObject({ path: z.string(), text: z.string() }), z.strictObject({ path: z.string(), base64url: z.string() })]))
    .max(MAX_SHARE_FILES, `more than ${MAX_SHARE_FILES} files`),
  config: z.string().optional(),
  session: SessionFile.optional(),
  view: ViewOptions.optional(),
});
type ShareFile = z.infer<typeof ShareFile>;

export function toShareFile(state: ShareState): string {
  const safe = checkedState(state);
  const file: ShareFile = {
    format: SHARE_FORMAT,
    version: 1,
    ...(safe.name !== undefined ? { name: safe.name } : {}),
    files: Object.entries(safe.files).map(([path, content]) =>
      typeof content === "string" ? { path, text: content } : { path, base64url: toBase64Url(content) },
    ),
    ...(safe.config !== undefined ? { config: safe.config } : {}),
    ...(safe.session !== undefined ? { session: safe.session } : {}),
    ...(safe.view !== undefined ? { view: safe.view } : {}),
  };
  return JSON.stringify(file);
}

/** The state a `.workbench.json` holds (given as text or bytes), or why it cannot be opened. */
export function fromShareFile(content: string | Uint8Array, source = "this file"): ShareResult {
  try {
    const size = typeof content === "string" ? content.length : content.length;
    if (size > MAX_SHARE_FILE_BYTES)
      throw new ShareError(`it is larger than ${MAX_SHARE_FILE_BYTES / 1024 / 1024} MB, the most a share file may be.`);
    let text: string;
    try {
      text = typeof content === "string" ? content : new TextDecoder("utf-8", { fatal: true }).decode(content);
    } catch {
      throw new ShareError("it is not UTF-8 text: choose a .workbench.json file made by Share or `workbench share`.");
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ShareError(`it is not valid JSON (${printable(errorMessage(error))}): it may be cut short. Download it again.`);
    }
    if (nestsDeeperThan(json, MAX_JSON_DEPTH))
      throw new ShareError(`its data nests deeper than ${MAX_JSON_DEPTH} levels, more than a share may: it may be hostile.`);
    const parsed = ShareFile.safeParse(json);
    if (!parsed.success) throw new ShareError(`it is not a workbench share file: ${describeIssue(parsed.error)}.`);
    const entries: [string, string | Uint8Array][] = [];
    const seen = new Set<string>();
    for (const entry of parsed.data.files) {
      if (seen.has(entry.path)) throw new ShareError(`"${printable(entry.path)}" is listed twice.`);
      seen.add(entry.path);
      if ("text" in entry) entries.push([entry.path, entry.text]);
      else {
        const bytes = fromBase64Url(entry.base64url);
        if (!bytes.ok) throw new ShareError(`"${printable(entry.path)}": ${bytes.error}`);
        entries.push([entry.path, bytes.bytes]);
      }
    }
    const { name, config, session, view } = parsed.data;
    const state = checkedState({
      ...(name !== undefined ? { name } : {}),
      files: Object.fromEntries(entries),
      ...(config !== undefined ? { config } : {}),
      ...(session !== undefined ? { session } : {}),
      ...(view !== undefined ? { view } : {}),
    });
    return { ok: true, state };
  } catch (error) {
    if (error instanceof ShareError) return { ok: false, error: `${source} cannot be opened as a share: ${error.message}` };
    throw error;
  }
}
