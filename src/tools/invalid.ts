import { z } from "zod";
import description from "./invalid.txt?raw";
import { define } from "./tool.js";

/** Where malformed calls go: an unknown tool name, or arguments the provider could not parse. */
export const InvalidTool = define("invalid", {
  description: description.trim(),
  parameters: z.object({
    tool: z.string(),
    error: z.string(),
  }),
  async execute(args) {
    return {
      title: "Invalid Tool",
      output: `The arguments provided to the tool are invalid: ${args.error}`,
      metadata: {},
    };
  },
});
