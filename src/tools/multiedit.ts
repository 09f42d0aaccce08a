import { z } from "zod";
import { describeMatch, EditMatchError, replace } from "./edit/index.js";
import { IDENTICAL } from "./edit.js";
import description from "./multiedit.txt?raw";
import { createFile, editFile } from "./files/edit-file.js";
import { toLf } from "./files/text-file.js";
import { define } from "./tool.js";

const edit = z.object({
  filePath: z.string().describe("The absolute path to the file to modify").optional(),
  oldString: z.string().describe("The text to replace"),
  newString: z.string().describe("The text to replace it with (must be different from oldString)"),
  replaceAll: z.boolean().optional().describe("Replace all occurrences of oldString (default false)"),
});

/**
 * Unlike OpenCode's multiedit (which writes after each edit and keeps them when a later one fails),
 * every edit is applied in memory first and the file is written once, or not at all.
 */
export const MultiEditTool = define("multiedit", {
  description: description.trim(),
  parameters: z.object({
    filePath: z.string().describe("The absolute path to the file to modify"),
    edits: z.array(edit).min(1).describe("Array of edit operations to perform sequentially on the file"),
  }),
  async execute(args, ctx) {
    const total = args.edits.length;
    const failed = (index: number, message: string) =>
      new Error(`Edit ${index + 1} of ${total} failed, so no edit was applied: ${message}`);
    args.edits.forEach((e, i) => {
      if (e.oldString === e.newString) throw failed(i, IDENTICAL);
    });
    const creates = args.edits[0]!.oldString === "";
    const apply = (before: string, edits: typeof args.edits, offset: number) => {
      let text = before;
      const strategies: string[] = [];
      const described: string[] = [];
      edits.forEach((e, i) => {
        if (e.oldString === "") throw failed(i + offset, "only the first edit may have an empty oldString (it creates the file)");
        try {
          const result = replace(text, toLf(e.oldString), toLf(e.newString), { replaceAll: e.replaceAll ?? false });
          text = result.content;
          strategies.push(result.strategy);
          if (result.fuzzy) described.push(describeMatch(result, `edit ${i + offset + 1}'s oldString`));
        } catch (error) {
          if (error instanceof EditMatchError) throw failed(i + offset, error.message);
          throw error;
        }
      });
      const notes = [`(${total} edits.)`, ...described];
      return { after: text, notes, metadata: { strategies } };
    };
    // A new file: every edit is applied to the first one's text in memory, and the file written once.
    if (creates) return createFile(ctx, args.filePath, apply(toLf(args.edits[0]!.newString), args.edits.slice(1), 1).after);
    return editFile(ctx, args.filePath, (before) => apply(before, args.edits, 0));
  },
});
