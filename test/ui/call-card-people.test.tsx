// @vitest-environment happy-dom
/** Issue 30, items 11 and 12: what a card says while a first edit waits for the language service, and after a killed command. */
import { cleanup, render, screen } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { CallCard } from "../../src/ui/tools/CallCard.js";
import { callOf, layOutBoxes } from "./card-fixtures.js";

beforeAll(() => layOutBoxes());
afterEach(cleanup);

function mount(call: ToolCall) {
  const [version] = createSignal(0);
  return render(() => <CallCard call={call} aborted={() => false} version={version} now={() => 5_000} onAbort={() => undefined} />);
}

describe("an edit that waits for the language service says so", () => {
  it("while it runs with checkingTypes, the card explains the wait; once done, the note is gone", () => {
    const running = callOf({
      tool: "edit",
      status: "running",
      output: undefined,
      metadata: { checkingTypes: true },
      time: { created: 1_000, start: 1_000 },
    });
    mount(running);
    expect(screen.getByTestId("call-checking-types").textContent).toContain("loads the language service");
    cleanup();
    mount(callOf({ tool: "edit", status: "completed", output: "Edit applied successfully.", metadata: { diff: "" } }));
    expect(screen.queryByTestId("call-checking-types")).toBeNull();
  });
});

describe("a killed command does not wear a completed badge", () => {
  it("a timeout reads 'timed out', Stop reads 'aborted', a normal end 'completed'", () => {
    const footer = (note: string) => `partial\n\n<bash_metadata>\n${note}\n</bash_metadata>`;
    mount(callOf({ output: footer("bash tool terminated command after exceeding timeout 1000 ms"), metadata: { exit: null } }));
    expect(screen.getByTestId("call-state").textContent).toBe("timed out");
    cleanup();
    mount(callOf({ output: footer("User aborted the command"), metadata: { exit: null } }));
    expect(screen.getByTestId("call-state").textContent).toBe("aborted");
    cleanup();
    mount(callOf({ output: "fine\n", metadata: { exit: 0 } }));
    expect(screen.getByTestId("call-state").textContent).toBe("completed");
  });
});

describe("the edit tools publish that they wait for the language service", () => {
  it("diagnosticsAfterWrite sets checkingTypes before the service answers, and not for a file it does not cover", async () => {
    const { diagnosticsAfterWrite } = await import("../../src/tools/files/diagnostics.js");
    const published: unknown[] = [];
    let touched = false;
    const lsp = {
      covers: (path: string) => path.endsWith(".ts"),
      answers: () => true,
      touchFile: async () => {
        // By the time the (slow) service is asked, the card has been told.
        expect(published).toEqual([{ metadata: { checkingTypes: true } }]);
        touched = true;
      },
      diagnostics: async () => ({}),
      query: async () => null,
    };
    const ctx = { lsp, metadata: (update: unknown) => published.push(update) } as unknown as Parameters<typeof diagnosticsAfterWrite>[0];
    await diagnosticsAfterWrite(ctx, ["/workspace/a.md"]);
    expect(published).toEqual([]);
    await diagnosticsAfterWrite(ctx, ["/workspace/a.ts"]);
    expect(touched).toBe(true);
  });
});
