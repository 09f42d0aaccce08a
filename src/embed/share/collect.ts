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

/** Installed packages are not the author's files; version-control folders never travel (a link refuses them). */
const skipped = (name: string) => name === "node_modules" || isVcsName(name);

export async function collectShare(
  runtime: Runtime,
  options: { name: string; session?: SessionRecord; view?: ViewOptions; onLeftOut?: (path: string) => void },
): Promise<ShareState> {
  const entries: [string, string | Uint8Array][] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    const list = await runtime.fs.readdir(dir);
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of list) {
      const path = `${dir}/${entry.name}`;
      if (entry.type === "directory" && !skipped(entry.name)) await walk(path, `${prefix}${entry.name}/`);
      else if (entry.type === "file" && (isKeyFile(entry.name) || isVcsName(entry.name))) options.onLeftOut?.(`${prefix}${entry.name}`);
      else if (entry.type === "file") {
        if (entries.length >= MAX_SHARE_FILES)
          throw new ShareError(`the workspace has more than ${MAX_SHARE_FILES} files, more than a share may hold.`);
        entries.push([`${prefix}${entry.name}`, shareContent(await runtime.fs.readFile(path))]);
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
