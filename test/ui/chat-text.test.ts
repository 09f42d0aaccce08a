import { describe, expect, it } from "vitest";
import { fileURLOfPath, mentionAt, mimeOfPath, nextAgent, notReadyReason, secondsUntil } from "../../src/ui/chat/chat-text.js";
import { decodeEntities, safeHref } from "../../src/ui/chat/markdown-safety.js";

describe("contract: the chat's small rules", () => {
  it("an @mention is the word being typed at the caret, after a space or at the start", () => {
    expect(mentionAt("see @src/a", 10)).toEqual({ start: 4, prefix: "src/a" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, prefix: "" });
    expect(mentionAt("mail me@host", 12)).toBeUndefined();
    expect(mentionAt("see @src/a now", 14)).toBeUndefined();
  });

  it("attached files get their mime from the extension, text/plain when unknown", () => {
    expect(mimeOfPath("docs/shot.PNG")).toBe("image/png");
    expect(mimeOfPath("src/a.ts")).toBe("text/x-typescript");
    expect(mimeOfPath("Makefile")).toBe("text/plain");
    expect(mimeOfPath(".env")).toBe("text/plain");
  });

  it("a workspace path becomes a file:// URL with its characters escaped", () => {
    expect(fileURLOfPath("src/my file#1.ts")).toBe("file:///src/my%20file%231.ts");
    expect(fileURLOfPath("/abs/a.ts")).toBe("file:///abs/a.ts");
  });

  it("Tab goes to the next agent and wraps round", () => {
    const agents = [{ name: "build" }, { name: "plan" }];
    expect(nextAgent(agents, "build")).toBe("plan");
    expect(nextAgent(agents, "plan")).toBe("build");
    expect(nextAgent(agents, "gone")).toBe("build");
    expect(nextAgent([], "build")).toBeUndefined();
  });

  it("the countdown never goes below zero and rounds up", () => {
    expect(secondsUntil(10_001, 3_000)).toBe(8);
    expect(secondsUntil(1_000, 5_000)).toBe(0);
  });

  it("sending is refused with a reason until a ready model is picked", () => {
    const ready = { providerID: "openai", modelID: "gpt", name: "GPT", attachment: false, ready: true };
    expect(notReadyReason([], undefined)).toContain("No model is configured");
    expect(notReadyReason([{ ...ready, ready: false }], undefined)).toContain("No provider has a key");
    expect(notReadyReason([ready], undefined)).toContain("Pick a model");
    expect(notReadyReason([ready], ready)).toBeUndefined();
  });

  it("only http(s) and mailto links keep an href", () => {
    expect(safeHref("https://a.example/x?y=1")).toBe("https://a.example/x?y=1");
    expect(safeHref(" javascript:alert(1)")).toBeUndefined();
    expect(safeHref("java\tscript:alert(1)")).toBeUndefined();
    expect(safeHref("data:text/html,x")).toBeUndefined();
    expect(safeHref("/relative")).toBeUndefined();
    expect(safeHref("vbscript:x")).toBeUndefined();
  });

  it("character references decode once, unknown ones stay", () => {
    expect(decodeEntities("&amp;lt; &#x3c; &bogus;")).toBe("&lt; < &bogus;");
  });
});
