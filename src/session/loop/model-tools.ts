/**
 * The tools a model is offered for one step, as the AI SDK wants them: the registry's tools for this
 * provider, model and agent, with JSON Schemas from their zod parameters and no `execute` (the SDK stops
 * after the model's calls; the loop runs them through the runner). `invalid` is there but not active,
 * so a malformed call can be repaired into it.
 */
import { InvalidToolInputError, jsonSchema, NoSuchToolError, tool, type ToolSet } from "ai";
import type { LanguageModelV4ToolCall } from "@ai-sdk/provider";
import { z } from "zod";
import type { ToolRegistry } from "../../tools/registry.js";
import type { SessionCatalog } from "../../tools/ports/session-services.js";
import type { AgentInfo } from "../../tools/tool.js";
import type { ModelRef } from "../record/message.js";
import { errorMessage } from "../../base/error-message.js";

export const INVALID_TOOL = "invalid";

export interface ModelTools {
  tools: ToolSet;
  /** Every tool but `invalid`. */
  active: string[];
}

/** Wire tools by their parameters: a JSON Schema is built once per schema, not once per step. */
const wired = new WeakMap<z.ZodType, { description: string; tool: ReturnType<typeof buildWireTool> }>();

function wireTool(description: string, parameters: z.ZodType) {
  const cached = wired.get(parameters);
  if (cached && cached.description === description) return cached.tool;
  const built = buildWireTool(description, parameters);
  wired.set(parameters, { description, tool: built });
  return built;
}

function buildWireTool(description: string, parameters: z.ZodType) {
  // Validated with the zod schema itself, so invalid arguments reach the repair hook, as in OpenCode.
  const schema = jsonSchema<Record<string, unknown>>(
    z.toJSONSchema(parameters, { io: "input", unrepresentable: "any" }) as Parameters<typeof jsonSchema>[0],
    {
      validate: (value) => {
        const parsed = parameters.safeParse(value);
        return parsed.success
          ? { success: true, value: value as Record<string, unknown> }
          : { success: false, error: new Error(z.prettifyError(parsed.error)) };
      },
    },
  );
  return tool({ description, inputSchema: schema });
}

export async function modelTools(registry: ToolRegistry, model: ModelRef, agent: AgentInfo, session?: SessionCatalog): Promise<ModelTools> {
  const initialized = await registry.tools(model, agent, session);
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
 * The repair hook: a tool name in the wrong case becomes the real one. Anything else is left to fail:
 * the SDK parses a repaired call against the active tools only, so a repair into the inactive `invalid`
 * would fail again; the failed call arrives marked invalid and the loop sends it to `invalid` itself.
 */
export function repairToolCall(options: {
  toolCall: LanguageModelV4ToolCall;
  tools: ToolSet;
  error: Error;
}): Promise<LanguageModelV4ToolCall | null> {
  const { toolCall, tools, error } = options;
  if (!NoSuchToolError.isInstance(error)) return Promise.resolve(null);
  const wanted = toolCall.toolName.toLowerCase();
  const real = Object.keys(tools).find((id) => id !== INVALID_TOOL && id.toLowerCase() === wanted);
  return Promise.resolve(real ? { ...toolCall, toolName: real } : null);
}

/** What `invalid` tells the model about a call that could not be made: what was wrong and what exists. */
export function invalidCallError(toolName: string, error: unknown, available: readonly string[]): string {
  if (NoSuchToolError.isInstance(error)) return `Unknown tool "${toolName}". Available tools: ${available.join(", ")}.`;
  if (InvalidToolInputError.isInstance(error)) {
    // The SDK wraps our validator's message twice; the innermost one says what is wrong.
    let cause: unknown = error;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    const detail = cause instanceof Error ? cause.message : error.message;
    return `The tool "${toolName}" was called with invalid arguments (input: ${error.toolInput}):\n${detail}`;
  }
  return errorMessage(error);
}
