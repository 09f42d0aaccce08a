/** A plain ChatView for the chat components' tests: records what the UI sends, and changes when a test says. */
import type { ToolCall } from "../../src/session/record/session-record.js";
import type { ChatStatus, ChatView, ModelChoice, SendInput } from "../../src/session/chat/chat-view.js";
import { emptyTokens, type AssistantMessage, type Message, type ModelRef, type UserMessage } from "../../src/session/record/message.js";

export interface FakeChat extends ChatView {
  list: Message[];
  calls: Map<string, ToolCall>;
  state: ChatStatus;
  current: string;
  chosen: ModelRef | undefined;
  choices: ModelChoice[];
  sent: SendInput[];
  stops: number;
  /** Tells the listeners something changed, as the real chat does after each delta. */
  emit(): void;
}

export const gpt: ModelChoice = { providerID: "openai", modelID: "gpt-5", name: "GPT-5", attachment: true, ready: true };
export const local: ModelChoice = { providerID: "local", modelID: "llama3", name: "Llama 3", attachment: false, ready: true };
export const claude: ModelChoice = {
  providerID: "anthropic",
  modelID: "claude-sonnet",
  name: "Claude Sonnet",
  attachment: true,
  ready: false,
};

export function fakeChat(overrides: Partial<Pick<FakeChat, "list" | "state" | "choices" | "chosen">> = {}): FakeChat {
  const listeners = new Set<() => void>();
  const chat: FakeChat = {
    sessionID: "ses_chat",
    list: overrides.list ?? [],
    calls: new Map(),
    state: overrides.state ?? { type: "idle" },
    current: "build",
    choices: overrides.choices ?? [gpt, claude, local],
    chosen: "chosen" in overrides ? overrides.chosen : { providerID: "openai", modelID: "gpt-5" },
    sent: [],
    stops: 0,
    messages: () => chat.list,
    call: (id) => chat.calls.get(id),
    status: () => chat.state,
    agent: () => chat.current,
    model: () => chat.chosen,
    agents: () => [{ name: "build" }, { name: "plan", description: "Plans without editing" }],
    models: () => chat.choices,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async send(input) {
      chat.sent.push(input);
    },
    stop() {
      chat.stops++;
    },
    setAgent(name) {
      chat.current = name;
      chat.emit();
    },
    setModel(model) {
      chat.chosen = model;
      chat.emit();
    },
    emit: () => listeners.forEach((listener) => listener()),
  };
  return chat;
}

export function userMessage(id: string, text: string, extra: UserMessage["parts"] = []): UserMessage {
  return {
    id,
    sessionID: "ses_chat",
    role: "user",
    time: { created: 1 },
    agent: "build",
    model: { providerID: "openai", modelID: "gpt-5" },
    parts: [{ id: `${id}_t`, messageID: id, type: "text", text }, ...extra],
  };
}

export function assistantMessage(id: string, parts: AssistantMessage["parts"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    id,
    sessionID: "ses_chat",
    role: "assistant",
    parentID: "msg_u",
    time: { created: 2 },
    agent: "build",
    providerID: "openai",
    modelID: "gpt-5",
    parts,
    tokens: emptyTokens(),
    cost: 0,
    ...extra,
  };
}
