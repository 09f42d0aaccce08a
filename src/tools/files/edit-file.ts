import { fingerprint, type Fingerprint } from "../../runtime/fingerprint.js";
import type { Context } from "../tool.js";
import { commitWrite, readExisting } from "./commit.js";
import { diagnosticsAfterWrite, thisFileReport } from "./diagnostics.js";
import { fileDiff } from "./diff.js";
import { assertExternalDirectory } from "./external-directory.js";
import { displayPath, editPatterns, resolveToolPath } from "./paths.js";
import { NOT_FOUND_MESSAGE } from "../edit/errors.js";
import { decodeText, displayText, encodeNew, encodeText, type TextFile } from "./text-file.js";

export interface EditedText {
  after: string;
  /** What the output says about how the edit was applied (a fuzzy strategy, several occurrences). */
  notes: string[];
  metadata?: Record<string, unknown>;
}

/**
 * The shared path of edit and multiedit: resolve, ask external_directory, then under the file's lock
 * check it (exists, is a file, read and unchanged since), change its LF text with `change`, ask `edit`
 * with the diff, and write it back (only the edited lines' bytes change) as one checked step.
 */
export async function editFile(
  ctx: Context,
  filePath: string,
  change: (before: string) => EditedText,
): Promise<{ title: string; output: string; metadata: Record<string, unknown> }> {
  const path = resolveToolPath(ctx, filePath);
  const real = await assertExternalDirectory(ctx, path, "file");
  return ctx.fileTime.withLock(real, async () => {
    const bytes = await readExisting(ctx, real, path);
    if (!bytes) throw new Error(`File ${path} not found`);
    await ctx.fileTime.assert(ctx.sessionID, path, bytes);
    const file = decodeText(bytes);
    const edited = withEncodingHint(file, () => change(file.text));
    return write(ctx, { path, real }, file.text, edited, (after) => encodeText(file, after), fingerprint(bytes));
  });
}

/**
 * A text that did not match in a file with bytes that are not UTF-8 (Latin-1, say) most likely spans those
 * bytes, which read shows as U+FFFD and no text can name: the error says so, and what to do instead.
 */
function withEncodingHint<T>(file: TextFile, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (file.undecodable === 0 || !(error instanceof Error) || !error.message.includes(NOT_FOUND_MESSAGE)) throw error;
    const lines = linesWithUndecodable(file.text);
    const where = `line${lines.length === 1 ? "" : "s"} ${lines.slice(0, 10).join(", ")}${lines.length > 10 ? ", ..." : ""}`;
    throw new Error(
      `${displayText(error.message)}\nThis file is not valid UTF-8: ${where} hold${lines.length === 1 ? "s" : ""} bytes that read shows as \uFFFD and that no oldString can match. Edit text that does not include them (they are kept as they are), or convert the file first with bash (for example: iconv -f latin1 -t utf-8 FILE > FILE.utf8 && mv FILE.utf8 FILE).`,
      { cause: error },
    );
  }
}

function linesWithUndecodable(text: string): number[] {
  const lines: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (displayText(line) !== line) lines.push(i + 1);
  });
  return lines;
}

/** An edit with an empty oldString: a new file (or an empty one) gets newString as its content. */
export async function createFile(ctx: Context, filePath: string, content: string) {
  const path = resolveToolPath(ctx, filePath);
  const real = await assertExternalDirectory(ctx, path, "file");
  return ctx.fileTime.withLock(real, async () => {
    const bytes = await readExisting(ctx, real, path);
    if (bytes && bytes.length > 0) {
      throw new Error(
        "oldString cannot be empty when editing an existing file. Provide the exact text to replace, or use write for an intentional full-file replacement.",
      );
    }
    const eol = content.includes("\r\n") ? "\r\n" : "\n";
    const edited = { after: content.replace(/\r\n/g, "\n"), notes: [] };
    return write(ctx, { path, real }, "", edited, (after) => encodeNew(after, eol), bytes ? fingerprint(bytes) : "absent");
  });
}

async function write(
  ctx: Context,
  where: { path: string; real: string },
  before: string,
  edited: EditedText,
  encode: (after: string) => Uint8Array,
  expect: Fingerprint | "absent",
) {
  const { path, real } = where;
  const relative = displayPath(ctx, path);
  const { diff, additions, deletions } = fileDiff(relative, relative, displayText(before), displayText(edited.after));
  await ctx.ask({ permission: "edit", patterns: await editPatterns(ctx, path, real), always: ["*"], metadata: { filepath: path, diff } });
  await commitWrite(ctx, { path, real, data: encode(edited.after), expect });
  const diagnostics = await diagnosticsAfterWrite(ctx, [path]);
  const output = ["Edit applied successfully.", ...edited.notes].join(" ") + thisFileReport(path, diagnostics);
  return {
    title: relative,
    output,
    metadata: {
      ...edited.metadata,
      diagnostics,
      diff,
      filediff: { file: path, before: displayText(before), after: displayText(edited.after), additions, deletions },
      additions,
      deletions,
    },
  };
}
