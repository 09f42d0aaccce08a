/**
 * A saved list of tool calls (what `workbench calls` reads and the Tools pane replays): a JSON array
 * of `{ "tool": id, "args": { ... } }`, run in order. Unknown tools are not refused here: running
 * one gives the `invalid` tool's answer, as it would for a model.
 */
import { errorMessage } from "../../base/error-message.js";
export interface ListedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** The list could not be read; the message names the source and says what shape is expected. */
export class CallListError extends Error {
  override name = "CallListError";
}

const SHAPE = 'a JSON array of { "tool": id, "args": {...} }';

/** Parses a calls file's text; `source` names it in error messages (a file name, "standard input"). */
export function parseCallList(text: string, source: string): ListedCall[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (error) {
    throw new CallListError(`${source} is not valid JSON: ${errorMessage(error)}`);
  }
  if (!Array.isArray(list)) throw new CallListError(`${source} must hold ${SHAPE}`);
  return list.map((item: unknown, i) => {
    const entry = (typeof item === "object" && item !== null ? item : {}) as { tool?: unknown; args?: unknown };
    if (typeof entry.tool !== "string" || entry.tool === "")
      throw new CallListError(`call ${i + 1} has no "tool" string (${source} must hold ${SHAPE})`);
    if (entry.args !== undefined && (typeof entry.args !== "object" || entry.args === null || Array.isArray(entry.args))) {
      throw new CallListError(`call ${i + 1}: "args" must be an object`);
    }
    return { tool: entry.tool, args: (entry.args ?? {}) as Record<string, unknown> };
  });
}
