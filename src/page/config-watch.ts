/**
 * Notices the workspace config (opencode.json or opencode.jsonc at the root) changing by any hand: the
 * editor, the terminal, a tool, Settings. The page compares what the file holds with what the session in
 * force was opened with, and reopens the session when they differ, so an edit applies at the next call
 * whoever made it (before, only Settings' own saves did; the others waited for a reload).
 */
import type { Runtime } from "../runtime/types.js";
import { CONFIG_FILE_NAMES } from "../session/config/workspace-config.js";

/** What the config files hold now, one string (a file missing counts as empty); compared, never parsed here. */
export async function readConfigText(runtime: Runtime): Promise<string> {
  const decoder = new TextDecoder();
  const texts = await Promise.all(
    CONFIG_FILE_NAMES.map((name) =>
      runtime.fs.readFile(`${runtime.root}/${name}`).then(
        (bytes) => decoder.decode(bytes),
        () => "",
      ),
    ),
  );
  return texts.map((text, index) => `${CONFIG_FILE_NAMES[index]}\n${text.length}\n${text}`).join("\n");
}

/** Whether a change of `paths` may have touched the config ("unknown": a command ran, anything may have). */
export function mayTouchConfig(root: string, paths: readonly string[] | "unknown"): boolean {
  if (paths === "unknown") return true;
  const watched = new Set(CONFIG_FILE_NAMES.map((name) => `${root}/${name}`));
  return paths.some((path) => watched.has(path) || watched.has(`${root}/${path}`));
}

/**
 * Calls `onTouched` (at most once per `delayMs`, after the changes settle) whenever the files that changed
 * may include the config; returns the unsubscribe.
 */
export function watchConfig(runtime: Runtime, onTouched: () => void, delayMs = 150): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = runtime.onChange((paths) => {
    if (!mayTouchConfig(runtime.root, paths)) return;
    clearTimeout(timer);
    timer = setTimeout(onTouched, delayMs);
  });
  return () => {
    clearTimeout(timer);
    off();
  };
}
