/**
 * The share of an open workspace: every regular file under the runtime's root (links and special files left
 * out, as the CLI leaves them out; `.env` files too, which hold keys), the session in its export form, and the view. Keys live in the page's
 * key store and trust in localStorage, neither under the root, so neither can be collected; the codec
 * takes keys and approvals out of opencode.json.
 */
import type { SessionRecord } from "../../session/record/session-record.js";
import { SessionFile, exportSession } from "../../session/record/session-json.js";
import type { Runtime } from "../../runtime/types.js";
import { shareContent } from "./content.js";
import { isKeyFile } from "./secrets.js";
import { isVcsName } from "../../workspace/name-rules.js";
import { MAX_SHARE_FILES } from "./limits.js";
import { ShareError, type ShareState, type ViewOptions } from "./state.js";
import { errorMessage } from "../../base/error-message.js";

/** Installed packages are not the author's files; version-control folders never travel (a link refuses them). */
const skipped = (name: string) => name === "node_modules" || isVcsName(name);

const GONE = Symbol("gone");

/**
 * What `read` gives, or GONE when the file or folder was removed after its folder was listed (an `rm -rf`
 * running meanwhile): the share is of what is there. Some file systems report that read as a bare I/O
 * error, so the path is looked at again before deciding; any other failure names the path.
 */
async function readOrGone<T>(runtime: Runtime, path: string, shown: string, read: () => Promise<T>): Promise<T | typeof GONE> {
  try {
    return await read();
  } catch (error) {
    const gone = await runtime.fs.lstat(path).then(
      () => false,
      // The runtime's errors carry node's codes (embed may not load src/runtime's code to test the class).
      (missing: { code?: unknown }) => missing?.code === "ENOENT" || missing?.code === "ENOTDIR",
    );
    if (gone) return GONE;
    throw new ShareError(`could not read ${shown || "the workspace"} (${errorMessage(error)}); try Share again, or remove it first.`);
  }
}

export async function collectShare(
  runtime: Runtime,
  options: { name: string; session?: SessionRecord; view?: ViewOptions; onLeftOut?: (path: string) => void },
): Promise<ShareState> {
  const entries: [string, string | Uint8Array][] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    const list = await readOrGone(runtime, dir, prefix, () => runtime.fs.readdir(dir));
    if (list === GONE) return;
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of list) {
      const path = `${dir}/${entry.name}`;
      if (entry.type === "directory" && !skipped(entry.name)) await walk(path, `${prefix}${entry.name}/`);
      else if (entry.type === "file" && (isKeyFile(entry.name) || isVcsName(entry.name))) options.onLeftOut?.(`${prefix}${entry.name}`);
      else if (entry.type === "file") {
        if (entries.length >= MAX_SHARE_FILES)
          throw new ShareError(`the workspace has more than ${MAX_SHARE_FILES} files, more than a share may hold.`);
        const bytes = await readOrGone(runtime, path, `${prefix}${entry.name}`, () => runtime.fs.readFile(path));
        if (bytes !== GONE) entries.push([`${prefix}${entry.name}`, shareContent(bytes)]);
      }
    }
  }
  await walk(runtime.root.replace(/\/$/, ""), "");
  const session =
    options.session && options.session.messages.length + options.session.calls.length > 0
      ? SessionFile.parse(JSON.parse(exportSession(options.session)))
      : undefined;
  return {
    name: options.name.slice(0, 80),
    files: Object.fromEntries(entries),
    ...(session ? { session } : {}),
    ...(options.view ? { view: options.view } : {}),
  };
}
