/**
 * The tools a model is offered for one step, as the AI SDK wants them: the registry's tools for this
 * provider, model and agent, with JSON Schemas from their zod parameters and no `execute` (the SDK stops
 * after the model's calls; the loop runs them through the runner). `invalid` is there but not active,
 * so a malformed call can be repaired into it.
 */
import { jsonSchema, NoSuchToolError, tool, type ToolSet } from "ai";
import type { LanguageModelV4ToolCall } from "@ai-sdk/provider";
import { z } from "zod";
import type { ToolRegistry } from "../tools/registry.js";
import type { AgentInfo } from "../tools/tool.js";
import type { ModelRef } from "./message.js";

export const INVALID_TOOL = "invalid";

export interface ModelTools {
  tools: ToolSet;
  /** Every tool but `invalid`. */
  active: string[];
}

function wireTool(description: string, parameters: z.ZodType) {
  // Validated with the zod schema itself, so invalid arguments reach the repair hook, as in OpenCode.
  const schema = jsonSchema<Record<string, unknown>>(z.toJSONSchema(parameters, { io: "input", unrepresentable: "any" }) as Parameters<typeof jsonSchema>[0], {
    validate: (value) => {
      const parsed = parameters.safeParse(value);
      return parsed.success ? { success: true, value: value as Record<string, unknown> } : { success: false, error: new Error(z.prettifyError(parsed.error)) };
    },
  });
  return tool({ description, inputSchema: schema });
}

export async function modelTools(registry: ToolRegistry, model: ModelRef, agent: AgentInfo): Promise<ModelTools> {
  const initialized = await registry.tools(model, agent);
  const tools: ToolSet = {};
  for (const entry of initialized) tools[entry.id] = wireTool(entry.description, entry.parameters);
  if (!tools[INVALID_TOOL]) {
    const invalid = registry.get(INVALID_TOOL);
    if (invalid) {
      const entry = await invalid.init({ agent });
      tools[INVALID_TOOL] = wireTool(entry.description, entry.parameters);
    }
  }
  return { tools, active: Object.keys(tools).filter((id) => id !== INVALID_TOOL) };
}

/**
 * The repair hook: a tool name in the wrong case becomes the real one; anything else becomes a call to
 * `invalid` whose result tells the model what went wrong and what exists.
 */
export function repairToolCall(options: { toolCall: LanguageModelV4ToolCall; tools: ToolSet; error: Error }): Promise<LanguageModelV4ToolCall | null> {
  const { toolCall, tools, error } = options;
  const available = Object.keys(tools).filter((id) => id !== INVALID_TOOL);
  if (NoSuchToolError.isInstance(error)) {
    const wanted = toolCall.toolName.toLowerCase();
    const real = available.find((id) => id.toLowerCase() === wanted);
    if (real) return Promise.resolve({ ...toolCall, toolName: real });
  }
  if (!tools[INVALID_TOOL]) return Promise.resolve(null);
  const message = NoSuchToolError.isInstance(error)
    ? `Unknown tool "${toolCall.toolName}". Available tools: ${available.join(", ")}.`
    : `Invalid arguments for the tool "${toolCall.toolName}": ${error.message}`;
  return Promise.resolve({ ...toolCall, toolName: INVALID_TOOL, input: JSON.stringify({ tool: toolCall.toolName, error: message }) });
}
