/**
 * The preview tool: offered only where a page gives ctx.preview (never in the CLI's sessions), its
 * parameters' limits, and what the model reads back.
 */
import { describe, expect, it } from "vitest";
import { formatSnapshot, PreviewParameters } from "../../../src/tools/preview.js";
import type { PreviewAccess, PreviewSnapshot } from "../../../src/tools/ports/preview-access.js";
import { sessionWith } from "../../support/tool-session.js";

const SNAPSHOT: PreviewSnapshot = {
  path: "/index.html",
  title: "Counter",
  text: "count is 0",
  console: [{ level: "log", text: "rendered 0", source: { path: "src/App.tsx", line: 11, column: 3 } }],
  errors: [
    {
      kind: "uncaught",
      message: "Uncaught TypeError: x is undefined",
      stack:
        "TypeError: x is undefined\n    at App (src/App.tsx:12:9)\n    at render (node_modules/react-dom/cjs/react-dom.development.js:1:2)",
      source: { path: "src/App.tsx", line: 12, column: 9 },
    },
    { kind: "rejection", message: "Error: offline" },
  ],
  warnings: [],
};

describe("the preview tool", () => {
  it("is not offered to a session without a page (the CLI's)", async () => {
    const { session, dispose } = await sessionWith();
    try {
      expect(session.registry.ids()).not.toContain("preview");
    } finally {
      await dispose();
    }
  });

  it("loads through ctx.preview with the default wait, and returns sections a model reads", async () => {
    const asked: Array<[string | undefined, number]> = [];
    const preview: PreviewAccess = {
      inspect: async (path, waitMs) => {
        asked.push([path, waitMs]);
        return SNAPSHOT;
      },
    };
    const { session, dispose } = await sessionWith({}, { preview });
    try {
      expect(session.registry.ids()).toContain("preview");
      const call = await session.run("preview", {});
      expect(call.status).toBe("completed");
      expect(asked).toEqual([[undefined, 1000]]);
      expect(call.output).toContain("Title: Counter");
      expect(call.output).toContain("Uncaught TypeError: x is undefined (src/App.tsx:12:9)");
      expect(call.output).toContain("    at App (src/App.tsx:12:9)");
      expect(call.output).toContain("Unhandled rejection: Error: offline");
      expect(call.output).toContain("[log] rendered 0 (src/App.tsx:11:3)");
      expect(call.output?.trimEnd().endsWith("Visible text:\ncount is 0")).toBe(true);
    } finally {
      await dispose();
    }
  });

  it("refuses a wait over 10 s or below 0, and passes one within", () => {
    expect(PreviewParameters.safeParse({ waitMs: 10_001 }).success).toBe(false);
    expect(PreviewParameters.safeParse({ waitMs: -1 }).success).toBe(false);
    expect(PreviewParameters.safeParse({ path: "app/index.html", waitMs: 10_000 }).success).toBe(true);
  });

  it("says so when the page shows nothing and printed nothing", () => {
    const text = formatSnapshot({ ...SNAPSHOT, text: "  ", console: [], errors: [] });
    expect(text).toContain("Errors: none");
    expect(text).toContain("Console: empty");
    expect(text).toContain("(the page shows no text)");
  });
});
