// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatStatus } from "../../src/session/chat/chat-view.js";
import type { TextPart } from "../../src/session/record/message.js";
import type { PermissionRequest } from "../../src/tools/permission/types.js";
import { ChatPane, type ChatPaneProps } from "../../src/ui/chat/ChatPane.js";
import type { ProviderKeyStatus } from "../../src/ui/chat/ProviderDialog.js";
import { callOf, layOutBoxes } from "./card-fixtures.js";
import { assistantMessage, claude, fakeChat, userMessage, type FakeChat } from "./chat-fixtures.js";

// The transcript draws only the messages in view, so the tests give the page a laid-out viewport.
beforeEach(() => layOutBoxes());

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const providers: ProviderKeyStatus[] = [
  { id: "openai", name: "OpenAI", hasKey: true },
  { id: "anthropic", name: "Anthropic", hasKey: false },
];

function pane(chat: FakeChat, overrides: Partial<ChatPaneProps> = {}) {
  const props: ChatPaneProps = {
    chat,
    prompts: () => [],
    onReply: vi.fn(),
    listFiles: async () => [],
    providers: () => providers,
    onSaveKey: vi.fn(),
    onRemoveKey: vi.fn(),
    ...overrides,
  };
  render(() => <ChatPane {...props} />);
  return props;
}

