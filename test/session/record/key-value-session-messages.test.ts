import { describe, expect, it } from "vitest";
import type { SessionRecord, ToolCall } from "../../../src/session/record/session-record.js";
import { emptyTokens, type AssistantMessage, type UserMessage } from "../../../src/session/record/message.js";
import { MemoryShelf, ShelfSessionStore } from "../../../src/session/record/key-value-session-store.js";

const user: UserMessage = {
  id: "msg_1",
  sessionID: "ses_1",
  role: "user",
  time: { created: 1 },
  agent: "build",
  model: { providerID: "p", modelID: "m" },
  parts: [{ id: "prt_1", messageID: "msg_1", type: "text", text: "hello" }],
};
const answer = (completed?: number): AssistantMessage => ({
  id: "msg_2",
  sessionID: "ses_1",
  role: "assistant",
  parentID: "msg_1",
  time: { created: 2, ...(completed !== undefined ? { completed } : {}) },
  agent: "build",
  providerID: "p",
  modelID: "m",
  parts: [{ id: "prt_2", messageID: "msg_2", type: "text", text: "hi there" }],
  tokens: emptyTokens(),
  cost: 0,
});
const call: ToolCall = {
  id: "call_1",
  sessionID: "ses_1",
  messageID: "msg_2",
  tool: "read",
  input: {},
  status: "completed",
  title: "",
  metadata: {},
  output: "long",
  permissions: [],
  time: { created: 1 },
};

/** Counts writes per key. */
class CountingShelf extends MemoryShelf {
  readonly writes = new Map<string, number>();
  override async put(entries: Array<[string, string]>): Promise<void> {
    for (const [key] of entries) this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
    return super.put(entries);
  }
}

describe("messages in the shelf store", () => {
  it("keeps each message in its own record, writing a finished one once", async () => {
    const shelf = new CountingShelf();
    const store = new ShelfSessionStore(shelf);
    const session: SessionRecord = { id: "ses_1", title: "t", agent: "build", createdAt: 1, calls: [], messages: [user, answer()] };
    await store.save(session);
    session.messages[1] = answer(3);
    await store.save(session);
    await store.save(session);
    expect(shelf.writes.get("message:ses_1:msg_1")).toBe(1);
    expect(shelf.writes.get("message:ses_1:msg_2")).toBe(2);
    expect(JSON.parse((await shelf.get("session:ses_1"))!).messages).toEqual(["msg_1", "msg_2"]);
    expect((await new ShelfSessionStore(shelf).load("ses_1"))?.messages).toEqual([user, answer(3)]);
    await store.delete("ses_1");
    expect(await shelf.keys("message:")).toEqual([]);
  });

  it("writes a finished call again when compaction clears it for the model", async () => {
    const shelf = new CountingShelf();
    const store = new ShelfSessionStore(shelf);
    const session: SessionRecord = { id: "ses_1", title: "t", agent: "build", createdAt: 1, calls: [structuredClone(call)], messages: [] };
    await store.save(session);
    await store.save(session);
    session.calls[0]!.time.compacted = 9;
    await store.save(session);
    expect(shelf.writes.get("call:ses_1:call_1")).toBe(2);
    expect((await new ShelfSessionStore(shelf).load("ses_1"))?.calls[0]?.time.compacted).toBe(9);
  });

  it("loads a header that holds its messages inline (saved before they had records), and moves them out on the next save", async () => {
    const shelf = new MemoryShelf();
    await shelf.put([
      ["session:ses_1", JSON.stringify({ id: "ses_1", title: "t", agent: "build", createdAt: 1, calls: [], messages: [user, answer()] })],
      ["summary:ses_1", JSON.stringify({ id: "ses_1", title: "t", createdAt: 1, calls: 0 })],
    ]);
    const store = new ShelfSessionStore(shelf);
    const loaded = await store.load("ses_1");
    expect(loaded?.messages[0]).toEqual(user);
    expect(loaded?.messages[1]).toMatchObject({ id: "msg_2", error: { kind: "interrupted" } });
    await store.save(loaded!);
    expect(JSON.parse((await shelf.get("message:ses_1:msg_2"))!)).toMatchObject({ error: { kind: "interrupted" } });
  });
});
