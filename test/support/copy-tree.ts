import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { RuntimeFs } from "../../src/runtime/types.js";

/** Copies a folder from disk into a runtime's files at `to`, links as links (not followed). */
export async function copyTreeInto(fs: RuntimeFs, from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const entry of await readdir(from)) {
    const source = join(from, entry);
    const target = `${to}/${entry}`;
    const stat = await lstat(source);
    if (stat.isSymbolicLink()) await fs.symlink(await readlink(source), target);
    else if (stat.isDirectory()) await copyTreeInto(fs, source, target);
    else await fs.writeFile(target, await readFile(source));
  }
}
