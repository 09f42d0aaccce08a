/**
 * Doom-loop detection: a model calling the same tool with the same arguments three times in a row is
 * probably stuck, so the third call asks the `doom_loop` permission first (OpenCode asks the person by
 * default). Unlike OpenCode, which looks only inside the current assistant message (one step), the run
 * of calls is counted across the steps since the person last wrote, where a stuck model repeats itself.
 */
import type { AskInput } from "../tools/permission/types.js";
import type { ToolCall } from "./calls.js";
import type { Message } from "./message.js";

export const DOOM_LOOP_THRESHOLD = 3;

/** The model's tool calls since the last user message, oldest first. */
function recentCalls(messages: readonly Message[], calls: readonly ToolCall[]): ToolCall[] {
  const byID = new Map(calls.map((call) => [call.id, call]));
  const result: ToolCall[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") break;
    const found = message.parts.flatMap((part) => (part.type === "tool" ? [byID.get(part.callID)] : []));
    result.unshift(...found.filter((call): call is ToolCall => call !== undefined));
  }
  return result;
}

/** The doom_loop permission to ask before running `tool` with `input`, when it would be the third in a row. */
export function doomLoopAsk(messages: readonly Message[], calls: readonly ToolCall[], tool: string, input: unknown): AskInput | undefined {
  const previous = recentCalls(messages, calls).slice(-(DOOM_LOOP_THRESHOLD - 1));
  if (previous.length < DOOM_LOOP_THRESHOLD - 1) return undefined;
  const same = JSON.stringify(input);
  if (!previous.every((call) => call.tool === tool && JSON.stringify(call.input) === same)) return undefined;
  return { permission: "doom_loop", patterns: [tool], always: [tool], metadata: { tool, input } };
}
