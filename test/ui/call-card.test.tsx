// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import type { SavedOutput } from "../../src/page/page-tools.js";
import type { FilePart } from "../../src/tools/tool.js";
import { CallCard } from "../../src/ui/tools/CallCard.js";
import { callOf, layOutBoxes } from "./card-fixtures.js";

beforeAll(() => layOutBoxes());
afterEach(cleanup);

function mount(
  call: ToolCall,
  options: { aborted?: boolean; now?: number; onAbort?: (id: string) => void; readSaved?: (path: string) => Promise<SavedOutput> } = {},
) {
  const [version, bump] = createSignal(0, { equals: false });
  const result = render(() => (
    <CallCard
      call={call}
      aborted={() => options.aborted ?? false}
      version={version}
      now={() => options.now ?? 5_000}
      onAbort={options.onAbort ?? (() => undefined)}
      readSaved={options.readSaved}
    />
  ));
  return { ...result, update: () => bump(0) };
}

const stateText = () => screen.getByTestId("call-state").textContent;
const lineTexts = (testId: string) => [...screen.getByTestId(testId).querySelectorAll(".vline")].map((row) => row.textContent);

describe("contract: a card shows its call in every state", () => {
  it("pending: the state, the time since it was created, and an Abort button that names the call", () => {
    const onAbort = vi.fn();
    const call = callOf({ status: "pending", time: { created: 1_000 } });
    mount(call, { now: 3_500, onAbort });
    expect(stateText()).toBe("pending");
    expect(screen.getByTestId("call-time").textContent).toBe("2.5 s");
    fireEvent.click(screen.getByRole("button", { name: "Abort" }));
    expect(onAbort).toHaveBeenCalledWith(call.id);
  });

  it("running: live output shows as lines and grows as the record changes", () => {
    const call = callOf({ status: "running", metadata: { output: "one\ntwo\n" }, time: { created: 1_000, start: 1_000 } });
    const { update } = mount(call);
    expect(stateText()).toBe("running");
    expect(lineTexts("call-live")).toEqual(["one", "two"]);
    call.metadata = { output: "one\ntwo\nthree\n" };
    update();
    expect(lineTexts("call-live")).toEqual(["one", "two", "three"]);
    expect(screen.queryByTestId("call-output")).toBeNull();
  });

  it("running past the live limit: the latest lines, after a line saying how much came before", () => {
    const call = callOf({
      status: "running",
      metadata: { output: `${"x".repeat(30)}\n\n...`, tail: "ial line\n9998\n9999\n", tailOffset: 48_870 },
      time: { created: 1_000, start: 1_000 },
    });
    mount(call);
    expect(lineTexts("call-live")).toEqual(["9998", "9999"]);
    expect(screen.getByTestId("call-live-skipped").textContent).toBe(
      "Showing the latest output: 48,870 earlier characters are not shown live (the whole output is kept).",
    );
  });

  it("running with an unanswered permission reads as pending permission", () => {
    mount(callOf({ status: "running", permissions: [{ permission: "bash", patterns: ["rm x"], always: ["rm *"], answer: "pending" }] }));
    expect(stateText()).toBe("pending permission");
  });

  it("waiting for permission before the tool titled it: named from its input, input unfolded, a link to the prompt", () => {
    mount(
      callOf({
        status: "running",
        title: "",
        input: { command: "rm -rf build", description: "Clean the build" },
        permissions: [{ permission: "bash", patterns: ["rm -rf build"], always: ["rm *"], answer: "pending" }],
      }),
    );
    expect(document.querySelector(".call-title")?.textContent).toBe("Clean the build");
    expect(document.querySelector<HTMLDetailsElement>("details.call-input")?.open).toBe(true);
    expect(screen.getByTestId("card-show-prompt").textContent).toContain("show the prompt");
  });

  it("once answered, the input folds again and the link goes", () => {
    mount(callOf({ title: "Says hi" }));
    expect(document.querySelector<HTMLDetailsElement>("details.call-input")?.open).toBe(false);
    expect(screen.queryByTestId("card-show-prompt")).toBeNull();
  });

  it("completed: the output, the exit code and no Abort button", () => {
    mount(callOf({ output: "hello\nworld", metadata: { exit: 0, output: "hello\nworld" } }));
    expect(stateText()).toBe("completed");
    expect(lineTexts("call-output")).toEqual(["hello", "world"]);
    expect(screen.getByTestId("call-exit").textContent).toBe("exit 0");
    expect(screen.queryByRole("button", { name: "Abort" })).toBeNull();
    expect(screen.queryByTestId("call-live")).toBeNull();
  });

  it("error: the error message, and no output box", () => {
    mount(callOf({ status: "error", error: "File not found: /workspace/nope.txt" }));
    expect(stateText()).toBe("error");
    expect(screen.getByTestId("call-error").textContent).toBe("File not found: /workspace/nope.txt");
    expect(screen.queryByTestId("call-output")).toBeNull();
  });

  it("interrupted: a call cut short by a reload says so", () => {
    mount(callOf({ status: "interrupted", error: "Interrupted: the page was closed" }));
    expect(stateText()).toBe("interrupted");
    expect(screen.getByTestId("call-error").textContent).toContain("Interrupted");
  });

  it("aborted: a call the user aborted reads as aborted even though bash completed it, with exit none", () => {
    mount(callOf({ output: "partial\n\n<bash_metadata>\nUser aborted the command\n</bash_metadata>", metadata: { exit: null } }), {
      aborted: true,
    });
    expect(stateText()).toBe("aborted");
    expect(screen.getByTestId("call-exit").textContent).toBe("exit none (killed)");
  });

  it("a rejected permission is spelled out with the user's message", () => {
    mount(
      callOf({
        status: "error",
        error: "rejected",
        permissions: [{ permission: "edit", patterns: ["a.txt"], always: ["*"], answer: "reject", message: "not now" }],
      }),
    );
    expect(screen.getByTestId("call-rejection").textContent).toBe('Rejected by the user: edit a.txt — "not now"');
  });
});

