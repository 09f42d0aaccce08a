import { externalDirectoryAsk } from "../permission/external-directory.js";
import type { Context } from "../tool.js";

/**
 * Asks `external_directory` before a tool touches a path outside the workspace, judged on where the
 * path really leads (symlinks and `..` resolved), so no path trick gets out without a prompt.
 */
export async function assertExternalDirectory(ctx: Context, target: string, kind: "file" | "directory" = "file"): Promise<void> {
  if (ctx.extra?.bypassCwdCheck === true) return;
  const request = await externalDirectoryAsk({
    root: ctx.directory,
    target,
    kind,
    realpath: (path) => ctx.runtime.fs.realpath(path),
  });
  if (request) await ctx.ask(request);
}
