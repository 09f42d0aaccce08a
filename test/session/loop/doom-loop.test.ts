import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../../src/session/record/session-record.js";
import { doomLoopAsk } from "../../../src/session/loop/doom-loop.js";
import { emptyTokens, type AssistantMessage, type Message } from "../../../src/session/record/message.js";

const call = (id: string, tool: string, input: Record<string, unknown>): ToolCall => ({
  id,
  sessionID: "s",
  messageID: "m",
  tool,
  input,
  status: "completed",
  title: "",
  metadata: {},
  permissions: [],
  time: { created: 1 },
});
const step = (id: string, callIDs: string[]): AssistantMessage => ({
  id,
  sessionID: "s",
  role: "assistant",
  parentID: "u",
  time: { created: 1, completed: 2 },
  agent: "build",
  providerID: "p",
  modelID: "m",
  parts: callIDs.map((callID) => ({
    id: `p-${callID}`,
    messageID: id,
    type: "tool" as const,
    providerCallID: callID,
    callID,
    tool: "read",
  })),
  tokens: emptyTokens(),
  cost: 0,
});
const userMessage: Message = {
  id: "u",
  sessionID: "s",
  role: "user",
  time: { created: 0 },
  agent: "build",
  model: { providerID: "p", modelID: "m" },
  parts: [],
};

describe("doom-loop detection", () => {
  const same = { filePath: "/a" };
  const calls = [call("c1", "read", same), call("c2", "read", same), call("c3", "read", { filePath: "/b" })];

  it("asks on the third identical call in a row, across steps", () => {
    expect(doomLoopAsk([userMessage, step("a1", ["c1"]), step("a2", ["c2"])], calls, "read", same)).toEqual({
      permission: "doom_loop",
      patterns: ["read"],
      always: ["read"],
      metadata: { tool: "read", input: same },
    });
  });

  it("does not ask when the run is broken by other arguments, another tool, or the person's message", () => {
    expect(doomLoopAsk([userMessage, step("a1", ["c1", "c3"])], calls, "read", same)).toBeUndefined();
    expect(doomLoopAsk([userMessage, step("a1", ["c1", "c2"])], calls, "glob", same)).toBeUndefined();
    expect(doomLoopAsk([step("a1", ["c1"]), userMessage, step("a2", ["c2"])], calls, "read", same)).toBeUndefined();
  });

  it("counts arguments written in another key order, at any depth, as the same", () => {
    const nested = [
      call("k1", "read", { filePath: "/a", limit: 5, extra: { b: 1, a: [{ y: 1, x: 2 }] } }),
      call("k2", "read", { extra: { a: [{ x: 2, y: 1 }], b: 1 }, limit: 5, filePath: "/a" }),
    ];
    const ask = doomLoopAsk([userMessage, step("a1", ["k1"]), step("a2", ["k2"])], nested, "read", {
      limit: 5,
      extra: { a: [{ y: 1, x: 2 }], b: 1 },
      filePath: "/a",
    });
    expect(ask?.permission).toBe("doom_loop");
    // Array order still matters: [2, 1] is another call than [1, 2].
    const arrays = [call("r1", "read", { list: [1, 2] }), call("r2", "read", { list: [1, 2] })];
    expect(doomLoopAsk([userMessage, step("a1", ["r1"]), step("a2", ["r2"])], arrays, "read", { list: [2, 1] })).toBeUndefined();
  });
});