describe("contract: long output is virtualised", () => {
  it("a 10,000-line output creates only the rows in view, not 10,000", () => {
    const output = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`).join("\n");
    mount(callOf({ output }));
    const box = screen.getByTestId("call-output");
    expect(box.getAttribute("data-lines")).toBe("10000");
    const rows = lineTexts("call-output");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]).toBe("line 1");
  });
});

describe("contract: truncated output", () => {
  const saved = (text: string): SavedOutput => ({ path: "/data/tool-output/tool_1", text, size: text.length, complete: true });

  it("shows the notice and opens the saved file through readSaved, in a virtual list", async () => {
    const readSaved = vi.fn(async () => saved("a\nb\nlast line\n"));
    mount(callOf({ output: "...preview...", metadata: { truncated: true, outputPath: "/data/tool-output/tool_1" } }), { readSaved });
    expect(screen.getByTestId("call-truncated").textContent).toContain("/data/tool-output/tool_1");
    fireEvent.click(screen.getByRole("button", { name: "Open full output" }));
    expect(readSaved).toHaveBeenCalledWith("/data/tool-output/tool_1");
    await waitFor(() => expect(screen.getByTestId("saved-output-lines").getAttribute("data-lines")).toBe("3"));
    expect(lineTexts("saved-output-lines")).toEqual(["a", "b", "last line"]);
    expect(screen.getByRole("button", { name: "Download" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Hide full output" }).getAttribute("aria-expanded")).toBe("true");
  });

  it("finds the saved path in the notice text when the metadata does not carry it", async () => {
    const readSaved = vi.fn(async () => saved("x"));
    mount(
      callOf({
        output:
          "kept\n\n...5 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: /data/tool-output/tool_2\n",
        metadata: { truncated: true },
      }),
      { readSaved },
    );
    fireEvent.click(screen.getByRole("button", { name: "Open full output" }));
    expect(readSaved).toHaveBeenCalledWith("/data/tool-output/tool_2");
  });

  it("shows why when the saved output cannot be read", async () => {
    const readSaved = vi.fn(async () => {
      throw new Error("The saved output /data/tool-output/tool_1 no longer exists");
    });
    mount(callOf({ output: "x", metadata: { truncated: true, outputPath: "/data/tool-output/tool_1" } }), { readSaved });
    fireEvent.click(screen.getByRole("button", { name: "Open full output" }));
    await waitFor(() => expect(screen.getByTestId("saved-output-error").textContent).toContain("no longer exists"));
  });

  it("an untruncated call has neither notice nor button", () => {
    mount(callOf({ output: "short", metadata: { truncated: false } }), { readSaved: async () => saved("") });
    expect(screen.queryByTestId("call-truncated")).toBeNull();
    expect(screen.queryByRole("button", { name: "Open full output" })).toBeNull();
  });
});

describe("security: attachments and output never become markup", () => {
  const part = (mime: string, url: string, filename?: string): FilePart => ({
    id: "p",
    sessionID: "s",
    messageID: "m",
    type: "file",
    mime,
    url,
    filename,
  });

  it("a data:image attachment is an <img> whose alt text is the file name", () => {
    mount(
      callOf({
        tool: "read",
        output: "Image read successfully",
        attachments: [part("image/png", "data:image/png;base64,iVBORw0KGgo=", "logo.png")],
      }),
    );
    const image = screen.getByTestId("attachment-image") as HTMLImageElement;
    expect(image.getAttribute("src")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(image.getAttribute("alt")).toBe("logo.png");
  });

  it("other schemes and non-image data are listed by name and type, never put in an <img>", () => {
    mount(
      callOf({
        attachments: [
          part("image/png", "javascript:alert(1)", "a.png"),
          part("image/png", "https://example.com/x.png", "b.png"),
          part("image/svg+xml", "data:text/html;base64,PHNjcmlwdD4=", "c.svg"),
          part("application/pdf", "data:application/pdf;base64,JVBERi0=", "doc.pdf"),
        ],
      }),
    );
    expect(document.querySelectorAll("img")).toHaveLength(0);
    const listed = screen.getAllByTestId("attachment-file").map((item) => item.textContent);
    expect(listed).toEqual(["a.png (image/png)", "b.png (image/png)", "c.svg (image/svg+xml)", "doc.pdf (application/pdf)"]);
  });

  it("markup in output, live output, title and error stays text: no element is created", () => {
    const markup = '<img src=x onerror="alert(1)"><script>alert(2)</script><b>bold</b>';
    const { container, unmount } = mount(callOf({ title: markup, output: markup, error: markup, status: "error" }));
    expect(container.querySelector("img, script, b")).toBeNull();
    expect(lineTexts("call-output")).toEqual([markup]);
    expect(screen.getByTestId("call-error").textContent).toBe(markup);
    unmount();
    const live = mount(callOf({ status: "running", metadata: { output: markup } }));
    expect(live.container.querySelector("img, script, b")).toBeNull();
    expect(lineTexts("call-live")).toEqual([markup]);
  });
});
