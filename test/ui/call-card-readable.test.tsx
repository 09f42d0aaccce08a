// @vitest-environment happy-dom
/** Issue 17, items 2 and 9: a call card says what happened in words, not in the model's internals. */
import { cleanup, render, screen } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { DeniedError } from "../../src/tools/permission/errors.js";
import { CallCard } from "../../src/ui/tools/CallCard.js";
import { cardTitle, deniedRules, exitLabel, functionOutputNote, splitBashMetadata } from "../../src/ui/tools/card-text.js";
import { callOf, layOutBoxes } from "./card-fixtures.js";

beforeAll(() => layOutBoxes());
afterEach(cleanup);

function mount(call: ToolCall, aborted = false) {
  const [version] = createSignal(0);
  return render(() => <CallCard call={call} aborted={() => aborted} version={version} now={() => 5_000} onAbort={() => undefined} />);
}

const lineTexts = (testId: string) => [...screen.getByTestId(testId).querySelectorAll(".vline")].map((row) => row.textContent);

describe("a failed command is not dressed as success", () => {
  it("keeps the completed state and shows the exit code beside it", () => {
    mount(callOf({ status: "completed", output: "boom\n", metadata: { exit: 2 } }));
    expect(screen.getByTestId("call-state").textContent).toBe("completed");
    expect(screen.getByTestId("call-exit-code").textContent).toBe("exit 2");
  });

  it("says 126 and 127 in words", () => {
    mount(callOf({ output: "bash: nosuch: command not found\n", metadata: { exit: 127 } }));
    expect(screen.getByTestId("call-exit-code").textContent).toBe("exit 127 · not found");
    cleanup();
    mount(callOf({ output: "bash: ./run.sh: Permission denied\n", metadata: { exit: 126 } }));
    expect(screen.getByTestId("call-exit-code").textContent).toBe("exit 126 · not executable");
  });

  it("shows nothing extra for exit 0", () => {
    mount(callOf({ output: "fine\n", metadata: { exit: 0 } }));
    expect(screen.queryByTestId("call-exit-code")).toBeNull();
  });
});

describe("raw internals are put in words", () => {
  it("an aborted bash card shows its output without the <bash_metadata> tags, and why it stopped", () => {
    const output = "partial line\n\n<bash_metadata>\nUser aborted the command\n</bash_metadata>";
    mount(callOf({ status: "completed", output, metadata: { exit: null } }), true);
    expect(lineTexts("call-output")).toEqual(["partial line"]);
    expect(screen.getByTestId("call-note").textContent).toBe("Stopped: you aborted the command.");
    expect(document.body.textContent).not.toContain("bash_metadata");
  });

  it("a timed-out bash card says the timeout in a person's units", () => {
    mount(
      callOf({
        output: "\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 120000 ms\n</bash_metadata>",
        metadata: { exit: null },
      }),
    );
    expect(screen.getByTestId("call-note").textContent).toBe("Stopped: the command ran past its timeout of 2 min.");
  });

  it("a denied card lists the rules instead of their JSON", () => {
    const error = new DeniedError([
      { permission: "bash", pattern: "*", action: "ask", source: "default" },
      { permission: "bash", pattern: "rm *", action: "deny", source: "config" },
    ]).message;
    mount(callOf({ status: "error", output: undefined, error, title: "" }));
    const rows = [...screen.getByTestId("denied-rules").querySelectorAll("li")].map((li) => [...li.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ["bash", "*", "ask"],
      ["bash", "rm *", "deny"],
    ]);
    expect(screen.getByTestId("call-error").textContent).toContain("A rule in force denies this call");
    expect(screen.getByTestId("call-error").textContent).not.toContain('"permission"');
  });

  it("a glob card is titled with its pattern (and the folder when it is not the workspace)", () => {
    mount(callOf({ tool: "glob", title: "/workspace", input: { pattern: "**/*.ts" }, output: "a.ts" }));
    expect(document.querySelector(".call-title")?.textContent).toBe("**/*.ts");
    cleanup();
    mount(callOf({ tool: "glob", title: "src", input: { pattern: "*.tsx", path: "src" }, output: "a.tsx" }));
    expect(document.querySelector(".call-title")?.textContent).toBe("*.tsx in src");
  });
});

describe("a running card says why a function's output waits", () => {
  it("notes it while a command that defines a function runs, and not after", () => {
    const running = callOf({
      status: "running",
      input: { command: "count() { for i in 1 2; do echo $i; sleep 1; done; }; count", description: "Counts" },
      output: undefined,
      metadata: { output: "" },
    });
    mount(running);
    expect(screen.getByTestId("call-function-note").textContent).toContain("arrives when the function returns");
    cleanup();
    mount(callOf({ status: "completed", input: running.input, output: "1\n2\n" }));
    expect(screen.queryByTestId("call-function-note")).toBeNull();
  });

  it("recognises both ways of defining one, and nothing else", () => {
    expect(functionOutputNote("bash", { command: "function build { make; }; build" })).toBeDefined();
    expect(functionOutputNote("bash", { command: "f(){ echo; }" })).toBeDefined();
    expect(functionOutputNote("bash", { command: "for i in 1 2; do echo $i; done" })).toBeUndefined();
    expect(functionOutputNote("bash", { command: "echo '(x)'" })).toBeUndefined();
    expect(functionOutputNote("read", { command: "f() { :; }" })).toBeUndefined();
  });
});

describe("card-text helpers", () => {
  it("leave text that is not theirs alone", () => {
    expect(splitBashMetadata("no footer <bash_metadata> here")).toEqual({ body: "no footer <bash_metadata> here", notes: [] });
    expect(deniedRules("The user rejected permission to use this specific tool call.")).toBeUndefined();
    expect(deniedRules(`${new DeniedError([]).message.slice(0, -2)}[{"permission":1}]`)).toBeUndefined();
    expect(cardTitle("grep", "TODO", { pattern: "TODO" })).toBe("TODO");
    expect(exitLabel(126, "bash: too many commands executed (>5). Raise it in Settings > Shell limits (Commands per run)")).toBe(
      "exit 126 · shell limit reached",
    );
    expect(exitLabel(137, "")).toBe("exit 137 · killed by signal 9");
    expect(exitLabel(null, "")).toBeUndefined();
  });
});