describe("contract: the transcript shows the conversation as it streams", () => {
  it("user text and attachments, then assistant text as markdown", () => {
    const chat = fakeChat({
      list: [
        userMessage("msg_u", "Fix <b>the</b> bug", [
          { id: "p_f", messageID: "msg_u", type: "file", mime: "text/x-typescript", filename: "src/a.ts", url: "file:///src/a.ts" },
        ]),
        assistantMessage("msg_a", [{ id: "p_t", messageID: "msg_a", type: "text", text: "Done: **fixed** it." }]),
      ],
    });
    pane(chat);
    const user = screen.getByTestId("user-message");
    expect(user.textContent).toContain("Fix <b>the</b> bug");
    expect(user.querySelector("b")).toBeNull();
    expect(within(user).getByTestId("message-attachment").textContent).toContain("src/a.ts");
    expect(screen.getByTestId("assistant-message").querySelector("strong")?.textContent).toBe("fixed");
  });

  it("a text delta re-renders the text, and the message's other parts stay as they were", async () => {
    const text: TextPart = { id: "p_t", messageID: "msg_a", type: "text", text: "Reading" };
    const chat = fakeChat({
      list: [
        userMessage("msg_u", "hi"),
        assistantMessage("msg_a", [{ id: "p_r", messageID: "msg_a", type: "reasoning", text: "hmm", time: { start: 1, end: 2 } }, text]),
      ],
      state: { type: "busy", step: 1 },
    });
    pane(chat);
    const reasoning = screen.getByTestId("reasoning");
    expect(screen.getByTestId("assistant-message").textContent).toContain("Reading");
    text.text = "Reading the file, then **editing**";
    chat.emit();
    // While the message streams its text is drawn once per animation frame.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const message = screen.getByTestId("assistant-message");
    expect(message.textContent).toContain("Reading the file, then editing");
    expect(message.querySelector("strong")?.textContent).toBe("editing");
    expect(screen.getByTestId("reasoning")).toBe(reasoning);
  });

  it("a new message appears when the chat says so", () => {
    const chat = fakeChat({ list: [userMessage("msg_u", "hi")] });
    pane(chat);
    const user = screen.getByTestId("user-message");
    expect(screen.queryByTestId("assistant-message")).toBeNull();
    chat.list = [...chat.list, assistantMessage("msg_a", [{ id: "p_t", messageID: "msg_a", type: "text", text: "Hello" }])];
    chat.emit();
    expect(screen.getByTestId("assistant-message").textContent).toContain("Hello");
    expect(screen.getByTestId("user-message")).toBe(user);
  });

  it("a prompt asked mid-turn shows up under its call when the chat announces the change", () => {
    const call = callOf({
      id: "call_w",
      tool: "write",
      status: "running",
      output: undefined,
      input: { filePath: "a.ts", content: "x" },
      time: { created: 1, start: 1 },
    });
    const chat = fakeChat({
      list: [
        assistantMessage("msg_a", [
          { id: "p_tool", messageID: "msg_a", type: "tool", providerCallID: "tc_1", callID: "call_w", tool: "write" },
        ]),
      ],
      state: { type: "busy", step: 1 },
    });
    chat.calls.set(call.id, call);
    const waiting: PermissionRequest[] = [];
    pane(chat, { prompts: () => waiting });
    expect(screen.queryByTestId("permission-prompt")).toBeNull();
    waiting.push({
      id: "per_w",
      sessionID: "ses_chat",
      permission: "edit",
      patterns: ["a.ts"],
      always: ["*"],
      metadata: {},
      tool: { messageID: "msg_a", callID: "call_w" },
    });
    chat.emit();
    expect(within(screen.getByTestId("tool-part")).getByTestId("permission-prompt")).toBeTruthy();
  });

  it("reasoning is folded, says it is thinking while it streams, and keeps its text inside", () => {
    const chat = fakeChat({
      list: [
        assistantMessage("msg_a", [
          { id: "p_r", messageID: "msg_a", type: "reasoning", text: "Check the tests first", time: { start: 1 } },
        ]),
      ],
      state: { type: "busy", step: 1 },
    });
    pane(chat);
    const details = screen.getByTestId("reasoning") as HTMLDetailsElement;
    expect(details.tagName).toBe("DETAILS");
    expect(details.open).toBe(false);
    expect(details.querySelector("summary")?.textContent).toContain("Thinking…");
    expect(details.textContent).toContain("Check the tests first");
    chat.state = { type: "idle" };
    chat.list[0]!.parts[0] = {
      id: "p_r",
      messageID: "msg_a",
      type: "reasoning",
      text: "Check the tests first",
      time: { start: 1, end: 3 },
    };
    (chat.list[0] as { time: { created: number; completed?: number } }).time.completed = 4;
    chat.emit();
    expect(screen.getByTestId("reasoning").querySelector("summary")?.textContent).toBe("Reasoning");
  });

  it("step summaries show tokens, cost and finish reason; errors show what they are with their hint", () => {
    const chat = fakeChat({
      list: [
        assistantMessage(
          "msg_a",
          [
            {
              id: "p_s",
              messageID: "msg_a",
              type: "step-finish",
              reason: "tool-calls",
              cost: 0.0123,
              tokens: { input: 1200, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
            },
          ],
          { error: { kind: "auth", message: "Incorrect API key provided", hint: "Check the key in Keys…", status: 401 } },
        ),
      ],
    });
    pane(chat);
    expect(screen.getByTestId("step-summary").textContent).toBe("1,200 in · 80 out · $0.01 · tool-calls");
    const error = screen.getByTestId("message-error");
    expect(error.getAttribute("data-kind")).toBe("auth");
    expect(error.textContent).toContain("The provider refused the key (401): Incorrect API key provided");
    expect(screen.getByTestId("message-error-hint").textContent).toBe("Check the key in Keys…");
  });
});

describe("contract: tool calls sit in the transcript as cards, with their prompts where they wait", () => {
  it("the tool part shows the call's card, and its pending prompt under it answers through onReply", () => {
    const call = callOf({
      id: "call_bash",
      status: "running",
      output: undefined,
      input: { command: "rm -rf build", description: "Cleans" },
      time: { created: 1, start: 1 },
    });
    const chat = fakeChat({
      list: [
        assistantMessage("msg_a", [
          { id: "p_tool", messageID: "msg_a", type: "tool", providerCallID: "tc_1", callID: "call_bash", tool: "bash" },
        ]),
      ],
      state: { type: "busy", step: 1 },
    });
    chat.calls.set(call.id, call);
    const request: PermissionRequest = {
      id: "per_1",
      sessionID: "ses_chat",
      permission: "bash",
      patterns: ["rm -rf build"],
      always: ["rm *"],
      metadata: {},
      tool: { messageID: "msg_a", callID: "call_bash" },
    };
    const props = pane(chat, { prompts: () => [request] });
    const part = screen.getByTestId("tool-part");
    expect(within(part).getByTestId("call-card").getAttribute("data-tool")).toBe("bash");
    expect(within(part).getByTestId("prompt-command").textContent).toBe("rm -rf build");
    expect(screen.queryByTestId("chat-loose-prompts")).toBeNull();
    fireEvent.click(within(part).getByRole("button", { name: "Allow once" }));
    expect(props.onReply).toHaveBeenCalledWith(request, "once", undefined, undefined);
  });

  it("the card follows its call: a finished call shows its output", () => {
    const call = callOf({ id: "call_ls", status: "running", output: undefined, time: { created: 1, start: 1 } });
    const chat = fakeChat({
      list: [
        assistantMessage("msg_a", [
          { id: "p_tool", messageID: "msg_a", type: "tool", providerCallID: "tc_1", callID: "call_ls", tool: "bash" },
        ]),
      ],
      state: { type: "busy", step: 1 },
    });
    chat.calls.set(call.id, call);
    pane(chat);
    expect(screen.getByTestId("call-state").textContent).toBe("running");
    call.status = "completed";
    call.output = "hi";
    call.time.end = 5;
    chat.emit();
    expect(screen.getByTestId("call-state").textContent).toBe("completed");
  });

  it("a prompt whose call is not in the transcript is still shown", () => {
    const request: PermissionRequest = {
      id: "per_2",
      sessionID: "ses_chat",
      permission: "edit",
      patterns: ["a.ts"],
      always: ["*"],
      metadata: {},
      tool: { messageID: "m", callID: "call_by_hand" },
    };
    pane(fakeChat({ list: [userMessage("msg_u", "hi")] }), { prompts: () => [request] });
    expect(within(screen.getByTestId("chat-loose-prompts")).getByTestId("permission-prompt")).toBeTruthy();
  });
});

describe("contract: status", () => {
  it("busy shows the step; a retry counts down to the next attempt", () => {
    vi.useFakeTimers();
    vi.setSystemTime(100_000);
    const chat = fakeChat({ state: { type: "busy", step: 3 } });
    pane(chat);
    expect(screen.getByTestId("chat-status-text").textContent).toBe("Working… step 3");
    chat.state = { type: "retry", attempt: 2, next: 107_000, message: "Rate limited: too many requests" } satisfies ChatStatus;
    chat.emit();
    expect(screen.getByTestId("chat-status-text").textContent).toBe("Retrying in 7 s (attempt 2): Rate limited: too many requests");
    vi.advanceTimersByTime(3000);
    expect(screen.getByTestId("chat-status-text").textContent).toBe("Retrying in 4 s (attempt 2): Rate limited: too many requests");
    // Announced once, not every second.
    expect(screen.getByRole("status").textContent).toBe("Retrying (attempt 2): Rate limited: too many requests");
    chat.state = { type: "idle" };
    chat.emit();
    expect(screen.getByTestId("chat-status").getAttribute("data-status")).toBe("idle");
  });

  it("Stop while busy calls the chat's stop", () => {
    const chat = fakeChat({ state: { type: "busy", step: 1 } });
    pane(chat);
    fireEvent.keyDown(screen.getByTestId("prompt-input"), { key: "Escape" });
    fireEvent.click(screen.getByTestId("stop"));
    expect(chat.stops).toBe(2);
  });
});

describe("contract: first visit and pickers", () => {
  it("with no ready model: the welcome explains, leaves the start's buttons to the desk, and Keys opens the key dialog", () => {
    const chat = fakeChat({ choices: [claude], chosen: undefined });
    pane(chat);
    const welcome = screen.getByTestId("chat-welcome");
    expect((screen.getByTestId("prompt-input") as HTMLTextAreaElement).disabled).toBe(true);
    // One place for the start (the desk's welcome): the card repeats none of its buttons.
    expect(welcome.querySelectorAll("button")).toHaveLength(0);
    expect(screen.getByTestId("chat-welcome-start").textContent).toContain("Getting started");
    fireEvent.click(screen.getByTestId("open-keys"));
    expect(screen.getByTestId("provider-dialog")).toBeTruthy();
  });

  it("with a ready model there is no welcome, and sending goes to the chat", async () => {
    const chat = fakeChat();
    pane(chat);
    expect(screen.queryByTestId("chat-welcome")).toBeNull();
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    input.value = "hello";
    fireEvent.input(input);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(chat.sent).toEqual([{ text: "hello", attachments: undefined }]);
  });

  it("models are grouped by provider with keyless ones marked; picking sets the model; Tab cycles the agent", () => {
    const chat = fakeChat();
    pane(chat);
    const picker = screen.getByTestId("model-picker") as HTMLSelectElement;
    expect([...picker.querySelectorAll("optgroup")].map((group) => group.getAttribute("label"))).toEqual(["openai", "anthropic", "local"]);
    expect(picker.querySelector('optgroup[label="anthropic"] option')?.textContent).toContain("(no key)");
    picker.value = "local/llama3";
    fireEvent.change(picker);
    expect(chat.chosen).toEqual({ providerID: "local", modelID: "llama3" });
    fireEvent.keyDown(screen.getByTestId("prompt-input"), { key: "Tab" });
    expect(chat.current).toBe("plan");
    expect((screen.getByTestId("agent-picker") as HTMLSelectElement).value).toBe("plan");
    fireEvent.keyDown(screen.getByTestId("prompt-input"), { key: "Tab" });
    expect(chat.current).toBe("build");
  });

  it("the current model without a key disables sending with a reason", () => {
    pane(fakeChat({ chosen: { providerID: "anthropic", modelID: "claude-sonnet" } }));
    expect((screen.getByTestId("prompt-input") as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByTestId("prompt-note").textContent).toContain("Claude Sonnet has no key");
  });
});
