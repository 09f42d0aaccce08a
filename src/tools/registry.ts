/**
 * The registry: built-in tools in the order of builtins.ts (OpenCode's), then custom tools (files and plugins),
 * earlier winning on a name clash; `tools()` filters what a provider, model and agent may see and
 * initialises the rest in parallel.
 */
import type { z } from "zod";
import { BUILTIN_IDS } from "./builtins.js";
import { disabledTools } from "./permission/disabled.js";
import type { SessionCatalog } from "./ports/session-services.js";
import type { AgentInfo, Info, Initialized } from "./tool.js";

export interface RegistryFlags {
  /** Which client runs the tools: `question` needs an interactive one (app, cli, desktop, web). */
  client: "app" | "cli" | "desktop" | "web" | "server";
  /** websearch and codesearch for providers other than opencode. */
  enableExa: boolean;
  experimentalLsp: boolean;
  /** `experimental.batch_tool` in the workspace config. */
  batchTool: boolean;
  planMode: boolean;
  /**
   * Which names the renamed tools go by: V1's bash, task and apply_patch, or OpenCode V2's shell, subagent
   * and patch (with V2's parameters). Never both: a model offered two shells would use them interchangeably.
   */
  toolNames?: "v1" | "v2";
  /** A page with a Preview pane runs the session (the page and the embed; never the CLI). */
  preview: boolean;
  /**
   * OpenCode V2's Code Mode, the `execute` tool: V2 offers it only under OPENCODE_EXPERIMENTAL_CODE_MODE;
   * here that variable (CLI) or `"workbench": { "experimentalCodeMode": true }` in opencode.json.
   */
  codeMode?: boolean;
}

export const defaultFlags: RegistryFlags = {
  client: "web",
  enableExa: false,
  experimentalLsp: false,
  batchTool: false,
  planMode: false,
  preview: false,
};

const INTERACTIVE = new Set(["app", "cli", "desktop", "web"]);

/** GPT models (not gpt-4, not oss) edit through apply_patch; every other model through edit and write. */
export function usesApplyPatch(modelID: string): boolean {
  return modelID.includes("gpt-") && !modelID.includes("oss") && !modelID.includes("gpt-4");
}

export type InitializedTool = Initialized<z.ZodType> & { id: string };

export class ToolRegistry {
  private readonly builtins: Info[];
  private readonly custom: Info[] = [];

  constructor(
    builtins: Info[],
    private readonly flags: RegistryFlags = defaultFlags,
  ) {
    const order = BUILTIN_IDS;
    for (const tool of builtins) {
      if (!order.includes(tool.id)) throw new Error(`"${tool.id}" is not a built-in tool id; register it as a custom tool`);
    }
    this.builtins = [...builtins].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  }

  private builtinAvailable(id: string): boolean {
    switch (id) {
      case "question":
        return INTERACTIVE.has(this.flags.client);
      case "lsp":
        return this.flags.experimentalLsp;
      case "batch":
        return this.flags.batchTool;
      case "plan_enter":
      case "plan_exit":
        return this.flags.planMode;
      case "bash":
      case "task":
      case "apply_patch":
        return this.flags.toolNames !== "v2";
      case "shell":
      case "subagent":
      case "patch":
        return this.flags.toolNames === "v2";
      case "preview":
        return this.flags.preview;
      case "execute":
        return this.flags.codeMode === true;
      default:
        return true;
    }
  }

  /** Built-ins that the flags allow, then custom tools; on a clash of ids the earlier one wins. */
  all(): Info[] {
    const seen = new Set<string>();
    const result: Info[] = [];
    for (const tool of [...this.builtins.filter((t) => this.builtinAvailable(t.id)), ...this.custom]) {
      if (seen.has(tool.id)) continue;
      seen.add(tool.id);
      result.push(tool);
    }
    return result;
  }

  /** Adds a custom tool, or replaces the custom tool of the same id (an MCP server reconnecting). */
  register(tool: Info): void {
    const index = this.custom.findIndex((t) => t.id === tool.id);
    if (index >= 0) this.custom.splice(index, 1, tool);
    else this.custom.push(tool);
  }

  unregister(id: string): void {
    const index = this.custom.findIndex((t) => t.id === id);
    if (index >= 0) this.custom.splice(index, 1);
  }

  ids(): string[] {
    return this.all().map((t) => t.id);
  }

  get(id: string): Info | undefined {
    return this.all().find((t) => t.id === id);
  }

  /**
   * The tools a model sees: provider and model filters, then the agent's permission (a tool whose
   * permission is denied outright is hidden), initialised in parallel.
   */
  async tools(model: { providerID: string; modelID: string }, agent?: AgentInfo, session?: SessionCatalog): Promise<InitializedTool[]> {
    const patch = usesApplyPatch(model.modelID);
    let candidates = this.all().filter((tool) => {
      if (tool.id === "websearch" || tool.id === "codesearch") return model.providerID === "opencode" || this.flags.enableExa;
      if (tool.id === "apply_patch" || tool.id === "patch") return patch;
      if (tool.id === "edit" || tool.id === "write") return !patch;
      return true;
    });
    if (agent) {
      const hidden = disabledTools(
        candidates.map((t) => t.id),
        agent.permission,
      );
      candidates = candidates.filter((t) => !hidden.has(t.id));
    }
    return Promise.all(candidates.map(async (tool) => ({ id: tool.id, ...(await tool.init({ agent, ...(session ? { session } : {}) })) })));
  }
}
