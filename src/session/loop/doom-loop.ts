/**
 * Doom-loop detection: a model calling the same tool with the same arguments three times in a row is
 * probably stuck, so the third call asks the `doom_loop` permission first (OpenCode asks the person by
 * default). Unlike OpenCode, which looks only inside the current assistant message (one step), the run
 * of calls is counted across the steps since the person last wrote, where a stuck model repeats itself.
 */
import type { AskInput } from "../../tools/permission/types.js";
import type { ToolCall } from "../record/session-record.js";
import type { Message } from "../record/message.js";

export const DOOM_LOOP_THRESHOLD = 3;
export const DOOM_LOOP_PERMISSION = "doom_loop";

/** The model's last `count` tool calls since the last user message, oldest first. */
function recentCalls(messages: readonly Message[], calls: readonly ToolCall[], count: number): ToolCall[] {
  const result: ToolCall[] = [];
  for (let i = messages.length - 1; i >= 0 && result.length < count; i--) {
    const message = messages[i]!;
    if (message.role === "user") break;
    for (let p = message.parts.length - 1; p >= 0 && result.length < count; p--) {
      const part = message.parts[p]!;
      if (part.type !== "tool") continue;
      // Calls are kept in the order they started, so a recent one is near the end.
      const call = calls.findLast((candidate) => candidate.id === part.callID);
      if (call) result.unshift(call);
    }
  }
  return result;
}

/**
 * JSON with every object's keys sorted, recursively: the model writing the same arguments in another key
 * order is still repeating itself.
 */
function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) => {
      if (!inner || typeof inner !== "object" || Array.isArray(inner)) return inner;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(inner).sort())
        Object.defineProperty(sorted, key, { value: (inner as Record<string, unknown>)[key], enumerable: true });
      return sorted;
    }) ?? "undefined"
  );
}

/** The doom_loop permission to ask before running `tool` with `input`, when it would be the third in a row. */
export function doomLoopAsk(messages: readonly Message[], calls: readonly ToolCall[], tool: string, input: unknown): AskInput | undefined {
  const previous = recentCalls(messages, calls, DOOM_LOOP_THRESHOLD - 1);
  if (previous.length < DOOM_LOOP_THRESHOLD - 1) return undefined;
  const same = canonicalJson(input);
  if (!previous.every((call) => call.tool === tool && canonicalJson(call.input) === same)) return undefined;
  return { permission: DOOM_LOOP_PERMISSION, patterns: [tool], always: [tool], metadata: { tool, input } };
}
