import { dirname } from "pathe";
import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import { fileDiff } from "./shared/diff.js";
import { assertExternalDirectory } from "./shared/external-directory.js";
import { displayPath, resolveToolPath } from "./shared/paths.js";
import { decodeText, encodeText } from "./shared/text-file.js";
import { define } from "./tool.js";
import description from "./write.txt?raw";

export const WriteTool = define("write", {
  description: description.trim(),
  parameters: z.object({
    content: z.string().describe("The content to write to the file"),
    filePath: z.string().describe("The absolute path to the file to write (must be absolute, not relative)"),
  }),
  async execute(args, ctx) {
    const path = resolveToolPath(ctx, args.filePath);
    await assertExternalDirectory(ctx, path, "file");
    const stat = await ctx.runtime.fs.stat(path).catch((error: unknown) => {
      if (isRuntimeError(error) && error.code === "ENOENT") return undefined;
      throw error;
    });
    if (stat?.type === "directory") throw new Error(`Path is a directory, not a file: ${path}`);
    const exists = stat !== undefined;
    let before = "";
    let shape = { bom: false, eol: "\n" as "\n" | "\r\n" };
    if (exists) {
      await ctx.fileTime.assert(ctx.sessionID, path);
      ({ text: before, shape } = decodeText(await ctx.runtime.fs.readFile(path)));
    }
    const relative = displayPath(ctx, path);
    // The content is taken as written (line endings included); only a BOM the file had is kept.
    const after = args.content.replace(/\r\n/g, "\n");
    const { diff, additions, deletions } = fileDiff(relative, relative, before, after);
    await ctx.ask({ permission: "edit", patterns: [relative], always: ["*"], metadata: { filepath: path, diff } });
    await ctx.runtime.fs.mkdir(dirname(path), { recursive: true });
    const eol = args.content.includes("\r\n") ? "\r\n" : exists ? shape.eol : "\n";
    await ctx.runtime.fs.writeFile(path, encodeText(after, { bom: shape.bom, eol }));
    ctx.bus.publish("file.edited", { file: path });
    ctx.fileTime.read(ctx.sessionID, path);
    return {
      title: relative,
      output: "Wrote file successfully.",
      metadata: { filepath: path, exists, diff, additions, deletions },
    };
  },
});
