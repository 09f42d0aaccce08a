/**
 * A folder as `{ path: text }` (folders as `path/` → ""), read from disk or from a runtime the same way,
 * so a differential test compares the files a program left behind on both sides.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RuntimeFs } from "../../src/runtime/types.js";

export function writeTree(base: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
}

export function readTree(base: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(base, prefix)).sort()) {
    const path = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(base, path)).isDirectory()) Object.assign(out, readTree(base, path), { [`${path}/`]: "" });
    else out[path] = readFileSync(join(base, path), "utf8");
  }
  return out;
}

export async function readRuntimeTree(
  fs: Pick<RuntimeFs, "readdir" | "readFile">,
  dir: string,
  prefix = "",
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = (await fs.readdir(prefix ? `${dir}/${prefix}` : dir)).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.type === "directory") Object.assign(out, await readRuntimeTree(fs, dir, path), { [`${path}/`]: "" });
    else out[path] = new TextDecoder().decode(await fs.readFile(`${dir}/${path}`));
  }
  return out;
}
