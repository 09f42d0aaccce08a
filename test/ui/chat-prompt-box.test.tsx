// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SendInput } from "../../src/session/chat/chat-view.js";
import { PromptBox, type PromptBoxProps } from "../../src/ui/chat/PromptBox.js";

afterEach(cleanup);

function box(overrides: Partial<PromptBoxProps> = {}) {
  const sent: SendInput[] = [];
  const props: PromptBoxProps = {
    busy: () => false,
    disabledReason: () => undefined,
    acceptsImages: () => true,
    modelName: () => "GPT-5",
    agent: () => "build",
    listFiles: async () => [],
    onSend: (input) => void sent.push(input),
    onStop: vi.fn(),
    onCycleAgent: vi.fn(),
    ...overrides,
  };
  render(() => <PromptBox {...props} />);
  const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
  const type = (text: string) => {
    input.value = text;
    input.setSelectionRange(text.length, text.length);
    fireEvent.input(input);
  };
  return { sent, props, input, type };
}

describe("contract: keys in the prompt box", () => {
  it("Enter sends the text and empties the box; Shift+Enter does not send", () => {
    const { sent, input, type } = box();
    type("first line");
    const shifted = fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(shifted).toBe(true); // not prevented: the textarea adds its line break
    expect(sent).toEqual([]);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(sent).toEqual([{ text: "first line", attachments: undefined }]);
    expect(input.value).toBe("");
  });

  it("Enter with nothing typed sends nothing", () => {
    const { sent, input, type } = box();
    type("   ");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(sent).toEqual([]);
  });

  it("Escape stops a busy turn, and Stop replaces Send while busy", () => {
    const [busy, setBusy] = createSignal(false);
    const { props, input, sent, type } = box({ busy });
    fireEvent.keyDown(input, { key: "Escape" });
    expect(props.onStop).not.toHaveBeenCalled();
    setBusy(true);
    type("more");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(sent).toEqual([]);
    fireEvent.keyDown(input, { key: "Escape" });
    expect(props.onStop).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId("stop"));
    expect(props.onStop).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId("send")).toBeNull();
  });

  it("Tab switches the agent, Shift+Tab leaves the box alone", () => {
    const { props, input } = box();
    expect(input.getAttribute("aria-keyshortcuts")).toContain("Tab");
    expect(fireEvent.keyDown(input, { key: "Tab", shiftKey: true })).toBe(true);
    expect(props.onCycleAgent).not.toHaveBeenCalled();
    expect(fireEvent.keyDown(input, { key: "Tab" })).toBe(false);
    expect(props.onCycleAgent).toHaveBeenCalledTimes(1);
  });

  it("disabled, with the reason, when no model is ready", () => {
    const { input } = box({ disabledReason: () => "No provider has a key yet: add one (Keys…) to start." });
    expect(input.disabled).toBe(true);
    expect(screen.getByTestId("prompt-note").textContent).toBe("No provider has a key yet: add one (Keys…) to start.");
  });
});

describe("contract: @path completion attaches a workspace file", () => {
  it("lists files for the prefix, arrows move, Enter picks, and the file is sent as an attachment with its mime", async () => {
    const listFiles = vi.fn(async (prefix: string) =>
      ["src/app.ts", "src/logo.png", "src/util/"].filter((path) => path.startsWith(prefix)),
    );
    const { input, type, sent } = box({ listFiles });
    type("look at @src/");
    await screen.findByTestId("file-suggestions");
    expect(listFiles).toHaveBeenLastCalledWith("src/");
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(["src/app.ts", "src/logo.png", "src/util/"]);
    fireEvent.keyDown(input, { key: "ArrowDown" });
    expect(screen.getAllByRole("option")[1]!.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("look at @src/logo.png ");
    expect(screen.queryByTestId("file-suggestions")).toBeNull();
    expect(screen.getByTestId("prompt-attachment").textContent).toContain("src/logo.png");
    expect(sent).toEqual([]);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(sent).toEqual([
      { text: "look at @src/logo.png", attachments: [{ mime: "image/png", filename: "src/logo.png", url: "file:///src/logo.png" }] },
    ]);
  });

  it("Tab picks too, and Escape closes the list without stopping anything", async () => {
    const { input, type, props } = box({ listFiles: async () => ["README.md"], busy: () => false });
    type("@R");
    await screen.findByTestId("file-suggestions");
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("file-suggestions")).toBeNull();
    type("@RE");
    await screen.findByTestId("file-suggestions");
    fireEvent.keyDown(input, { key: "Tab" });
    expect(props.onCycleAgent).not.toHaveBeenCalled();
    expect(screen.getByTestId("prompt-attachment").textContent).toContain("README.md");
  });
});

describe("contract: pasting images", () => {
  const paste = (input: HTMLElement) => {
    const file = new File([new Uint8Array([137, 80, 78, 71])], "shot.png", { type: "image/png" });
    const event = new Event("paste", { bubbles: true, cancelable: true });
    Object.defineProperty(event, "clipboardData", { value: { items: [{ kind: "file", type: "image/png", getAsFile: () => file }] } });
    input.dispatchEvent(event);
    return event;
  };

  it("a model that takes no images gets a clear notice and no attachment", () => {
    const { input } = box({ acceptsImages: () => false, modelName: () => "Llama 3" });
    expect(paste(input).defaultPrevented).toBe(true);
    expect(screen.getByTestId("prompt-note").textContent).toContain("Llama 3 does not take images");
    expect(screen.queryByTestId("prompt-attachment")).toBeNull();
  });

  it("a model that takes images gets the image attached as a data: URL", async () => {
    const { input, type, sent } = box();
    paste(input);
    await waitFor(() => expect(screen.getByTestId("prompt-attachment").textContent).toContain("shot.png"));
    type("what is this?");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(sent[0]!.attachments![0]!.mime).toBe("image/png");
    expect(sent[0]!.attachments![0]!.url).toMatch(/^data:image\/png;base64,/);
  });
});
