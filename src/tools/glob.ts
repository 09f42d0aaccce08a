import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import description from "./glob.txt?raw";
import { assertExternalDirectory } from "./files/external-directory.js";
import { displayPath, resolveToolPath } from "./files/paths.js";
import { define } from "./tool.js";

const LIMIT = 100;

export const GlobTool = define("glob", {
  description: description.trim(),
  parameters: z.object({
    pattern: z.string().describe("The glob pattern to match files against"),
    path: z
      .string()
      .optional()
      .describe(
        'The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.',
      ),
  }),
  async execute(args, ctx) {
    await ctx.ask({ permission: "glob", patterns: [args.pattern], always: ["*"], metadata: { pattern: args.pattern, path: args.path } });
    const root = resolveToolPath(ctx, args.path ?? ".");
    await assertExternalDirectory(ctx, root, "directory");
    const stat = await ctx.runtime.fs.stat(root).catch((error: unknown) => {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
      throw error;
    });
    if (stat?.type !== "directory") throw new Error(`No such file or directory: '${root}'`);
    const found: Array<{ path: string; mtimeMs: number }> = [];
    let truncated = false;
    const files = ctx.runtime.search.list({ root, hidden: true, globs: ["!.git/*", args.pattern], stat: true }, { signal: ctx.abort });
    for await (const file of files) {
      if (found.length >= LIMIT) {
        truncated = true;
        break;
      }
      found.push({ path: file.path, mtimeMs: file.mtimeMs ?? 0 });
    }
    found.sort((a, b) => b.mtimeMs - a.mtimeMs);
    let output = found.length === 0 ? "No files found" : found.map((f) => f.path).join("\n");
    if (truncated) output += `\n\n(Results are truncated: showing first ${LIMIT} results. Consider using a more specific path or pattern.)`;
    return { title: displayPath(ctx, root) || ".", output, metadata: { count: found.length, truncated } };
  },
});
