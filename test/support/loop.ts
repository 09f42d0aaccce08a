import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import type { Agent } from "../../src/session/agent/types.js";
import type { ChatStatus } from "../../src/session/chat/chat-view.js";
import { ascendingId } from "../../src/session/record/ids.js";
import { runLoop, type LoopOptions } from "../../src/session/loop/loop.js";
import type { Message, UserMessage } from "../../src/session/record/message.js";
import type { ModelInfo, ResolvedModel } from "../../src/session/provider/types.js";
import type { ToolSession } from "../../src/session/host/tool-session.js";
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

const usage = (input = 10, output = 5) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** One model step as a provider streams it. */
export function streamStep(options: {
  text?: string[];
  calls?: Array<{ tool: string; input: unknown; id?: string }>;
  finish?: "stop" | "tool-calls";
  input?: number;
  output?: number;
}): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (options.text) {
    parts.push({ type: "text-start", id: "t1" });
    for (const delta of options.text) parts.push({ type: "text-delta", id: "t1", delta });
    parts.push({ type: "text-end", id: "t1" });
  }
  let n = 0;
  for (const call of options.calls ?? []) {
    const id = call.id ?? `call-${Math.random().toString(36).slice(2)}-${n++}`;
    parts.push({
      type: "tool-call",
      toolCallId: id,
      toolName: call.tool,
      input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
    });
  }
  const finish = options.finish ?? (options.calls?.length ? "tool-calls" : "stop");
  parts.push({ type: "finish", finishReason: { unified: finish, raw: finish }, usage: usage(options.input, options.output) });
  return parts;
}

/** A mock model answering each call with the next step (an empty stop after the last), recording the requests. */
export function mockModel(steps: Array<LanguageModelV4StreamPart[] | (() => never)>): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({
    doStream: async (_options: LanguageModelV4CallOptions) => {
      const step = steps[next++] ?? streamStep({});
      if (typeof step === "function") step();
      return { stream: convertArrayToReadableStream(step as LanguageModelV4StreamPart[]) };
    },
  });
}

/** Everything a request sent the model, as text, to look for what it was told. */
export const promptText = (options: LanguageModelV4CallOptions) => JSON.stringify(options.prompt);
