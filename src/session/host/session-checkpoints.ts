/**
 * Where a session marks the workspace's checkpoints: before each user message, and around each tool call
 * (before it, so hand edits made meanwhile are not counted as the call's; after it, the call's changes).
 * The session keeps only ids: a checkpoint is found again by its message or call id.
 *
 * Calls that run at the same time (a batch, parallel tool calls) share the changes made while both ran:
 * each checkpoint holds what changed since the one before it, and the file layer cannot tell whose write
 * it was.
 */
import type { Checkpoints } from "../../workspace/checkpoints/checkpoints.js";
import type { ToolCall } from "../record/session-record.js";

export interface SessionCheckpoints {
  beforeMessage(sessionID: string, messageID: string): Promise<void>;
  beforeCall(call: ToolCall): Promise<void>;
  afterCall(call: ToolCall): Promise<void>;
}

/**
 * A failed checkpoint (storage full, a file unreadable) must not fail the person's message or the tool
 * call: it is reported, and undo past it says what it cannot restore.
 */
export function sessionCheckpoints(checkpoints: Checkpoints, report: (error: unknown) => void = console.error): SessionCheckpoints {
  const quietly = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      report(error);
    }
  };
  return {
    beforeMessage: (sessionID, messageID) => quietly(() => checkpoints.record({ kind: "message", sessionID, messageID })),
    beforeCall: () => quietly(() => checkpoints.record({ kind: "outside" })),
    afterCall: (call) => quietly(() => checkpoints.record({ kind: "call", sessionID: call.sessionID, callID: call.id, tool: call.tool })),
  };
}
