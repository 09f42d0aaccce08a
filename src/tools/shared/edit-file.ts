import { isRuntimeError } from "../../runtime/errors.js";
import type { Context } from "../tool.js";
import { fileDiff } from "./diff.js";
import { assertExternalDirectory } from "./external-directory.js";
import { displayPath, resolveToolPath } from "./paths.js";
import { decodeText, encodeText, type TextShape } from "./text-file.js";

export interface EditedText {
  after: string;
  /** What the output says about how the edit was applied (a fuzzy strategy, several occurrences). */
  notes: string[];
  metadata?: Record<string, unknown>;
}

/**
 * The shared path of edit and multiedit: resolve, ask external_directory, then under the file's lock
 * check it (exists, is a file, read and unchanged since), change its LF text with `change`, ask `edit`
 * with the diff, write it back in its own shape, and announce it.
 */
export async function editFile(
  ctx: Context,
  filePath: string,
  change: (before: string) => EditedText,
): Promise<{ title: string; output: string; metadata: Record<string, unknown> }> {
  const path = resolveToolPath(ctx, filePath);
  await assertExternalDirectory(ctx, path, "file");
  return ctx.fileTime.withLock(path, async () => {
    const stat = await ctx.runtime.fs.stat(path).catch((error: unknown) => {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
      throw error;
    });
    if (!stat) throw new Error(`File ${path} not found`);
    if (stat.type === "directory") throw new Error(`Path is a directory, not a file: ${path}`);
    await ctx.fileTime.assert(ctx.sessionID, path);
    const { text: before, shape } = decodeText(await ctx.runtime.fs.readFile(path));
    const edited = change(before);
    return write(ctx, path, before, edited, shape, true);
  });
}

/** An edit with an empty oldString: a new file (or an empty one) gets newString as its content. */
export async function createFile(ctx: Context, filePath: string, content: string) {
  const path = resolveToolPath(ctx, filePath);
  await assertExternalDirectory(ctx, path, "file");
  return ctx.fileTime.withLock(path, async () => {
    const stat = await ctx.runtime.fs.stat(path).catch(() => undefined);
    if (stat?.type === "directory") throw new Error(`Path is a directory, not a file: ${path}`);
    if (stat && stat.size > 0) {
      throw new Error(
        "oldString cannot be empty when editing an existing file. Provide the exact text to replace, or use write for an intentional full-file replacement.",
      );
    }
    const eol = content.includes("\r\n") ? "\r\n" : "\n";
    return write(ctx, path, "", { after: content.replace(/\r\n/g, "\n"), notes: [] }, { bom: false, eol }, stat !== undefined);
  });
}

async function write(ctx: Context, path: string, before: string, edited: EditedText, shape: TextShape, existed: boolean) {
  const relative = displayPath(ctx, path);
  const { diff, additions, deletions } = fileDiff(relative, relative, before, edited.after);
  await ctx.ask({ permission: "edit", patterns: [relative], always: ["*"], metadata: { filepath: path, diff } });
  if (!existed) await ctx.runtime.fs.mkdir(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
  await ctx.runtime.fs.writeFile(path, encodeText(edited.after, shape));
  ctx.bus.publish("file.edited", { file: path });
  ctx.fileTime.read(ctx.sessionID, path);
  const output = ["Edit applied successfully.", ...edited.notes].join(" ");
  return {
    title: relative,
    output,
    metadata: {
      ...edited.metadata,
      diff,
      filediff: { file: path, before, after: edited.after, additions, deletions },
      additions,
      deletions,
    },
  };
}
