/**
 * The preview frame runs the workspace's code: what it posts to the page is checked before it is used.
 * Anything outside the few shapes the page expects is dropped (the host ignores a failed parse).
 */
import { describe, expect, it } from "vitest";
import { FrameMessage } from "../../src/workspace/preview/frame-messages.js";

describe("messages from the preview frame", () => {
  it("accepts the shapes the frame sends", () => {
    expect(
      FrameMessage.safeParse({ type: "console", level: "log", text: "hi", source: { path: "a.js", line: 1, column: 2 } }).success,
    ).toBe(true);
    expect(FrameMessage.safeParse({ type: "fetch", id: 1, path: "/data.json" }).success).toBe(true);
    // A hot update's two signals carry nothing but numbers: a frame that forges them gets only what its
    // own page is sent anyway (its modules, which it has already), never another file.
    expect(FrameMessage.safeParse({ type: "hot-ready" }).success).toBe(true);
    expect(FrameMessage.safeParse({ type: "hot-done", id: 3, roots: 1, failed: true }).success).toBe(true);
  });

  it("drops unknown types, wrong fields and oversized payloads", () => {
    for (const attack of [
      null,
      "console",
      { type: "eval", code: "alert(1)" },
      { type: "console", level: "trace", text: "x" },
      { type: "console", level: "log", text: 42 },
      { type: "fetch", id: "1", path: "/x" },
      { type: "navigate", path: "x".repeat(5000) },
      { type: "console", level: "log", text: "x".repeat(20_001) },
      { type: "snapshot", id: 1, title: "t" },
      { type: "hot-done", id: "3", roots: 1 },
      { type: "hot-done", id: 3, roots: 1.5 },
      { type: "hot-done", id: 3 },
      { type: "hot-done", id: 3, roots: 1, failed: "no" },
    ]) {
      expect(FrameMessage.safeParse(attack).success).toBe(false);
    }
  });
});
