import { describe, expect, it } from "vitest";
import { AssistantMessage, UserMessage } from "../../../src/session/record/message.js";
import { newAssistantMessage, newUserMessage } from "../../../src/session/record/new-message.js";
import { sessionTitleFrom } from "../../../src/session/record/session-title.js";

describe("new messages", () => {
  const model = { providerID: "p", modelID: "m" };

  it("a user message of one text part passes the record's own schema, its part naming it", () => {
    const user = newUserMessage({ sessionID: "ses_1", agent: "build", model, text: "hi", synthetic: true });
    expect(UserMessage.safeParse(user).success).toBe(true);
    expect(user.parts).toEqual([{ id: user.parts[0]!.id, messageID: user.id, type: "text", text: "hi", synthetic: true }]);
    expect(newUserMessage({ sessionID: "ses_1", agent: "build", model, text: "hi" }).parts[0]).not.toHaveProperty("synthetic");
  });

  it("an assistant message starts empty, and a failed one is complete with its error", () => {
    const open = newAssistantMessage({ sessionID: "ses_1", parentID: "msg_1", agent: "build", model });
    expect(AssistantMessage.safeParse(open).success).toBe(true);
    expect(open.time.completed).toBeUndefined();
    expect([open.parts, open.cost, open.tokens.input]).toEqual([[], 0, 0]);
    const failed = newAssistantMessage({
      sessionID: "ses_1",
      parentID: "msg_1",
      agent: "build",
      model,
      error: { kind: "aborted", message: "Stopped." },
    });
    expect(AssistantMessage.safeParse(failed).success).toBe(true);
    expect(failed.time.completed).toBe(failed.time.created);
    expect(failed.id).not.toBe(open.id);
  });
});

describe("session titles", () => {
  it("take the first non-blank line, cut to 60 characters with an ellipsis", () => {
    expect(sessionTitleFrom("\n  Fix the build\nthen test")).toBe("Fix the build");
    const long = "x".repeat(80);
    expect(sessionTitleFrom(long)).toBe(`${"x".repeat(59)}…`);
    expect(sessionTitleFrom(long).length).toBe(60);
    expect(sessionTitleFrom("y".repeat(60))).toBe("y".repeat(60));
  });
});
