/**
 * Background jobs that ended become a message the model reads before its next step, so it learns of the end
 * without polling (OpenCode V2 notifies the session the same way). The message is the person's side of the
 * conversation, marked synthetic: the workbench wrote it, nobody typed it.
 */
import { jobNotice, type JobEnded } from "../../tools/jobs/background-jobs.js";
import { ascendingId } from "../record/ids.js";
import type { ModelRef, UserMessage } from "../record/message.js";

export function jobNoticeMessage(sessionID: string, agent: string, model: ModelRef, ended: readonly JobEnded[]): UserMessage {
  const id = ascendingId("msg");
  return {
    id,
    sessionID,
    role: "user",
    time: { created: Date.now() },
    agent,
    model,
    parts: ended.map((end) => ({ id: ascendingId("prt"), messageID: id, type: "text" as const, text: jobNotice(end), synthetic: true })),
  };
}
