import { basename, dirname, join } from "pathe";
import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import { attachmentType, hasBinaryExtension, looksBinary, toBase64 } from "../runtime/file-kind.js";
import { describeSpecialType, isSpecialType } from "../runtime/types.js";
import description from "./read.txt?raw";
import { assertExternalDirectory } from "./files/external-directory.js";
import { readLineWindow } from "./files/line-reader.js";
import { displayPath, resolveToolPath } from "./files/paths.js";
import { define, type Context, type FilePart } from "./tool.js";

const DEFAULT_READ_LIMIT = 2000;
const MAX_LINE_LENGTH = 2000;
const MAX_LINE_SUFFIX = "... (line truncated to 2000 chars)";
const MAX_BYTES = 50 * 1024;
const EMPTY_FILE_REMINDER = "<system-reminder>Warning: the file exists but its contents are empty.</system-reminder>";

/**
 * A whole number, also when a model sends it as a string ("10"), as z.coerce allowed; but not `true`
 * (which coercion made 1, so `offset: true` started at line 2) nor "" or "abc". Same JSON Schema on the wire.
 */
function wholeNumber(min: number) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => `must be a whole number, not ${JSON.stringify(issue.input) ?? String(issue.input)}` })
      .int({ error: "must be a whole number" })
      .min(min),
  );
}

const parameters = z.object({
  filePath: z.string().describe("The path to the file to read"),
  offset: wholeNumber(0).describe("The line number to start reading from (0-based)").optional(),
  limit: wholeNumber(1).describe("The number of lines to read (defaults to 2000)").optional(),
});

async function notFound(ctx: Context, path: string): Promise<Error> {
  const folder = dirname(path);
  const wanted = basename(path).toLowerCase();
  const entries = await ctx.runtime.fs.readdir(folder).catch(() => []);
  const suggestions = entries
    .filter((entry) => {
      const name = entry.name.toLowerCase();
      return name.includes(wanted) || wanted.includes(name);
    })
    .slice(0, 3)
    .map((entry) => join(folder, entry.name));
  if (suggestions.length === 0) return new Error(`File not found: ${path}`);
  return new Error(`File not found: ${path}\n\nDid you mean one of these?\n${suggestions.join("\n")}`);
}

async function readFolder(ctx: Context, path: string, offset: number, limit: number) {
  const entries = (await ctx.runtime.fs.readdir(path)).sort((a, b) => a.name.localeCompare(b.name));
  const names = await Promise.all(
    entries.map(async (entry) => {
      const isDir =
        entry.type === "directory" ||
        (entry.type === "symlink" &&
          (await ctx.runtime.fs.stat(join(path, entry.name)).then(
            (s) => s.type === "directory",
            () => false,
          )));
      return isDir ? `${entry.name}/` : entry.name;
    }),
  );
  const shown = names.slice(offset, offset + limit);
  const footer =
    offset + shown.length < names.length
      ? `(Showing ${shown.length} of ${names.length} entries. Use offset=${offset + shown.length} to read on.)`
      : `(${names.length} entries)`;
  return {
    title: displayPath(ctx, path),
    output: `<path>${path}</path>\n<type>directory</type>\n<entries>\n${shown.join("\n")}${shown.length ? "\n" : ""}\n${footer}\n</entries>`,
    metadata: { preview: shown.slice(0, 20).join("\n"), truncated: offset + shown.length < names.length },
  };
}

export const ReadTool = define("read", {
  description: description.trim(),
  parameters,
  async execute(args, ctx) {
    if (args.filePath.trim() === "") {
      throw new Error(
        "filePath is empty: give the path of the file (or folder) to read, e.g. src/index.ts, or . for the workspace's top folder.",
      );
    }
    const path = resolveToolPath(ctx, args.filePath);
    const offset = args.offset ?? 0;
    const limit = args.limit ?? DEFAULT_READ_LIMIT;
    const stat = await ctx.runtime.fs.stat(path).catch((error: unknown) => {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
      throw error;
    });
    await assertExternalDirectory(ctx, path, stat?.type === "directory" ? "directory" : "file");
    await ctx.ask({ permission: "read", patterns: [path], always: ["*"], metadata: {} });
    if (!stat) throw await notFound(ctx, path);
    if (stat.type === "directory") return readFolder(ctx, path, offset, limit);
    if (isSpecialType(stat.type)) {
      // Opening a FIFO would wait for a writer forever; a device like /dev/zero never ends.
      throw new Error(`${path} is ${describeSpecialType(stat.type)}, not a regular file; read cannot open it`);
    }

    const title = displayPath(ctx, path);
    const mime = attachmentType(path);
    if (mime) {
      const kind = mime === "application/pdf" ? "PDF" : "Image";
      const message = `${kind} read successfully`;
      const attachment: FilePart = {
        id: `${ctx.callID ?? "call"}-attachment`,
        sessionID: ctx.sessionID,
        messageID: ctx.messageID,
        type: "file",
        mime,
        url: `data:${mime};base64,${toBase64(await ctx.runtime.fs.readFile(path))}`,
        filename: basename(path),
      };
      return { title, output: message, metadata: { preview: message, truncated: false }, attachments: [attachment] };
    }
    const sample = await ctx.runtime.fs.read(path, { position: 0, length: 4096 });
    if (hasBinaryExtension(path) || looksBinary(sample)) throw new Error(`Cannot read binary file: ${path}`);

    // What the session saw is fingerprinted before it is read, so a change in between makes a later edit
    // refuse (safe) rather than overwrite it.
    await ctx.fileTime.record(ctx.sessionID, path);
    // OpenCode warms the language server with every file read, without waiting: the file is open from now
    // on, so a later write reports the errors it causes here.
    if (ctx.lsp?.covers(path)) ctx.lsp.touchFile(path, false).catch(() => undefined);
    const window = await readLineWindow(ctx.runtime.fs, path, stat.size, {
      offset,
      limit,
      maxBytes: MAX_BYTES,
      maxLineLength: MAX_LINE_LENGTH,
      lineSuffix: MAX_LINE_SUFFIX,
    });
    if (window.lines.length > 0 && window.lines[0]!.startsWith("\uFEFF") && offset === 0) window.lines[0] = window.lines[0]!.slice(1);
    if (window.totalLines === 0) {
      return { title, output: `<file>\n${EMPTY_FILE_REMINDER}\n</file>`, metadata: { preview: "", truncated: false } };
    }
    if (window.lines.length === 0 && !window.cappedByBytes) {
      throw new Error(`Offset ${offset} is out of range for this file (${window.totalLines} lines)`);
    }
    const numbered = window.lines.map((line, i) => `${String(offset + i + 1).padStart(5, "0")}| ${line}`);
    const first = offset + 1;
    const last = offset + window.lines.length;
    let footer: string;
    let more: boolean;
    if (window.cappedByBytes) {
      footer = `(Output capped at 50 KB. Showing lines ${first}-${last}. Use offset=${last} to read on.)`;
      more = true;
    } else if (last < window.totalLines!) {
      footer = `(Showing lines ${first}-${last} of ${window.totalLines}. Use offset=${last} to read on.)`;
      more = true;
    } else {
      footer = `(End of file - total ${window.totalLines} lines)`;
      more = false;
    }
    return {
      title,
      output: `<file>\n${numbered.join("\n")}\n\n${footer}\n</file>`,
      metadata: { preview: window.lines.slice(0, 20).join("\n"), truncated: more },
    };
  },
});
