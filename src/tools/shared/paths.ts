import { isAbsolute, relative, resolve } from "pathe";
import type { Context } from "../tool.js";

/** A path a tool was given, made absolute: relative paths are taken from the workspace. */
export function resolveToolPath(ctx: Pick<Context, "directory">, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(ctx.directory, path);
}

/** How a path is shown (titles, permission patterns): relative to the workspace when inside it. */
export function displayPath(ctx: Pick<Context, "worktree">, absolute: string): string {
  const rel = relative(ctx.worktree, absolute);
  return rel.startsWith("..") || rel === "" ? absolute : rel;
}
