import { z } from "zod";
import { describeMatch, replace } from "./edit/index.js";
import description from "./edit.txt?raw";
import { createFile, editFile } from "./files/edit-file.js";
import { toLf } from "./files/text-file.js";
import { define } from "./tool.js";

export const IDENTICAL = "No changes to apply: oldString and newString are identical.";

export const EditTool = define("edit", {
  description: description.trim(),
  parameters: z.object({
    filePath: z.string().describe("The absolute path to the file to modify"),
    oldString: z.string().describe("The text to replace"),
    newString: z.string().describe("The text to replace it with (must be different from oldString)"),
    replaceAll: z.boolean().optional().describe("Replace all occurrences of oldString (default false)"),
  }),
  async execute(args, ctx) {
    if (args.oldString === args.newString) throw new Error(IDENTICAL);
    if (args.oldString === "") return createFile(ctx, args.filePath, args.newString);
    return editFile(ctx, args.filePath, (before) => {
      const result = replace(before, toLf(args.oldString), toLf(args.newString), { replaceAll: args.replaceAll ?? false });
      const notes: string[] = [];
      if (result.fuzzy) notes.push(describeMatch(result));
      if (args.replaceAll) notes.push(`(${result.occurrences} occurrence${result.occurrences === 1 ? "" : "s"} replaced.)`);
      return {
        after: result.content,
        notes,
        metadata: { strategy: result.strategy, occurrences: result.occurrences, differing: result.differing.map((line) => line.model) },
      };
    });
  },
});
