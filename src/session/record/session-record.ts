/** A tool call's record and its lifecycle: pending → running → completed | error (| interrupted). */
import type { TodoItem } from "../../tools/ports/session-services.js";
import type { FilePart } from "../../tools/tool.js";
import type { Message } from "./message.js";

interface CallTimes {
  created: number;
  start?: number;
  end?: number;
  /**
   * When compaction pruned this call's output: the model is sent "[Old tool result content cleared]"
   * instead of it from then on. The output itself stays in the record, for the person to read.
   */
  compacted?: number;
}

type CallStatus = "pending" | "running" | "completed" | "error" | "interrupted";

/** One permission request a call made, and how it was settled. */
export interface CallPermission {
  permission: string;
  patterns: string[];
  always: string[];
  /** allow/deny: settled by a rule; once/always/reject: by the user; pending: not yet. */
  answer: "allow" | "deny" | "once" | "always" | "reject" | "pending";
  message?: string;
}

export interface ToolCall {
  id: string;
  sessionID: string;
  messageID: string;
  tool: string;
  input: Record<string, unknown>;
  status: CallStatus;
  title: string;
  metadata: Record<string, unknown>;
  output?: string;
  error?: string;
  attachments?: FilePart[];
  permissions: CallPermission[];
  time: CallTimes;
}

export interface SessionRecord {
  id: string;
  title: string;
  agent: string;
  createdAt: number;
  /** Every call, run by hand or by the model, in the order they started. */
  calls: ToolCall[];
  /** The conversation; a tool part names its call in `calls`. Sessions saved before the agent have none. */
  messages: Message[];
  /** The todo list (todowrite replaces it whole); absent until the first write. */
  todos?: TodoItem[];
  /** Set on a subagent's session: the session whose task call started it. */
  parentID?: string;
  /**
   * Subagent sessions started by this session's task calls, kept inside it: they are saved, exported and
   * deleted with it, and a task_id names one of them.
   */
  children?: SessionRecord[];
}

export const INTERRUPTED_MESSAGE = "Interrupted: the page was closed (or the process ended) while this call was running.";
const INTERRUPTED_ANSWER = "Interrupted: the page was closed (or the process ended) while this answer was being written.";

/**
 * A session read back from storage: calls that were in flight when it was saved can never finish, and
 * an answer that was still streaming never will; what they had written stays.
 */
export function markInterrupted(session: SessionRecord, now = Date.now()): SessionRecord {
  return {
    ...session,
    ...(session.children ? { children: session.children.map((child) => markInterrupted(child, now)) } : {}),
    calls: session.calls.map((call) =>
      call.status === "running" || call.status === "pending"
        ? { ...call, status: "interrupted", error: INTERRUPTED_MESSAGE, time: { ...call.time, end: now } }
        : call,
    ),
    messages: session.messages.map((message) =>
      message.role === "assistant" && message.time.completed === undefined
        ? {
            ...message,
            error: message.error ?? { kind: "interrupted", message: INTERRUPTED_ANSWER },
            time: { ...message.time, completed: now },
          }
        : message,
    ),
  };
}

/** A subagent session of `record`, at any depth. */
export function findChild(record: SessionRecord, id: string): SessionRecord | undefined {
  for (const child of record.children ?? []) {
    if (child.id === id) return child;
    const deeper = findChild(child, id);
    if (deeper) return deeper;
  }
  return undefined;
}
