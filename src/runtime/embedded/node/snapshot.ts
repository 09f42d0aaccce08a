/**
 * The workspace as a program starts with it, read through the shell's file channel, and what the program
 * changed, written back the same way (so the tree, search and the next command see it).
 */
import { normalize } from "pathe";
import { isRuntimeError } from "../../errors.js";
import type { WorkspaceFs } from "../workspace-fs.js";
import type { FileChanges, SnapshotEntry } from "./protocol.js";

export async function takeSnapshot(fs: WorkspaceFs, roots: readonly string[]): Promise<SnapshotEntry[]> {
  const entries: SnapshotEntry[] = [];
  async function walk(dir: string): Promise<void> {
    let children;
    try {
      children = await fs.readdir(dir);
    } catch (error) {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return;
      throw error;
    }
    // Reads go out together: the channel answers them in turn without waiting for each.
    const found = await Promise.all(
      children.map(async (child): Promise<SnapshotEntry | undefined> => {
        const path = dir === "/" ? `/${child.name}` : `${dir}/${child.name}`;
        if (child.type === "symlink") return { path, kind: "symlink", target: await fs.readlink(path) };
        const stat = await fs.stat(path);
        if (child.type === "directory") return { path, kind: "directory", mode: stat.mode, mtimeMs: stat.mtimeMs };
        return { path, kind: "file", data: await fs.readFile(path), mode: stat.mode, mtimeMs: stat.mtimeMs };
      }),
    );
    for (const entry of found) if (entry) entries.push(entry);
    await Promise.all(found.filter((entry) => entry?.kind === "directory").map((entry) => walk(entry!.path)));
  }
  for (const root of roots) await walk(root);
  // Parents before children, whatever order the walk finished in.
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A path strictly inside one of the roots, once normalised (a `..` cannot climb out). */
function inside(path: string, roots: readonly string[]): boolean {
  if (typeof path !== "string" || path !== normalize(path) || path.split("/").includes("..")) return false;
  return roots.some((root) => path.startsWith(`${root}/`));
}

/** Writes a program's changes into the workspace; paths outside the roots it was given are ignored. */
export async function applyChanges(fs: WorkspaceFs, changes: FileChanges, roots: readonly string[]): Promise<void> {
  for (const path of changes.removed) {
    if (!inside(path, roots)) continue;
    await fs.rm(path, { recursive: true, force: true });
  }
  for (const path of changes.directories) {
    if (!inside(path, roots)) continue;
    await fs.mkdir(path, { recursive: true });
  }
  for (const entry of changes.files) {
    if (!inside(entry.path, roots)) continue;
    if (entry.kind === "symlink") {
      await fs.rm(entry.path, { force: true });
      await fs.symlink(entry.target, entry.path);
    } else if (entry.kind === "file") {
      await fs.writeFile(entry.path, entry.data);
      await fs.chmod(entry.path, entry.mode);
    }
  }
}
