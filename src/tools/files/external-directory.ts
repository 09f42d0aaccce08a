import { judgeExternal, physicalPath } from "../permission/external-directory.js";
import type { Context } from "../tool.js";

/**
 * Asks `external_directory` before a tool touches a path outside the workspace, judged on where the
 * path really leads (symlinks, dangling ones included, and `..` resolved), so no path trick gets out without
 * a prompt. Returns the real path judged: a tool that writes writes there, and checks at the moment of
 * writing that it still leads there (RuntimeFs.writeFileAtomic's `parent`).
 */
export async function assertExternalDirectory(ctx: Context, target: string, kind: "file" | "directory" = "file"): Promise<string> {
  const realpath = (path: string) => ctx.runtime.fs.realpath(path);
  const readlink = (path: string) => ctx.runtime.fs.readlink(path);
  if (ctx.extra?.bypassCwdCheck === true)
    return physicalPath(target.startsWith("/") ? target : `${ctx.directory}/${target}`, realpath, readlink);
  const { real, ask } = await judgeExternal({ root: ctx.directory, target, kind, realpath, readlink });
  if (ask) await ctx.ask(ask);
  return real;
}
