/**
 * The file an embed's editor opens on when none was named: the first file of the root (names in natural
 * order: mod2 before mod10), else the first found in its folders in the same order. Hidden folders and
 * node_modules are passed over: a reader opening "Editor" wants the author's files.
 */
import { join } from "pathe";
import type { Runtime } from "../../runtime/types.js";

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
const SKIPPED = (name: string) => name.startsWith(".") || name === "node_modules";

export async function firstFile(runtime: Runtime, dir = runtime.root): Promise<string | undefined> {
  const entries = (await runtime.fs.readdir(dir).catch(() => [])).slice().sort((a, b) => byName.compare(a.name, b.name));
  const file = entries.find((entry) => entry.type === "file" && !entry.name.startsWith("."));
  if (file) return join(dir, file.name);
  for (const entry of entries) {
    if (entry.type !== "directory" || SKIPPED(entry.name)) continue;
    const found = await firstFile(runtime, join(dir, entry.name));
    if (found) return found;
  }
  return undefined;
}
