/**
 * Whether a path, with every symbolic link on the way followed, ends up inside the workspace. An untrusted
 * workspace's config may only make the app read its own files: a `{file:...}` reference or an
 * opencode.json that is a link to `~/.ssh/id_rsa` would otherwise pull the person's files into a prompt or
 * a request.
 */
import { resolve } from "pathe";
import type { Runtime } from "../../runtime/types.js";
import { contains, physicalPath } from "../../tools/permission/external-directory.js";

export async function insideWorkspace(runtime: Runtime, path: string): Promise<boolean> {
  const realpath = (p: string) => runtime.fs.realpath(p);
  const root = await physicalPath(resolve(runtime.root), realpath);
  const target = await physicalPath(resolve(runtime.root, path), realpath);
  return contains(root, target);
}

/**
 * Whether a write to `path` lands inside the workspace: as insideWorkspace, and a dangling link is
 * followed to its target too (writing through it would create the target, wherever it points).
 */
export async function writeLandsInside(runtime: Runtime, path: string): Promise<boolean> {
  const realpath = (p: string) => runtime.fs.realpath(p);
  const readlink = (p: string) => runtime.fs.readlink(p);
  const root = await physicalPath(resolve(runtime.root), realpath, readlink);
  const target = await physicalPath(resolve(runtime.root, path), realpath, readlink);
  return contains(root, target);
}
