import { dirname } from "pathe";
import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import description from "./apply_patch.txt?raw";
import { formatSummary, isPatchError, parsePatch, planPatch, type PlannedChange } from "./patch/index.js";
import { assertExternalDirectory } from "./shared/external-directory.js";
import { define, type Context } from "./tool.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

async function writeChange(ctx: Context, change: PlannedChange): Promise<void> {
  const fs = ctx.runtime.fs;
  if (change.type === "delete") {
    await fs.rm(change.path);
  } else {
    const target = change.movePath ?? change.path;
    await fs.mkdir(dirname(target), { recursive: true });
    await fs.writeFile(target, encoder.encode(change.after));
    if (change.type === "move" && change.movePath !== change.path) await fs.rm(change.path, { force: true });
  }
  for (const file of [change.path, change.movePath].filter((p): p is string => p !== undefined)) {
    ctx.bus.publish("file.edited", { file });
    if (file === (change.movePath ?? change.path) && change.type !== "delete") ctx.fileTime.read(ctx.sessionID, file);
  }
}

/**
 * The patch is parsed and every hunk verified against the files (nothing written), then one `edit`
 * request carries every file's diff, then the changes are written in order.
 */
export const ApplyPatchTool = define("apply_patch", {
  description: description.trim(),
  parameters: z.object({
    patchText: z.string().describe("The full patch text that describes all changes to be made"),
  }),
  async execute(args, ctx) {
    let changes: PlannedChange[];
    try {
      const hunks = parsePatch(args.patchText);
      for (const hunk of hunks) {
        await assertExternalDirectory(ctx, hunk.path.startsWith("/") ? hunk.path : `${ctx.directory}/${hunk.path}`, "file");
        if (hunk.type === "update" && hunk.movePath) {
          await assertExternalDirectory(ctx, hunk.movePath.startsWith("/") ? hunk.movePath : `${ctx.directory}/${hunk.movePath}`, "file");
        }
      }
      changes = await planPatch(hunks, {
        root: ctx.directory,
        read: async (path) => {
          try {
            const stat = await ctx.runtime.fs.stat(path);
            if (stat.type === "directory") return undefined;
            return decoder.decode(await ctx.runtime.fs.readFile(path));
          } catch (error) {
            if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
            throw error;
          }
        },
        isDirectory: (path) => ctx.runtime.fs.stat(path).then((s) => s.type === "directory", () => false),
      });
    } catch (error) {
      if (isPatchError(error)) {
        throw new Error(error.kind === "empty" ? error.message : `apply_patch verification failed: ${error.message}`, { cause: error });
      }
      throw error;
    }
    const relativePaths = changes.map((c) => c.moveRelativePath ?? c.relativePath);
    const files = changes.map((c) => ({
      filePath: c.path,
      relativePath: c.relativePath,
      type: c.type,
      diff: c.diff,
      before: c.before,
      after: c.after,
      additions: c.additions,
      deletions: c.deletions,
      movePath: c.movePath,
    }));
    const diff = changes.map((c) => c.diff).join("\n");
    await ctx.ask({
      permission: "edit",
      patterns: [...new Set(changes.flatMap((c) => [c.relativePath, ...(c.moveRelativePath ? [c.moveRelativePath] : [])]))],
      always: ["*"],
      metadata: { filepath: relativePaths.join(", "), diff, files },
    });
    for (const change of changes) await writeChange(ctx, change);
    const summary = formatSummary(changes);
    return { title: summary, output: summary, metadata: { diff, files } };
  },
});
