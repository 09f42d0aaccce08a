/**
 * What `workbench run` prints, as events read off a conversation: like `opencode run --format json`,
 * one event per finished part (`step_start`, `text` when a text part ends, `tool_use` when a call
 * ends, `step_finish`) and `error` for a step that failed. The watcher looks at the messages after
 * each change and reports every part once, in order, as soon as it is final.
 */
import type { ToolCall } from "../session/record/session-record.js";
import type { ChatView } from "../session/chat/chat-view.js";
import type { MessageError, Part } from "../session/record/message.js";

export type RunEvent =
  | { type: "step_start"; timestamp: number; sessionID: string; part: Part }
  | { type: "text"; timestamp: number; sessionID: string; part: Part }
  | { type: "tool_use"; timestamp: number; sessionID: string; part: Part & { state: ToolCall } }
  | { type: "step_finish"; timestamp: number; sessionID: string; part: Part }
  | { type: "error"; timestamp: number; sessionID: string; error: MessageError };

const ENDED = new Set(["completed", "error", "interrupted"]);

/** Reports each final part of the conversation's assistant messages once. Returns a function to flush at the end. */
export function watchRunEvents(
  chat: ChatView,
  emit: (event: RunEvent) => void,
  from = chat.messages().length,
): { stop(): void; flush(): void } {
  const done = new Set<string>();
  const scan = (final: boolean) => {
    const messages = chat.messages().slice(from);
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      const streaming = message.time.completed === undefined && !final;
      for (const part of message.parts) {
        if (done.has(part.id)) continue;
        const event = eventOf(chat, part, streaming);
        if (event === "wait") break;
        done.add(part.id);
        if (event) emit(event);
      }
      const errorKey = `${message.id}:error`;
      if (message.error && !done.has(errorKey) && message.error.kind !== "aborted") {
        done.add(errorKey);
        emit({ type: "error", timestamp: Date.now(), sessionID: chat.sessionID, error: message.error });
      }
    }
  };
  const off = chat.onChange(() => scan(false));
  return {
    stop: off,
    flush: () => scan(true),
  };
}

/** The event for a part, none for a part that prints nothing, or "wait" while it may still change. */
function eventOf(chat: ChatView, part: Part, streaming: boolean): RunEvent | undefined | "wait" {
  const base = { timestamp: Date.now(), sessionID: chat.sessionID };
  switch (part.type) {
    case "step-start":
      return { ...base, type: "step_start", part };
    case "step-finish":
      return { ...base, type: "step_finish", part };
    case "text":
      // A text part is final once it has an end time, or once its message has.
      if (streaming && part.time?.end === undefined) return "wait";
      return part.text.trim() === "" ? undefined : { ...base, type: "text", part };
    case "tool": {
      const call = chat.call(part.callID);
      if (!call || (!ENDED.has(call.status) && streaming)) return "wait";
      return { ...base, type: "tool_use", part: { ...part, state: call } };
    }
    default:
      return undefined;
  }
}
