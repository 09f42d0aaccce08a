import { z } from "zod";
import { invalidArgumentsMessage, ToolArgumentsError, type Info } from "../tool.js";
import type { ToolDefinition } from "./plugin-api.js";

/**
 * A `tool({...})` definition as a registry tool: parameters are `z.object(args)`, the title is empty,
 * and the output always goes through truncation. Beyond OpenCode, arguments are validated (and parsed)
 * here too, so a plugin tool never sees input its schema rejects.
 */
export function fromPlugin(id: string, def: ToolDefinition): Info {
  return {
    id,
    async init() {
      const parameters = z.object(def.args);
      return {
        description: def.description,
        parameters,
        async execute(args, ctx) {
          const parsed = parameters.safeParse(args);
          if (!parsed.success) throw new ToolArgumentsError(invalidArgumentsMessage(id, parsed.error), { cause: parsed.error });
          const result = await def.execute(parsed.data, {
            sessionID: ctx.sessionID,
            messageID: ctx.messageID,
            agent: ctx.agent,
            directory: ctx.directory,
            worktree: ctx.worktree,
            abort: ctx.abort,
            metadata: (input) => ctx.metadata(input),
            ask: (input) => ctx.ask(input),
          });
          const text = typeof result === "string" ? result : JSON.stringify(result);
          const out = await ctx.truncate(text);
          return {
            title: "",
            output: out.content,
            metadata: { truncated: out.truncated, ...(out.truncated ? { outputPath: out.outputPath } : {}) },
          };
        },
      };
    },
  };
}

/** A `Tool.define(...)` result, as opposed to a `tool({...})` definition. */
export function isToolInfo(value: unknown): value is Info {
  return (
    typeof value === "object" && value !== null && typeof (value as Info).init === "function" && typeof (value as Info).id === "string"
  );
}

export function isToolDefinition(value: unknown): value is ToolDefinition {
  const def = value as ToolDefinition;
  return (
    typeof value === "object" &&
    value !== null &&
    typeof def.execute === "function" &&
    typeof def.description === "string" &&
    typeof def.args === "object"
  );
}
