/** A folder on disk as sorted lines (path, type, mode, bytes in hex or a link's target): the oracle for byte-for-byte tests. */
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

export async function folderTree(root: string, options: { skip?: (path: string) => boolean } = {}): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (dir: string, rel: string) => {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const label = rel ? `${rel}/${name}` : name;
      if (options.skip?.(label)) continue;
      const stats = await lstat(path);
      const mode = (stats.mode & 0o7777).toString(8);
      if (stats.isDirectory()) {
        lines.push(`${label} dir ${mode}`);
        await walk(path, label);
      } else if (stats.isSymbolicLink()) lines.push(`${label} link ${await readlink(path)}`);
      else lines.push(`${label} file ${mode} ${(await readFile(path)).toString("hex")}`);
    }
  };
  await walk(root, "");
  return lines.sort();
}
