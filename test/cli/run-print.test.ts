/** The people-facing format of `workbench run`: answer on stdout, tool lines and errors on stderr. */
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/calls.js";
import type { RunEvent } from "../../src/cli/run-events.js";
import { printer, toolLine } from "../../src/cli/run-print.js";

function toolEvent(call: Partial<ToolCall>): Extract<RunEvent, { type: "tool_use" }> {
  const state: ToolCall = {
    id: "call_1", sessionID: "ses_1", messageID: "msg_1", tool: "edit", input: {}, status: "completed", title: "", metadata: {},
    permissions: [], time: { created: 1 }, ...call,
  };
  return { type: "tool_use", timestamp: 1, sessionID: "ses_1", part: { id: "prt_1", messageID: "msg_1", type: "tool", callID: "call_1", tool: state.tool, state } as never };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), stdin: async () => "" }, out, err };
}

describe("toolLine", () => {
  it("names the tool and its title", () => {
    expect(toolLine(toolEvent({ tool: "read", title: "src/a.ts" }), "/w")).toBe("| read  src/a.ts");
  });

  it("marks a failed call with the first line of its error, naming its file relative to the folder", () => {
    const line = toolLine(toolEvent({ status: "error", input: { filePath: "/w/src/a.ts" }, error: "oldString not found\nmore detail" }), "/w");
    expect(line).toBe("| edit  src/a.ts  error: oldString not found");
  });

  it("marks an interrupted call", () => {
    expect(toolLine(toolEvent({ tool: "bash", status: "interrupted", input: { command: "sleep 100\necho" } }), "/w")).toBe("| bash  sleep 100  error: interrupted");
  });
});

describe("printer", () => {
  it("puts text on stdout and errors with their hint on stderr by default", () => {
    const { io, out, err } = capture();
    const print = printer("default", io, "/w");
    print({ type: "step_start", timestamp: 1, sessionID: "s", part: { id: "p0", messageID: "m", type: "step-start" } as never });
    print({ type: "text", timestamp: 1, sessionID: "s", part: { id: "p1", messageID: "m", type: "text", text: "  Done.\n" } });
    print({ type: "error", timestamp: 1, sessionID: "s", error: { kind: "auth", message: "bad key", hint: "Set OPENAI_API_KEY." } });
    expect(out).toEqual(["Done.\n"]);
    expect(err).toEqual(["error: bad key\nSet OPENAI_API_KEY.\n"]);
  });

  it("prints every event as one JSON line on stdout with --format json", () => {
    const { io, out, err } = capture();
    const event: RunEvent = { type: "text", timestamp: 5, sessionID: "s", part: { id: "p1", messageID: "m", type: "text", text: "a\nb" } };
    printer("json", io, "/w")(event);
    expect(err).toEqual([]);
    expect(out).toHaveLength(1);
    expect(out[0]!.endsWith("\n")).toBe(true);
    expect(out[0]!.trimEnd().includes("\n")).toBe(false);
    expect(JSON.parse(out[0]!)).toEqual(event);
  });
});
