import { resolve } from "pathe";
import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import { fingerprint, type Fingerprint } from "../runtime/fingerprint.js";
import description from "./apply_patch.txt?raw";
import { formatSummary, isPatchError, parsePatch, planPatch, type PlannedChange } from "./patch/index.js";
import { commitWrite, readExisting } from "./files/commit.js";
import { errorMessage } from "../base/error-message.js";
import { diagnosticsAfterWrite, diagnosticsBlock } from "./files/diagnostics.js";
import { assertExternalDirectory } from "./files/external-directory.js";
import { editPatterns } from "./files/paths.js";
import { decodeBytes, displayText, encodeBytes } from "./files/text-file.js";
import { define, type Context } from "./tool.js";

/**
 * What the patch knows of each file it touches: where the path really leads (judged before planning, and
 * what is written), and the content the next change expects to find there (as read while planning, then
 * as this patch left it).
 */
interface Files {
  real: Map<string, string>;
  expect: Map<string, Fingerprint | "absent">;
}

async function writeChange(ctx: Context, change: PlannedChange, files: Files): Promise<void> {
  const fs = ctx.runtime.fs;
  if (change.type === "delete") {
    await fs.rm(change.path);
    files.expect.set(change.path, "absent");
    ctx.bus.publish("file.edited", { file: change.path });
    return;
  }
  const target = change.movePath ?? change.path;
  // Text as planned; bytes that were not UTF-8 come back as they were (decodeBytes escaped them).
  const data = encodeBytes(change.after);
  const real = files.real.get(target) ?? target;
  await commitWrite(ctx, { path: target, real, data, expect: files.expect.get(target) ?? "absent" });
  files.expect.set(target, fingerprint(data));
  if (change.type === "move" && change.movePath !== change.path) {
    await fs.rm(change.path, { force: true });
    files.expect.set(change.path, "absent");
    ctx.bus.publish("file.edited", { file: change.path });
  }
}

/**
 * A move onto a file that exists replaces it: as with write, only a file this session has read (and that
 * is unchanged since). Then its content is what the write expects to find there.
 */
async function claimMoveTarget(ctx: Context, change: PlannedChange, files: Files): Promise<void> {
  const target = change.movePath;
  if (change.type !== "move" || !target || target === change.path || files.expect.has(target)) return;
  const bytes = await readExisting(ctx, files.real.get(target) ?? target, target);
  if (!bytes) return;
  try {
    await ctx.fileTime.assert(ctx.sessionID, target, bytes);
  } catch (error) {
    throw new Error(`File ${target} exists: moving ${change.path} onto it would replace it. ${errorMessage(error)}`);
  }
  files.expect.set(target, fingerprint(bytes));
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
    const known: Files = { real: new Map(), expect: new Map() };
    try {
      const hunks = parsePatch(args.patchText);
      // Keyed as the planner names files: absolute, normalised.
      const judge = async (path: string) => {
        const absolute = resolve(ctx.directory, path);
        if (!known.real.has(absolute)) known.real.set(absolute, await assertExternalDirectory(ctx, absolute, "file"));
      };
      for (const hunk of hunks) {
        await judge(hunk.path);
        if (hunk.type === "update" && hunk.movePath) await judge(hunk.movePath);
      }
      changes = await planPatch(hunks, {
        root: ctx.directory,
        // Files are read where they were judged to lead, as they will be written there.
        read: async (path) => {
          const real = known.real.get(path) ?? path;
          try {
            const stat = await ctx.runtime.fs.stat(real);
            if (stat.type === "directory") return undefined;
            // Not through a link made since the path was judged: what it leads to was never asked about.
            const bytes = await ctx.runtime.fs.readFile(real, { noFollow: known.real.has(path) });
            known.expect.set(path, fingerprint(bytes));
            return decodeBytes(bytes).text;
          } catch (error) {
            if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
            throw error;
          }
        },
        isDirectory: (path) =>
          ctx.runtime.fs.stat(path).then(
            (s) => s.type === "directory",
            () => false,
          ),
      });
      for (const change of changes) await claimMoveTarget(ctx, change, known);
    } catch (error) {
      if (isPatchError(error)) {
        throw new Error(error.kind === "empty" ? error.message : `apply_patch verification failed: ${error.message}`, { cause: error });
      }
      throw error;
    }
    const relativePaths = changes.map((c) => c.moveRelativePath ?? c.relativePath);
    // Shown as read shows them: bytes that are not UTF-8 as U+FFFD (they are written back as they were).
    const files = changes.map((c) => ({
      filePath: c.path,
      relativePath: c.relativePath,
      type: c.type,
      diff: displayText(c.diff),
      before: displayText(c.before),
      after: displayText(c.after),
      additions: c.additions,
      deletions: c.deletions,
      movePath: c.movePath,
    }));
    const diff = displayText(changes.map((c) => c.diff).join("\n"));
    await ctx.ask({
      permission: "edit",
      // Where a linked path really leads is judged too (editPatterns), as write and edit do.
      patterns: [
        ...new Set([
          ...changes.flatMap((c) => [c.relativePath, ...(c.moveRelativePath ? [c.moveRelativePath] : [])]),
          ...(await Promise.all([...known.real].map(([absolute, real]) => editPatterns(ctx, absolute, real)))).flat(),
        ]),
      ],
      always: ["*"],
      metadata: { filepath: relativePaths.join(", "), diff, files },
    });
    for (const change of changes) await writeChange(ctx, change, known);
    const summary = formatSummary(changes);
    // Deleted and moved-away files are touched too, so what imported them shows its new errors.
    const diagnostics = await diagnosticsAfterWrite(ctx, [
      ...new Set(changes.flatMap((c) => [c.path, ...(c.movePath ? [c.movePath] : [])])),
    ]);
    let report = "";
    for (const change of changes) {
      if (change.type === "delete") continue;
      const target = change.movePath ?? change.path;
      const block = diagnosticsBlock(target, diagnostics[target] ?? []);
      if (block) report += `\n\nLSP errors detected in ${change.moveRelativePath ?? change.relativePath}, please fix:\n${block}`;
    }
    return { title: summary, output: summary + report, metadata: { diff, files, diagnostics } };
  },
});
