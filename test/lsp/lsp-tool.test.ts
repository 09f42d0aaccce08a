/**
 * The lsp tool (behind OpenCode's experimental flag): operations across files with 1-based positions in,
 * LSP-shaped results out; its errors in OpenCode's words.
 */
import { afterEach, describe, expect, it } from "vitest";
import { OPERATIONS as SERVICE_OPERATIONS } from "../../src/lsp/types.js";
import { OPERATIONS as TOOL_OPERATIONS } from "../../src/tools/lsp.js";
import { lspWorkspace } from "./support.js";

it("the tool offers exactly the operations the service answers", () => {
  expect([...TOOL_OPERATIONS]).toEqual([...SERVICE_OPERATIONS]);
});

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

const FILES = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" } }),
  "src/math.ts":
    "/** Adds two numbers. */\nexport function add(a: number, b: number): number {\n  return a + b;\n}\nexport interface Shape {\n  area(): number;\n}\n",
  "src/main.ts":
    "import { add, type Shape } from './math';\n\nexport function run(): number {\n  return add(1, 2);\n}\nexport class Square implements Shape {\n  area() { return 4; }\n}\n",
};

async function open(flags = { experimentalLsp: true }) {
  const ws = await lspWorkspace(FILES, { flags });
  dispose = ws.dispose;
  const lsp = (operation: string, filePath: string, line: number, character: number) =>
    ws.session.run("lsp", { operation, filePath, line, character });
  return { ...ws, lsp };
}

const parsed = (output: string | undefined) => JSON.parse(output ?? "null") as unknown;

describe("the lsp tool", () => {
  it("is offered only behind the experimental flag", async () => {
    const off = await lspWorkspace(FILES);
    expect(off.session.registry.ids()).not.toContain("lsp");
    await off.dispose();
    const ws = await open();
    expect(ws.session.registry.ids()).toContain("lsp");
  });

  it("is offered when the workspace config turns it on (a page has no environment for OpenCode's flag)", async () => {
    const ws = await lspWorkspace({ ...FILES, "opencode.json": JSON.stringify({ workbench: { experimentalLspTool: true } }) });
    dispose = ws.dispose;
    expect(ws.session.registry.ids()).toContain("lsp");
    const hover = await ws.session.run("lsp", { operation: "hover", filePath: "src/main.ts", line: 4, character: 10 });
    expect(hover.output).toContain("add(a: number, b: number): number");
  });

  it("goes to a definition in another file, and hovers with the type and its documentation", async () => {
    const ws = await open();
    // `add` in `  return add(1, 2);` is line 4, character 10 (1-based).
    const definition = await ws.lsp("goToDefinition", "src/main.ts", 4, 10);
    expect(definition.title).toBe("goToDefinition src/main.ts:4:10");
    expect(parsed(definition.output)).toEqual([
      { uri: `file://${ws.path("src/math.ts")}`, range: { start: { line: 1, character: 16 }, end: { line: 1, character: 19 } } },
    ]);
    const hover = await ws.lsp("hover", "src/main.ts", 4, 10);
    const value = (parsed(hover.output) as { contents: { kind: string; value: string } }).contents;
    expect(value.kind).toBe("markdown");
    expect(value.value).toBe("```typescript\n(alias) add(a: number, b: number): number\nimport add\n```\n\nAdds two numbers.");
  });

  it("finds references, implementations, symbols and calls", async () => {
    const ws = await open();
    const references = parsed((await ws.lsp("findReferences", "src/math.ts", 2, 17)).output) as Array<{
      uri: string;
      range: { start: { line: number } };
    }>;
    expect(references.map((r) => `${r.uri.slice(r.uri.lastIndexOf("/") + 1)}:${r.range.start.line}`).sort()).toEqual([
      "main.ts:0",
      "main.ts:3",
      "math.ts:1",
    ]);

    const implementations = parsed((await ws.lsp("goToImplementation", "src/math.ts", 5, 18)).output) as Array<{
      uri: string;
      range: { start: { line: number } };
    }>;
    expect(implementations.map((r) => [r.uri.endsWith("/src/main.ts"), r.range.start.line])).toEqual([[true, 5]]);

    const symbols = parsed((await ws.lsp("documentSymbol", "src/main.ts", 1, 1)).output) as Array<{
      name: string;
      kind: number;
      children: Array<{ name: string }>;
    }>;
    expect(symbols.map((s) => [s.name, s.kind])).toEqual([
      ["run", 12],
      ["Square", 5],
    ]);
    expect(symbols[1]!.children.map((c) => c.name)).toEqual(["area"]);

    const workspace = parsed((await ws.lsp("workspaceSymbol", "src/main.ts", 6, 15)).output) as Array<{
      name: string;
      location: { uri: string };
    }>;
    expect(workspace.map((s) => s.name)).toContain("Square");

    const incoming = parsed((await ws.lsp("incomingCalls", "src/math.ts", 2, 17)).output) as Array<{ from: { name: string; uri: string } }>;
    expect(incoming.map((c) => c.from.name)).toEqual(["run"]);
    const outgoing = parsed((await ws.lsp("outgoingCalls", "src/main.ts", 3, 17)).output) as Array<{ to: { name: string; uri: string } }>;
    expect(outgoing.map((c) => [c.to.name, c.to.uri.endsWith("/src/math.ts")])).toEqual([["add", true]]);
    const prepared = parsed((await ws.lsp("prepareCallHierarchy", "src/main.ts", 3, 17)).output) as Array<{ name: string; kind: number }>;
    expect(prepared).toEqual([expect.objectContaining({ name: "run", kind: 12 })]);
  });

  it("says when nothing is found, and refuses what it cannot answer in OpenCode's words", async () => {
    const ws = await open();
    expect((await ws.lsp("goToDefinition", "src/main.ts", 2, 1)).output).toBe("No results found for goToDefinition");
    expect((await ws.lsp("hover", "src/gone.ts", 1, 1)).error).toBe(`File not found: ${ws.path("src/gone.ts")}`);
    expect((await ws.lsp("hover", "tsconfig.json", 1, 1)).error).toBe("No LSP server available for this file type.");
    expect((await ws.lsp("hover", "src/main.ts", 99, 1)).error).toBe(`Line 99 is past the end of ${ws.path("src/main.ts")} (9 lines).`);
    const zero = await ws.lsp("hover", "src/main.ts", 0, 1);
    expect(zero.status).toBe("error");
    expect(zero.error).toContain("line");
  });
});
