import { isAbsolute, relative, resolve } from "pathe";
import type { Context } from "../tool.js";

/** A path a tool was given, made absolute: relative paths are taken from the workspace. */
export function resolveToolPath(ctx: Pick<Context, "directory">, path: string): string {
  // No file name holds a NUL, and echoing the raw byte into a terminal or a log garbles it: say so, escaped.
  if (path.includes("\0"))
    throw new Error(
      `The path ${JSON.stringify(path)} contains a NUL character (\\u0000), which no file name can hold: give the path without it.`,
    );
  return isAbsolute(path) ? resolve(path) : resolve(ctx.directory, path);
}

/** How a path is shown (titles, permission patterns): relative to the workspace when inside it. */
export function displayPath(ctx: Pick<Context, "worktree">, absolute: string): string {
  const rel = relative(ctx.worktree, absolute);
  return rel.startsWith("..") || rel === "" ? absolute : rel;
}

/**
 * The patterns an edit asks for: the path as given and, when a link makes it lead elsewhere, where it
 * really leads. Rules that allow only some files (the plan agent's `.opencode/plans/*.md`) would otherwise
 * judge a link or a linked folder by its name and let the write land on the file it points at.
 */
export async function editPatterns(ctx: Pick<Context, "worktree" | "runtime">, path: string, real: string): Promise<string[]> {
  const given = displayPath(ctx, path);
  if (real === path) return [given];
  const root = await ctx.runtime.fs.realpath(ctx.worktree).catch(() => ctx.worktree);
  const rel = relative(root, real);
  const leads = rel.startsWith("..") || rel === "" ? real : rel;
  return leads === given ? [given] : [given, leads];
}
