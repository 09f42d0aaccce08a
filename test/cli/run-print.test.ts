/** The people-facing format of `workbench run`: answer on stdout, tool lines and errors on stderr. */
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import type { RunEvent } from "../../src/cli/run-events.js";
import { errorText, printer, toolLine } from "../../src/cli/run-print.js";

function toolEvent(call: Partial<ToolCall>): Extract<RunEvent, { type: "tool_use" }> {
  const state: ToolCall = {
    id: "call_1",
    sessionID: "ses_1",
    messageID: "msg_1",
    tool: "edit",
    input: {},
    status: "completed",
    title: "",
    metadata: {},
    permissions: [],
    time: { created: 1 },
    ...call,
  };
  return {
    type: "tool_use",
    timestamp: 1,
    sessionID: "ses_1",
    part: { id: "prt_1", messageID: "msg_1", type: "tool", callID: "call_1", tool: state.tool, state } as never,
  };
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
    const line = toolLine(
      toolEvent({ status: "error", input: { filePath: "/w/src/a.ts" }, error: "oldString not found\nmore detail" }),
      "/w",
    );
    expect(line).toBe("| edit  src/a.ts  error: oldString not found");
  });

  it("marks an interrupted call", () => {
    expect(toolLine(toolEvent({ tool: "bash", status: "interrupted", input: { command: "sleep 100\necho" } }), "/w")).toBe(
      "| bash  sleep 100 [+1 more line]  error: interrupted",
    );
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

// A clipboard write (OSC 52, ended by BEL), a screen clear (CSI 2J), a hidden hyperlink (OSC 8, ended by ST),
// a carriage return that would overwrite the line, and an 8-bit CSI (0x9b) with a colour.
const HOSTILE = "\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\rok\x9b31mred\x00\x7f";
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("terminal escapes in the default format", () => {
  it("strips escape sequences and control characters from a tool's title", () => {
    const line = toolLine(toolEvent({ tool: "webfetch", title: `page ${HOSTILE}` }), "/w");
    expect(line).toBe("| webfetch  page clickokred");
    expect(CONTROL.test(line)).toBe(false);
  });

  it("strips them from the model's text but keeps its newlines and tabs", () => {
    const { io, out } = capture();
    printer(
      "default",
      io,
      "/w",
    )({ type: "text", timestamp: 1, sessionID: "s", part: { id: "p1", messageID: "m", type: "text", text: `a\tb\n${HOSTILE}\nend` } });
    expect(out).toEqual(["a\tb\nclickokred\nend\n"]);
  });

  it("strips them from a failed call's error and from an error's message and hint", () => {
    const line = toolLine(toolEvent({ status: "error", title: "x", error: `bad\x1b[2J${HOSTILE}` }), "/w");
    expect(line).toBe("| edit  x  error: badclickokred");
    expect(errorText({ message: `m\x1b]0;title\x07`, hint: `h\x1b[31m` })).toBe("error: m\nh\n");
  });

  it("writes no control character in --format json, and the line still parses to the same event", () => {
    const { io, out } = capture();
    const event: RunEvent = {
      type: "text",
      timestamp: 1,
      sessionID: "s",
      part: { id: "p1", messageID: "m", type: "text", text: `${HOSTILE}\n\u0085\u009d` },
    };
    printer("json", io, "/w")(event);
    const line = out[0]!;
    expect(line.endsWith("\n")).toBe(true);
    expect(CONTROL.test(line.slice(0, -1))).toBe(false);
    expect(line.slice(0, -1).includes("\n")).toBe(false);
    expect(JSON.parse(line)).toEqual(event);
  });
});
