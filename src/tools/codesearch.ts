import { z } from "zod";
import description from "./codesearch.txt?raw";
import { callExa } from "./web/exa.js";
import { define } from "./tool.js";

const CODE_SEARCH_TIMEOUT_MS = 30_000;

const parameters = z.object({
  query: z.string().describe("Search query for APIs, libraries and SDKs, e.g. 'React useState hook examples' or 'Express.js middleware'"),
  tokensNum: z
    .number()
    .int()
    .min(1000)
    .max(50000)
    .default(5000)
    .describe("Number of tokens to return (1000-50000). Default 5000: less for a focused question, more for broad documentation."),
});

export const CodeSearchTool = define("codesearch", {
  description: description.trim(),
  parameters,
  async execute(args, ctx) {
    if (!ctx.web) throw new Error("This session has no web access, so codesearch cannot run here: use the page or the workbench CLI.");
    await ctx.ask({
      permission: "codesearch",
      patterns: [args.query],
      always: ["*"],
      metadata: { query: args.query, tokensNum: args.tokensNum },
    });
    const output = await callExa(ctx.web, {
      tool: "get_code_context_exa",
      arguments: { query: args.query, tokensNum: args.tokensNum },
      timeoutMs: CODE_SEARCH_TIMEOUT_MS,
      signal: ctx.abort,
      label: "Code search",
    });
    return {
      title: `Code search: ${args.query}`,
      metadata: {},
      output:
        output ??
        "No code snippets or documentation found. Please try a different query, be more specific about the library or programming concept, or check the spelling of framework names.",
    };
  },
});
