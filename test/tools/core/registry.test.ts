/** The registry: OpenCode's order, its filters, custom tools after built-ins, register and ids. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentRules } from "../../../src/tools/permission/agents.js";
import { BUILTIN_IDS } from "../../../src/tools/builtins.js";
import { defaultFlags, ToolRegistry, usesApplyPatch } from "../../../src/tools/registry.js";
import { define, type Info } from "../../../src/tools/tool.js";

// Stand-ins for built-ins that do not exist yet: the filters are what is under test.
const fixture = (id: string, description = id): Info =>
  define(id, { description, parameters: z.object({}), execute: async () => ({ title: "", metadata: {}, output: id }) });
const everyBuiltin = [...BUILTIN_IDS].reverse().map((id) => fixture(id));

describe("registry", () => {
  it("lists built-ins in OpenCode's order whatever order they are given in", () => {
    const registry = new ToolRegistry(everyBuiltin, {
      ...defaultFlags,
      experimentalLsp: true,
      batchTool: true,
      planMode: true,
      preview: true,
      codeMode: true,
    });
    const v2Names = ["shell", "subagent", "patch"];
    expect(registry.ids()).toEqual(BUILTIN_IDS.filter((id) => !v2Names.includes(id)));
    const v2 = new ToolRegistry(everyBuiltin, {
      ...defaultFlags,
      experimentalLsp: true,
      batchTool: true,
      planMode: true,
      preview: true,
      codeMode: true,
      toolNames: "v2",
    });
    expect(v2.ids()).toEqual(BUILTIN_IDS.filter((id) => !["bash", "task", "apply_patch"].includes(id)));
  });

  it("has one list of built-ins, in OpenCode's order, V2's names beside the V1 tools they rename", () => {
    expect(BUILTIN_IDS).toEqual([
      "invalid",
      "question",
      "bash",
      "shell",
      "read",
      "glob",
      "grep",
      "list",
      "edit",
      "multiedit",
      "write",
      "apply_patch",
      "patch",
      "task",
      "subagent",
      "webfetch",
      "todowrite",
      "todoread",
      "websearch",
      "codesearch",
      "skill",
      "lsp",
      "batch",
      "execute",
      "plan_enter",
      "plan_exit",
      "preview",
    ]);
  });

  it("offers preview only where a page with a Preview pane runs the session", () => {
    expect(new ToolRegistry(everyBuiltin, { ...defaultFlags, client: "cli" }).ids()).not.toContain("preview");
    expect(new ToolRegistry(everyBuiltin, defaultFlags).ids()).not.toContain("preview");
    expect(new ToolRegistry(everyBuiltin, { ...defaultFlags, preview: true }).ids()).toContain("preview");
  });

  it("keeps question for interactive clients only, and lsp, batch and plan behind their flags", () => {
    const server = new ToolRegistry(everyBuiltin, { ...defaultFlags, client: "server" });
    expect(server.ids()).not.toContain("question");
    for (const id of ["lsp", "batch", "execute", "plan_enter", "plan_exit"]) expect(server.ids()).not.toContain(id);
    expect(new ToolRegistry(everyBuiltin, { ...defaultFlags, client: "cli" }).ids()).toContain("question");
    expect(new ToolRegistry(everyBuiltin, { ...defaultFlags, batchTool: true }).ids()).toContain("batch");
    expect(new ToolRegistry(everyBuiltin, { ...defaultFlags, codeMode: true }).ids()).toContain("execute");
  });

  it("refuses a built-in with an id outside the list", () => {
    expect(() => new ToolRegistry([fixture("mystery")])).toThrow(/not a built-in tool id/);
  });

  it("puts custom tools after built-ins; a built-in wins a clash; register replaces a custom tool", () => {
    const registry = new ToolRegistry([fixture("read", "built-in read")]);
    registry.register(fixture("mine", "v1"));
    registry.register(fixture("read", "custom read"));
    registry.register(fixture("mine", "v2"));
    expect(registry.ids()).toEqual(["read", "mine"]);
    return Promise.all([
      registry
        .get("read")!
        .init()
        .then((t) => expect(t.description).toBe("built-in read")),
      registry
        .get("mine")!
        .init()
        .then((t) => expect(t.description).toBe("v2")),
    ]);
  });

  it("gates websearch and codesearch on the provider or the Exa flag", async () => {
    const registry = new ToolRegistry(everyBuiltin);
    const ids = async (providerID: string, r = registry) => (await r.tools({ providerID, modelID: "claude-x" })).map((t) => t.id);
    expect(await ids("anthropic")).not.toContain("websearch");
    expect(await ids("opencode")).toContain("codesearch");
    expect(await ids("anthropic", new ToolRegistry(everyBuiltin, { ...defaultFlags, enableExa: true }))).toContain("websearch");
  });

  it.each([
    ["gpt-5", true],
    ["gpt-5.1-codex", true],
    ["gpt-4o", false],
    ["gpt-oss-120b", false],
    ["claude-sonnet-4", false],
  ])("model %s edits with apply_patch: %s", async (modelID, patch) => {
    expect(usesApplyPatch(modelID)).toBe(patch);
    const ids = (await new ToolRegistry(everyBuiltin).tools({ providerID: "x", modelID })).map((t) => t.id);
    expect(ids.includes("apply_patch")).toBe(patch);
    expect(ids.includes("edit")).toBe(!patch);
    expect(ids.includes("write")).toBe(!patch);
  });

  it("hides every editing tool from an agent whose edit permission is denied outright", async () => {
    const options = { dataDir: "/data", toolOutputGlob: "/data/tool-output/*" };
    const registry = new ToolRegistry(everyBuiltin);
    const denied = [...agentRules("build", options), { permission: "edit", pattern: "*", action: "deny" as const }];
    const ids = (await registry.tools({ providerID: "x", modelID: "gpt-5" }, { name: "build", permission: denied })).map((t) => t.id);
    expect(ids).not.toContain("apply_patch");
    const claude = (await registry.tools({ providerID: "x", modelID: "claude" }, { name: "build", permission: denied })).map((t) => t.id);
    expect(claude).not.toContain("edit");
    expect(claude).not.toContain("write");
    expect(claude).not.toContain("multiedit");
    expect(claude).toContain("read");
  });

  it("initialises tools in parallel, each with the agent", async () => {
    let running = 0;
    let peak = 0;
    const slow = (id: string): Info => ({
      id,
      async init(ctx) {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return {
          description: ctx?.agent?.name ?? "",
          parameters: z.object({}),
          execute: async () => ({ title: "", metadata: {}, output: "" }),
        };
      },
    });
    const registry = new ToolRegistry([slow("read"), slow("grep"), slow("glob")]);
    const tools = await registry.tools({ providerID: "x", modelID: "y" }, { name: "explore", permission: [] });
    expect(peak).toBe(3);
    expect(tools.map((t) => t.description)).toEqual(["explore", "explore", "explore"]);
  });
});
