/**
 * `--runtime embedded` on a real folder: its files are copied into an in-memory embedded runtime, the
 * tools run there, and what changed is written back (new and changed files, removals).
 */
import { join } from "pathe";
import { describeSpecialType, isSpecialType, type Runtime, type RuntimeFs } from "../runtime/types.js";

type Copied = "file" | "directory" | "symlink";

/**
 * Every entry below `dir` that can be copied. Special files (FIFOs, sockets, devices) cannot: reading a
 * FIFO would wait forever. They go to `skipped` as "path (what it is)", and are left alone both ways.
 */
async function walk(fs: RuntimeFs, dir: string, skipped: string[] = [], rel = ""): Promise<Map<string, Copied>> {
  const found = new Map<string, Copied>();
  for (const entry of await fs.readdir(join(dir, rel))) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (isSpecialType(entry.type)) {
      skipped.push(`${path} (${describeSpecialType(entry.type)})`);
      continue;
    }
    found.set(path, entry.type);
    if (entry.type === "directory") for (const [p, t] of await walk(fs, dir, skipped, path)) found.set(p, t);
  }
  return found;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Copies the folder's files, folders and links; returns the special files it left out (see walk). */
export async function copyFolder(from: Runtime, to: Runtime): Promise<{ skipped: string[] }> {
  const skipped: string[] = [];
  for (const [rel, type] of await walk(from.fs, from.root, skipped)) {
    const target = join(to.root, rel);
    if (type === "directory") await to.fs.mkdir(target, { recursive: true });
    else if (type === "symlink") await to.fs.symlink(await from.fs.readlink(join(from.root, rel)), target);
    else await to.fs.writeFile(target, await from.fs.readFile(join(from.root, rel)));
  }
  return { skipped };
}

/** Makes `target` hold what `source` holds, touching only what differs. Returns the paths changed. */
export async function syncBack(source: Runtime, target: Runtime): Promise<string[]> {
  const changed: string[] = [];
  const wanted = await walk(source.fs, source.root);
  const present = await walk(target.fs, target.root);
  for (const [rel, type] of present) {
    if (wanted.get(rel) === type) continue;
    const gone = [...present.keys()].some((p) => rel.startsWith(`${p}/`) && !wanted.has(p));
    if (!gone) await target.fs.rm(join(target.root, rel), { recursive: true, force: true });
    changed.push(rel);
  }
  for (const [rel, type] of wanted) {
    const dest = join(target.root, rel);
    if (type === "directory") {
      if (present.get(rel) !== "directory") await target.fs.mkdir(dest, { recursive: true });
    } else if (type === "symlink") {
      if (present.get(rel) !== "symlink") {
        await target.fs.symlink(await source.fs.readlink(join(source.root, rel)), dest);
        changed.push(rel);
      }
    } else {
      const bytes = await source.fs.readFile(join(source.root, rel));
      const before = present.get(rel) === "file" ? await target.fs.readFile(dest) : undefined;
      if (!before || !same(before, bytes)) {
        await target.fs.writeFile(dest, bytes);
        if (!changed.includes(rel)) changed.push(rel);
      }
    }
  }
  return changed;
}
