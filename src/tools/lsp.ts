import { z } from "zod";
import description from "./lsp.txt?raw";
import { displayPath, resolveToolPath } from "./files/paths.js";
import { define } from "./tool.js";

// The tools layer may not import src/lsp, so the service keeps its own list; test/lsp/lsp-tool.test.ts keeps the two equal.
export const OPERATIONS = [
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "prepareCallHierarchy",
  "incomingCalls",
  "outgoingCalls",
] as const;

const LspParameters = z.object({
  operation: z.enum(OPERATIONS).describe("The LSP operation to perform"),
  filePath: z.string().describe("The absolute or relative path to the file"),
  line: z.number().int().min(1).describe("The line number (1-based, as shown in editors)"),
  character: z.number().int().min(1).describe("The character offset (1-based, as shown in editors)"),
});

const NO_SERVER = "No LSP server available for this file type.";

function isEmpty(result: unknown): boolean {
  return result === null || result === undefined || (Array.isArray(result) && result.length === 0);
}

export const LspTool = define("lsp", {
  description: description.trim(),
  parameters: LspParameters,
  async execute(args, ctx) {
    const path = resolveToolPath(ctx, args.filePath);
    const relative = displayPath(ctx, path);
    const title = `${args.operation} ${relative}:${args.line}:${args.character}`;
    await ctx.ask({ permission: "lsp", patterns: ["*"], always: ["*"], metadata: {} });
    const exists = await ctx.runtime.fs.stat(path).then(
      (stat) => stat.type === "file",
      () => false,
    );
    if (!exists) throw new Error(`File not found: ${path}`);
    if (!ctx.lsp || !ctx.lsp.answers(path)) throw new Error(NO_SERVER);
    await ctx.lsp.touchFile(path, false);
    const result = await ctx.lsp.query({ operation: args.operation, path, line: args.line - 1, character: args.character - 1 });
    return {
      title,
      output: isEmpty(result) ? `No results found for ${args.operation}` : JSON.stringify(result, null, 2),
      metadata: { result },
    };
  },
});
