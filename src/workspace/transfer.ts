import { join } from "pathe";
import { isSpecialType, type Runtime } from "../runtime/types.js";
import { loadFiles, type IncomingFile } from "./bulk-load.js";
import { errorMessage } from "../base/error-message.js";
import { isVcsName } from "./name-rules.js";

export { landingPath, type IncomingFile } from "./bulk-load.js";

/** Writes files into `folder`, making parents as needed. Every path is checked before anything is written. */
export async function importFiles(runtime: Runtime, folder: string, files: IncomingFile[]): Promise<string[]> {
  return loadFiles(runtime, folder, files);
}

/** fflate loads with the first .zip in or out, not with the page. */
const zipLibrary = () => import("fflate");

/** The files of a .zip archive (folders are implied by the paths). */
export async function filesFromZip(archive: Uint8Array): Promise<IncomingFile[]> {
  const { unzipSync } = await zipLibrary();
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive);
  } catch (error) {
    throw new Error(`not a readable .zip archive: ${errorMessage(error)}`);
  }
  return Object.entries(entries)
    .filter(([path]) => !path.endsWith("/"))
    .map(([path, data]) => ({ path, data }));
}

/**
 * A .zip of everything below `folder`. Symbolic links are stored as small text files naming their
 * target; special files (FIFOs, sockets, devices: node runtime only) are left out, and so are
 * version-control folders (`.git`, `.hg`, ... in any case): a repository's config runs commands on the
 * next `git status` where the zip is unpacked, and a shared session's replay could have written one.
 */
export async function zipFolder(runtime: Runtime, folder: string): Promise<Uint8Array> {
  const { strToU8, zipSync } = await zipLibrary();
  const entries: Record<string, Uint8Array> = {};
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await runtime.fs.readdir(dir)) {
      const path = join(dir, entry.name);
      const name = prefix + entry.name;
      if (isVcsName(entry.name)) continue;
      if (entry.type === "directory") {
        entries[`${name}/`] = new Uint8Array();
        await walk(path, `${name}/`);
      } else if (entry.type === "symlink") {
        entries[`${name}.symlink.txt`] = strToU8(await runtime.fs.readlink(path));
      } else if (isSpecialType(entry.type)) {
        // A FIFO, socket or device has no content to store (reading a FIFO would wait forever).
        continue;
      } else {
        entries[name] = await runtime.fs.readFile(path);
      }
    }
  }
  await walk(folder, "");
  return zipSync(entries, { level: 6 });
}
