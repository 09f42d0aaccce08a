/**
 * The one way to start a message: fresh ids, the time, and the fields every user or assistant message
 * carries, so no caller forgets one (an assistant without tokens, a part without its message id).
 */
import { ascendingId } from "./ids.js";
import { emptyTokens, type AssistantMessage, type MessageError, type ModelRef, type Part, type UserMessage } from "./message.js";

export interface NewUserMessage {
  sessionID: string;
  agent: string;
  model: ModelRef;
  /** The message's parts, made knowing its id; or `text` for a message of one text part. */
  parts?: (messageID: string) => Part[];
  text?: string;
  /** Written by the workbench rather than typed by the person. */
  synthetic?: boolean;
}

export function newUserMessage(input: NewUserMessage): UserMessage {
  const id = ascendingId("msg");
  const parts: Part[] = input.parts
    ? input.parts(id)
    : [
        {
          id: ascendingId("prt"),
          messageID: id,
          type: "text",
          text: input.text ?? "",
          ...(input.synthetic ? { synthetic: true } : {}),
        },
      ];
  return { id, sessionID: input.sessionID, role: "user", time: { created: Date.now() }, agent: input.agent, model: input.model, parts };
}

export interface NewAssistantMessage {
  sessionID: string;
  /** The user message it answers ("" when there is none). */
  parentID: string;
  agent: string;
  model: ModelRef;
  /** An answer that ends as it starts: a failure with no model reached. */
  error?: MessageError;
  /** A compaction summary. */
  summary?: true;
}

export function newAssistantMessage(input: NewAssistantMessage): AssistantMessage {
  const now = Date.now();
  return {
    id: ascendingId("msg"),
    sessionID: input.sessionID,
    role: "assistant",
    parentID: input.parentID,
    time: input.error ? { created: now, completed: now } : { created: now },
    agent: input.agent,
    providerID: input.model.providerID,
    modelID: input.model.modelID,
    parts: [],
    tokens: emptyTokens(),
    cost: 0,
    ...(input.summary ? { summary: true } : {}),
    ...(input.error ? { error: input.error } : {}),
  };
}
