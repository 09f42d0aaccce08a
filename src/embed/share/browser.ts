/**
 * The page's share actions (loaded on first use, so the first paint does not carry the codec): making a
 * link or file from the open workspace, and opening a share into a new workspace.
 */
import type { Runtime } from "../../runtime/types.js";
import type { SessionRecord } from "../../session/record/session-record.js";
import { collectShare } from "./collect.js";
import { fromShareFile, SHARE_FILE_SUFFIX, toShareFile } from "./file-form.js";
import { LINK_FILE_CHARS, LINK_WARN_CHARS, MAX_SHARE_FILE_BYTES } from "./limits.js";
import { encodeShareLink } from "./link.js";
import { openShareInNewWorkspace } from "./open-share.js";
import { ShareError } from "./state.js";

export { openShareInNewWorkspace, readShareFromAddress, shareSourceOf } from "./open-share.js";

export async function makeShare(
  runtime: Runtime,
  options: { name: string; session?: SessionRecord; theme: "light" | "dark"; base: string },
) {
  const leftOut: string[] = [];
  const state = await collectShare(runtime, {
    name: options.name,
    session: options.session,
    view: { theme: options.theme },
    onLeftOut: (path) => leftOut.push(path),
  });
  const link = await encodeShareLink(state, options.base);
  const stem = options.name.replace(/[^\w.-]+/g, "-") || "share";
  return {
    ...(link.length <= LINK_FILE_CHARS ? { link } : {}),
    length: link.length,
    warnAt: LINK_WARN_CHARS,
    file: new TextEncoder().encode(toShareFile(state)),
    fileName: `${stem}${SHARE_FILE_SUFFIX}`,
    leftOut,
  };
}

/** Opens a picked or dropped `.workbench.json`; resolves to the address of the new workspace. */
export async function openShareFile(file: File, at: { origin: string; pathname: string }): Promise<string> {
  // By its size first: a mistaken pick of a huge file must not be read whole into the tab to be refused after.
  if (file.size > MAX_SHARE_FILE_BYTES) {
    throw new ShareError(
      `${file.name} cannot be opened as a share: it is larger than ${MAX_SHARE_FILE_BYTES / 1024 / 1024} MB, the most a share file may be. Choose a .workbench.json made by Share or \`workbench share\`.`,
    );
  }
  const result = fromShareFile(new Uint8Array(await file.arrayBuffer()), file.name);
  if (!result.ok) throw new ShareError(result.error);
  return openShareInNewWorkspace(result.state, at);
}
