import { z } from "zod";
import { fingerprint } from "../runtime/fingerprint.js";
import { commitWrite, readExisting } from "./files/commit.js";
import { diagnosticsAfterWrite, otherFilesReport, thisFileReport } from "./files/diagnostics.js";
import { fileDiff } from "./files/diff.js";
import { assertExternalDirectory } from "./files/external-directory.js";
import { displayPath, editPatterns, resolveToolPath } from "./files/paths.js";
import { decodeText, displayText, encodeNew, encodeText, toLf } from "./files/text-file.js";
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
    // Where the path really leads (a link followed even when its target does not exist yet) is what is
    // judged, and what is written.
    const real = await assertExternalDirectory(ctx, path, "file");
    return ctx.fileTime.withLock(real, async () => {
      const bytes = await readExisting(ctx, real, path);
      const exists = bytes !== undefined;
      if (exists) await ctx.fileTime.assert(ctx.sessionID, path, bytes);
      const file = exists ? decodeText(bytes) : undefined;
      const before = file?.text ?? "";
      const relative = displayPath(ctx, path);
      const after = toLf(args.content);
      const { diff, additions, deletions } = fileDiff(relative, relative, displayText(before), displayText(after));
      await ctx.ask({
        permission: "edit",
        patterns: await editPatterns(ctx, path, real),
        always: ["*"],
        metadata: { filepath: path, diff },
      });
      // Content with CRLF is taken as written (every line CRLF); otherwise lines the file already had keep
      // their own endings. A BOM the file had is kept.
      const data =
        file && !args.content.includes("\r\n")
          ? encodeText(file, after)
          : encodeNew(after, args.content.includes("\r\n") ? "\r\n" : "\n", file?.bom ?? false);
      await commitWrite(ctx, { path, real, data, expect: bytes ? fingerprint(bytes) : "absent" });
      const diagnostics = await diagnosticsAfterWrite(ctx, [path]);
      return {
        title: relative,
        output: "Wrote file successfully." + thisFileReport(path, diagnostics) + otherFilesReport(path, diagnostics),
        metadata: { diagnostics, filepath: path, exists, diff, additions, deletions },
      };
    });
  },
});
