import { strToU8, unzipSync, zipSync } from "fflate";
import { dirname, join, normalize } from "pathe";
import { isSpecialType, type Runtime } from "../runtime/types.js";

export interface IncomingFile {
  /** Relative to the folder it goes into, with `/` separators (a folder upload keeps its tree). */
  path: string;
  data: Uint8Array;
}

/**
 * Where a relative path lands inside `folder`, or an error when it would land outside: an archive
 * entry or a file name must never climb out of the workspace ("zip slip").
 */
export function landingPath(folder: string, relative: string): string {
  const cleaned = relative.replace(/\\/g, "/");
  if (cleaned.startsWith("/") || /^[a-zA-Z]:/.test(cleaned)) {
    throw new Error(`refused "${relative}": an absolute path cannot be imported; entries must be relative`);
  }
  const target = normalize(join(folder, cleaned));
  if (target !== folder && !target.startsWith(folder.endsWith("/") ? folder : `${folder}/`)) {
    throw new Error(`refused "${relative}": it would be written outside ${folder}`);
  }
  if (target === folder) throw new Error(`refused "${relative}": it names the folder itself, not a file in it`);
  return target;
}

/** Writes files into `folder`, making parents as needed. Every path is checked before anything is written. */
export async function importFiles(runtime: Runtime, folder: string, files: IncomingFile[]): Promise<string[]> {
  const targets = files.map((file) => ({ target: landingPath(folder, file.path), data: file.data }));
  for (const { target, data } of targets) {
    await runtime.fs.mkdir(dirname(target), { recursive: true });
    await runtime.fs.writeFile(target, data);
  }
  return targets.map((t) => t.target);
}

/** The files of a .zip archive (folders are implied by the paths). */
export function filesFromZip(archive: Uint8Array): IncomingFile[] {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive);
  } catch (error) {
    throw new Error(`not a readable .zip archive: ${error instanceof Error ? error.message : String(error)}`);
  }
  return Object.entries(entries)
    .filter(([path]) => !path.endsWith("/"))
    .map(([path, data]) => ({ path, data }));
}

/**
 * A .zip of everything below `folder`. Symbolic links are stored as small text files naming their
 * target; special files (FIFOs, sockets, devices: node runtime only) are left out.
 */
export async function zipFolder(runtime: Runtime, folder: string): Promise<Uint8Array> {
  const entries: Record<string, Uint8Array> = {};
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await runtime.fs.readdir(dir)) {
      const path = join(dir, entry.name);
      const name = prefix + entry.name;
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
