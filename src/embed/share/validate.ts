import { z } from "zod";
import { importSession, SessionImportError } from "../../session/record/session-json.js";
import { MAX_SHARE_FILES } from "./limits.js";
import { describeIssue } from "./pack.js";
import { printable, printableText, sharePathsProblem } from "./paths.js";
import { CONFIG_FILES, duplicateKeyIn, isConfigFile, withoutSecrets } from "./secrets.js";
import { ShareError, ShareState } from "./state.js";

/**
 * A share made safe to write, or a ShareError saying why it cannot be: the schema, every path, the
 * number of files, the open list naming real files, and config text with keys and approvals taken out
 * (a hand-made link may carry them even though ours never do).
 */
export function checkedState(input: unknown): ShareState {
  const parsed = ShareState.safeParse(input);
  if (!parsed.success) throw new ShareError(`it is not a workbench share: ${describeIssue(parsed.error as z.ZodError)}.`);
  const state = parsed.data;
  const paths = Object.keys(state.files);
  if (paths.length > MAX_SHARE_FILES)
    throw new ShareError(`it holds ${paths.length} files, more than the ${MAX_SHARE_FILES} a share may hold. Share a smaller folder.`);
  const problem = sharePathsProblem(paths);
  if (problem) throw new ShareError(`it names a file the workbench will not write: ${problem}. Nothing was written.`);
  if (state.config !== undefined && CONFIG_FILES.some((name) => Object.hasOwn(state.files, name))) {
    throw new ShareError("it carries opencode.json twice (as config and among the files): keep one.");
  }
  for (const [path, text] of [
    ...Object.entries(state.files).filter(([path]) => isConfigFile(path)),
    ...(state.config !== undefined ? [["opencode.json", state.config] as const] : []),
  ]) {
    // As bytes (a NUL in a comment makes it so) the scrub could not read it, but the config loader would.
    if (typeof text !== "string") throw new ShareError(`its ${printable(path)} is not text; a config must be UTF-8 text with no NUL.`);
    const twice = duplicateKeyIn(text);
    if (twice !== undefined)
      throw new ShareError(
        `its ${printable(path)} gives ${printable(twice)} twice; a config with a key given twice is refused (which one counts differs between readers). Keep one.`,
      );
  }
  if (state.session !== undefined) {
    // The import's own checks (ids, references, each part's tool its call's), so a bad session is refused with the link, not when opened.
    try {
      importSession(JSON.stringify(state.session));
    } catch (error) {
      if (error instanceof SessionImportError) throw new ShareError(`its session cannot be opened: ${printableText(error.message)}`);
      throw error;
    }
  }
  for (const path of state.view?.open ?? []) {
    if (!Object.hasOwn(state.files, path)) throw new ShareError(`its view opens "${printable(path)}", which is not one of its files.`);
  }
  const files = Object.fromEntries(
    Object.entries(state.files).map(([path, content]) => [
      path,
      isConfigFile(path) && typeof content === "string" ? withoutSecrets(content) : content,
    ]),
  );
  return { ...state, files, ...(state.config !== undefined ? { config: withoutSecrets(state.config) } : {}) };
}

/** The files to write: the share's own, and its config as opencode.json. */
export function filesOf(state: ShareState): Array<{ path: string; data: Uint8Array }> {
  const encoder = new TextEncoder();
  const files = Object.entries(state.files).map(([path, content]) => ({
    path,
    data: typeof content === "string" ? encoder.encode(content) : content,
  }));
  if (state.config !== undefined) files.push({ path: "opencode.json", data: encoder.encode(state.config) });
  return files;
}
