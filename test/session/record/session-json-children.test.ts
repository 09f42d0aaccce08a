/**
 * Subagent sessions live inside their parent's record ("saved, exported and deleted with it"): an
 * exported and imported session, a share link or `workbench run --session-file` must keep them, or the
 * task card opens nothing and a task_id cannot be resumed.
 */
import { describe, expect, it } from "vitest";
import type { SessionRecord, ToolCall } from "../../../src/session/record/session-record.js";
import { exportSession, importSession, SessionImportError } from "../../../src/session/record/session-json.js";
import { findChild } from "../../../src/session/record/session-record.js";

function userMessage(sessionID: string, id: string, text: string) {
  return {
    id,
    sessionID,
    role: "user" as const,
    time: { created: 1 },
    agent: "general",
    model: { providerID: "test", modelID: "m" },
    parts: [{ id: `prt_${id}`, messageID: id, type: "text" as const, text }],
  };
}

function handCall(sessionID: string, id: string, status: ToolCall["status"] = "completed"): ToolCall {
  return {
    id,
    sessionID,
    messageID: `msg_for_${id}`,
    tool: "read",
    input: { filePath: "/a" },
    status,
    title: "a",
    metadata: {},
    output: "x",
    permissions: [],
    time: { created: 1, start: 1, end: 2 },
  };
}

function withChild(): SessionRecord {
  const grandchild: SessionRecord = {
    id: "ses_grand",
    title: "deeper",
    agent: "explore",
    createdAt: 3,
    calls: [handCall("ses_grand", "call_g", "running")],
    messages: [userMessage("ses_grand", "msg_g", "look")],
    parentID: "ses_child",
  };
  const child: SessionRecord = {
    id: "ses_child",
    title: "Find the word (@general subagent)",
    agent: "general",
    createdAt: 2,
    calls: [handCall("ses_child", "call_c")],
    messages: [userMessage("ses_child", "msg_c", "Read notes.txt")],
    parentID: "ses_root",
    children: [grandchild],
  };
  const task = {
    ...handCall("ses_root", "call_t"),
    tool: "task",
    metadata: { sessionId: "ses_child", subagent: "general" },
    output: "task_id: ses_child (for resuming to continue this task if needed)",
  };
  return {
    id: "ses_root",
    title: "root",
    agent: "build",
    createdAt: 1,
    calls: [task],
    messages: [userMessage("ses_root", "msg_r", "go")],
    todos: [{ content: "a", status: "pending", priority: "high", id: "1" }],
    children: [child],
  };
}

describe("session files keep the subagent sessions", () => {
  it("export then import keeps every child (at any depth) under the task_id its parent's task call names", () => {
    const imported = importSession(exportSession(withChild()));
    expect(imported.id).not.toBe("ses_root");
    const child = findChild(imported, "ses_child");
    expect(child?.parentID).toBe(imported.id);
    expect(child?.messages.map((message) => message.parts[0]!.type === "text" && message.parts[0]!.text)).toEqual(["Read notes.txt"]);
    expect(child?.calls.map((call) => call.id)).toEqual(["call_c"]);
    const grand = findChild(imported, "ses_grand");
    expect(grand?.parentID).toBe("ses_child");
    // Read back, a call that was running is interrupted, in the children too.
    expect(grand?.calls[0]!.status).toBe("interrupted");
    expect(imported.calls[0]!.metadata.sessionId).toBe("ses_child");
    expect(imported.todos).toEqual([{ content: "a", status: "pending", priority: "high", id: "1" }]);
  });

  it("refuses a file whose children nest absurdly deep or repeat an id, with an import error (not a crash)", () => {
    const file = JSON.parse(exportSession(withChild()));
    let node = file.session.children[0];
    for (let i = 0; i < 1000; i++) {
      const next = { id: `ses_n${i}`, title: "n", agent: "general", createdAt: 1, calls: [], messages: [] };
      node.children = [next];
      node = next;
    }
    expect(() => importSession(JSON.stringify(file))).toThrow(SessionImportError);
    expect(() => importSession(JSON.stringify(file))).toThrow(/nest/);
    const twice = JSON.parse(exportSession(withChild()));
    twice.session.children.push(twice.session.children[0]);
    expect(() => importSession(JSON.stringify(twice))).toThrow(/ses_child/);
  });
});
