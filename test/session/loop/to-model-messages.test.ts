import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../../src/session/record/session-record.js";
import { emptyTokens, type AssistantMessage, type Message, type UserMessage } from "../../../src/session/record/message.js";
import { CLEARED_OUTPUT, COMPACTION_QUESTION, INTERRUPTED_OUTPUT, toModelMessages } from "../../../src/session/loop/to-model-messages.js";

const user = (id: string, parts: UserMessage["parts"]): UserMessage => ({
  id,
  sessionID: "s",
  role: "user",
  time: { created: 1 },
  agent: "build",
  model: { providerID: "p", modelID: "m" },
  parts,
});
const assistant = (
  id: string,
  parentID: string,
  parts: AssistantMessage["parts"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage => ({
  id,
  sessionID: "s",
  role: "assistant",
  parentID,
  time: { created: 2, completed: 3 },
  agent: "build",
  providerID: "p",
  modelID: "m",
  parts,
  tokens: emptyTokens(),
  cost: 0,
  ...extra,
});
const call = (id: string, extra: Partial<ToolCall>): ToolCall => ({
  id,
  sessionID: "s",
  messageID: "a1",
  tool: "read",
  input: { filePath: `/${id}` },
  status: "completed",
  title: "",
  metadata: {},
  permissions: [],
  time: { created: 1 },
  ...extra,
});
const toolPart = (n: string) => ({
  id: `p${n}`,
  messageID: "a1",
  type: "tool" as const,
  providerCallID: `pc${n}`,
  callID: `c${n}`,
  tool: "read",
});

describe("toModelMessages", () => {
  it("replays each call's state as OpenCode does", () => {
    const messages: Message[] = [
      user("u1", [{ id: "t", messageID: "u1", type: "text", text: "go" }]),
      assistant("a1", "u1", [
        { id: "x", messageID: "a1", type: "text", text: "Reading." },
        toolPart("1"),
        toolPart("2"),
        toolPart("3"),
        toolPart("4"),
        toolPart("5"),
      ]),
    ];
    const calls = [
      call("c1", { output: "fresh output" }),
      call("c2", { output: "old output", time: { created: 1, compacted: 5 } }),
      call("c3", { status: "error", error: "Error: no such file" }),
      call("c4", { status: "running" }),
      call("c5", { status: "interrupted", error: "Interrupted" }),
    ];
    const result = toModelMessages(messages, calls, { attachments: true });
    expect(result.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    const tool = result[2]!;
    expect(tool.role === "tool" && tool.content.map((c) => c.type === "tool-result" && [c.toolCallId, c.output])).toEqual([
      ["pc1", { type: "text", value: "fresh output" }],
      ["pc2", { type: "text", value: CLEARED_OUTPUT }],
      ["pc3", { type: "error-text", value: "Error: no such file" }],
      ["pc4", { type: "error-text", value: INTERRUPTED_OUTPUT }],
      ["pc5", { type: "error-text", value: INTERRUPTED_OUTPUT }],
    ]);
    const replayed = result[1]!;
    expect(replayed.role === "assistant" && Array.isArray(replayed.content) && replayed.content[1]).toEqual({
      type: "tool-call",
      toolCallId: "pc1",
      toolName: "read",
      input: { filePath: "/c1" },
    });
  });

  it("drops everything before the last finished summary", () => {
    const messages: Message[] = [
      user("u1", [{ id: "t1", messageID: "u1", type: "text", text: "ancient request" }]),
      assistant("a1", "u1", [{ id: "x1", messageID: "a1", type: "text", text: "ancient answer" }]),
      user("u2", [{ id: "c", messageID: "u2", type: "compaction", auto: true }]),
      assistant("a2", "u2", [{ id: "x2", messageID: "a2", type: "text", text: "the summary" }], { summary: true }),
      user("u3", [{ id: "t3", messageID: "u3", type: "text", text: "carry on" }]),
    ];
    const text = JSON.stringify(toModelMessages(messages, [], { attachments: true }));
    expect(text).not.toContain("ancient");
    expect(text.indexOf(COMPACTION_QUESTION)).toBeLessThan(text.indexOf("the summary"));
    expect(text).toContain("carry on");
    // A summary that failed is no summary: the history stays.
    const failed = messages.map((m) => (m.id === "a2" ? { ...m, error: { kind: "server", message: "boom" } } : m));
    expect(JSON.stringify(toModelMessages(failed, [], { attachments: true }))).toContain("ancient request");
  });

  it("sends pasted images to models that take them, and names them to models that do not", () => {
    const messages: Message[] = [
      user("u1", [
        { id: "t", messageID: "u1", type: "text", text: "look" },
        { id: "f", messageID: "u1", type: "file", mime: "image/png", filename: "shot.png", url: "data:image/png;base64,iVBORw0KGgo=" },
      ]),
    ];
    const withImages = toModelMessages(messages, [], { attachments: true })[0]!;
    expect(withImages.role === "user" && Array.isArray(withImages.content) && withImages.content[1]).toEqual({
      type: "image",
      image: "iVBORw0KGgo=",
      mediaType: "image/png",
    });
    const without = toModelMessages(messages, [], { attachments: false })[0]!;
    expect(JSON.stringify(without)).toContain("this model does not take attachments");
    expect(JSON.stringify(without)).not.toContain("iVBORw0KGgo=");
  });
});
