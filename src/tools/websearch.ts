import { z } from "zod";
import { callExa } from "./web/exa.js";
import { define } from "./tool.js";
import template from "./websearch.txt?raw";

const SEARCH_TIMEOUT_MS = 25_000;

const parameters = z.object({
  query: z.string().describe("The web search query"),
  numResults: z.number().int().positive().describe("Number of search results to return (default: 8)").optional(),
  livecrawl: z
    .enum(["fallback", "preferred"])
    .describe("Live crawl mode: 'fallback' crawls live only when the cache has nothing (default); 'preferred' crawls live first")
    .optional(),
  type: z
    .enum(["auto", "fast", "deep"])
    .describe("Search type: 'auto' balanced (default), 'fast' quick results, 'deep' comprehensive search")
    .optional(),
  contextMaxCharacters: z
    .number()
    .int()
    .positive()
    .describe("Maximum characters of context to return for the model (default: 10000)")
    .optional(),
});

export const WebSearchTool = define("websearch", async () => ({
  description: template.trim().replaceAll("{year}", String(new Date().getFullYear())),
  parameters,
  async execute(args, ctx) {
    if (!ctx.web) throw new Error("This session has no web access, so websearch cannot run here: use the page or the workbench CLI.");
    await ctx.ask({ permission: "websearch", patterns: [args.query], always: ["*"], metadata: { ...args } });
    const output = await callExa(ctx.web, {
      tool: "web_search_exa",
      arguments: {
        query: args.query,
        type: args.type ?? "auto",
        numResults: args.numResults ?? 8,
        livecrawl: args.livecrawl ?? "fallback",
        ...(args.contextMaxCharacters !== undefined ? { contextMaxCharacters: args.contextMaxCharacters } : {}),
      },
      timeoutMs: SEARCH_TIMEOUT_MS,
      signal: ctx.abort,
      label: "Search",
    });
    return { title: `Web search: ${args.query}`, metadata: {}, output: output ?? "No search results found. Please try a different query." };
  },
}));
