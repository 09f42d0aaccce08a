import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Agent } from "../../src/session/agent/types.js";
import type { ChatStatus } from "../../src/session/chat-types.js";
import { ascendingId } from "../../src/session/ids.js";
import { runLoop, type LoopOptions } from "../../src/session/loop.js";
import type { Message, UserMessage } from "../../src/session/message.js";
import type { ModelInfo, ResolvedModel } from "../../src/session/provider/types.js";
import type { ToolSession } from "../../src/session/tool-session.js";
import { agentRules, type AgentName } from "../../src/tools/permission/agents.js";
import type { Ruleset } from "../../src/tools/permission/types.js";

export function testAgent(name: AgentName = "build", extra: Partial<Agent> = {}, rules: Ruleset = []): Agent {
  return {
    name,
    mode: "primary",
    builtIn: true,
    hidden: false,
    permission: [...agentRules(name, { dataDir: "/data", toolOutputGlob: "/data/tool-output/*" }), ...rules],
    options: {},
    ...extra,
  };
}

export function testInfo(extra: Partial<ModelInfo> = {}): ModelInfo {
  return {
    providerID: "test",
    modelID: "test-model",
    name: "Test model",
    limit: { context: 100_000, output: 4_000 },
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    attachment: true,
    reasoning: false,
    ...extra,
  };
}

export function resolved(language: LanguageModelV4, info: Partial<ModelInfo> = {}): ResolvedModel {
  return { language, info: testInfo(info) };
}

export function userText(session: ToolSession, text: string, agent = "build"): UserMessage {
  const id = ascendingId("msg");
  const message: UserMessage = {
    id,
    sessionID: session.session.id,
    role: "user",
    time: { created: Date.now() },
    agent,
    model: { providerID: "test", modelID: "test-model" },
    parts: [{ id: ascendingId("prt"), messageID: id, type: "text", text }],
  };
  session.session.messages.push(message);
  return message;
}

/** Runs the loop on `session` after a user message, recording every change and status. */
export async function loopOnce(session: ToolSession, model: ResolvedModel, text: string, options: Partial<LoopOptions> = {}) {
  userText(session, text);
  const statuses: ChatStatus[] = [];
  let changes = 0;
  const controller = new AbortController();
  const end = await runLoop({
    tools: session,
    agent: testAgent(),
    model,
    system: ["You are a test."],
    signal: controller.signal,
    changed: () => changes++,
    status: (status) => statuses.push(status),
    ...options,
  });
  return { end, statuses, changes };
}

export const assistants = (messages: readonly Message[]) => messages.filter((m) => m.role === "assistant");

/** The text of every part of one kind in a message list. */
export function texts(messages: readonly Message[], type: "text" | "reasoning" = "text"): string[] {
  return messages.flatMap((m) => m.parts.flatMap((p) => (p.type === type ? [p.text] : [])));
}
