// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@solidjs/testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../src/session/record/message.js";
import type { PermissionRequest } from "../../src/tools/permission/types.js";
import { ChatPane, type ChatPaneProps } from "../../src/ui/chat/ChatPane.js";
import { callOf, layOutBoxes } from "./card-fixtures.js";
import { assistantMessage, fakeChat, userMessage, type FakeChat } from "./chat-fixtures.js";

// Every box reports 400 px, so the transcript's viewport holds one message and each message measures 400 px.
const VIEW_PX = 400;
beforeEach(() => layOutBoxes(VIEW_PX));
afterEach(cleanup);

const MESSAGES = 500;

/** A conversation of `count` messages, user and assistant by turns, each saying its own number. */
function longChat(count: number): FakeChat {
  const list: Message[] = Array.from({ length: count }, (_, n) =>
    n % 2 === 0
      ? userMessage(`msg_${n}`, `question ${n}`)
      : assistantMessage(`msg_${n}`, [{ id: `p_${n}`, messageID: `msg_${n}`, type: "text", text: `answer ${n}` }]),
  );
  return fakeChat({ list });
}

function pane(chat: FakeChat, prompts: () => readonly PermissionRequest[] = () => []) {
  const props: ChatPaneProps = {
    chat,
    prompts,
    onReply: vi.fn(),
    listFiles: async () => [],
    providers: () => [{ id: "openai", name: "OpenAI", hasKey: true }],
    onSaveKey: vi.fn(),
    onRemoveKey: vi.fn(),
  };
  render(() => <ChatPane {...props} />);
}

const drawnMessages = () => document.querySelectorAll("[data-testid=user-message], [data-testid=assistant-message]");
const drawnTexts = () => [...drawnMessages()].map((message) => message.textContent ?? "");

function scrollTo(top: number) {
  const box = screen.getByTestId("chat-transcript");
  box.scrollTop = top;
  fireEvent.scroll(box);
}

describe("the transcript draws only the messages near the view", () => {
  it("a 500-message conversation keeps a bounded number of messages in the page", () => {
    pane(longChat(MESSAGES));
    expect(screen.getByTestId("chat-transcript").dataset.messages).toBe(String(MESSAGES));
    const drawn = drawnMessages().length;
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThanOrEqual(20);
  });

  it("scrolling to the end draws the last messages, and back to the top draws the first one again", () => {
    pane(longChat(MESSAGES));
    scrollTo((MESSAGES - 1) * VIEW_PX);
    expect(drawnTexts()).toContain(`answer ${MESSAGES - 1}`);
    expect(drawnTexts()).not.toContain("question 0");
    expect(drawnMessages().length).toBeLessThanOrEqual(20);
    scrollTo(0);
    expect(drawnTexts()).toContain("question 0");
    expect(drawnTexts()).not.toContain(`answer ${MESSAGES - 1}`);
    expect(drawnMessages().length).toBeLessThanOrEqual(20);
  });

  it("a call waiting for permission stays drawn with its prompt, however far the view is from it", () => {
    const chat = longChat(MESSAGES);
    const call = callOf({
      id: "call_w",
      tool: "write",
      status: "running",
      output: undefined,
      input: { filePath: "a.ts", content: "x" },
      time: { created: 1, start: 1 },
    });
    chat.calls.set(call.id, call);
    chat.list[MESSAGES - 1] = assistantMessage(`msg_${MESSAGES - 1}`, [
      { id: "p_tool", messageID: `msg_${MESSAGES - 1}`, type: "tool", providerCallID: "tc_1", callID: "call_w", tool: "write" },
    ]);
    const waiting: PermissionRequest[] = [
      {
        id: "per_w",
        sessionID: "ses_chat",
        permission: "edit",
        patterns: ["a.ts"],
        always: ["*"],
        metadata: {},
        tool: { messageID: `msg_${MESSAGES - 1}`, callID: "call_w" },
      },
    ];
    pane(chat, () => waiting);
    scrollTo(0);
    expect(drawnTexts()).toContain("question 0");
    expect(within(screen.getByTestId("tool-part")).getByTestId("permission-prompt")).toBeTruthy();
    expect(screen.queryByTestId("chat-loose-prompts")).toBeNull();
  });

  it("a reasoning fold opened, scrolled away and drawn again is still open", () => {
    const chat = longChat(MESSAGES);
    chat.list[1] = assistantMessage(
      "msg_1",
      [{ id: "p_r", messageID: "msg_1", type: "reasoning", text: "Look at the tests", time: { start: 1, end: 2 } }],
      { time: { created: 2, completed: 3 } },
    );
    pane(chat);
    scrollTo(0);
    const fold = screen.getByTestId("reasoning") as HTMLDetailsElement;
    fold.open = true;
    fireEvent(fold, new Event("toggle"));
    scrollTo((MESSAGES - 1) * VIEW_PX);
    expect(screen.queryByTestId("reasoning")).toBeNull();
    scrollTo(0);
    const again = screen.getByTestId("reasoning") as HTMLDetailsElement;
    expect(again).not.toBe(fold);
    expect(again.open).toBe(true);
  });

  it("a message that changed while scrolled out of view shows its new text when drawn again", async () => {
    const chat = longChat(MESSAGES);
    const last = chat.list[MESSAGES - 1]!;
    pane(chat);
    scrollTo((MESSAGES - 1) * VIEW_PX);
    expect(drawnTexts()).toContain(`answer ${MESSAGES - 1}`);
    scrollTo(0);
    // What read the message is gone; its memo is let go a microtask later.
    await Promise.resolve();
    chat.list[MESSAGES - 1] = assistantMessage(last.id, [
      { id: `p_${MESSAGES - 1}`, messageID: last.id, type: "text", text: "answer rewritten" },
    ]);
    chat.emit();
    scrollTo((MESSAGES - 1) * VIEW_PX);
    expect(drawnTexts()).toContain("answer rewritten");
  });

  it("follows new messages at the end, and stops following once the person scrolls up", async () => {
    const chat = longChat(50);
    pane(chat);
    const box = screen.getByTestId("chat-transcript");
    // happy-dom lays nothing out: the scroll height is the virtual rows' height.
    Object.defineProperty(box, "scrollHeight", {
      configurable: true,
      get: () => parseFloat((box.firstElementChild as HTMLElement).style.height),
    });
    const frames = () => new Promise((resolve) => setTimeout(resolve, 50));
    chat.list.push(userMessage("msg_new", "one more question"));
    chat.emit();
    await frames();
    expect(box.scrollTop).toBe(box.scrollHeight);
    fireEvent.scroll(box);
    expect(drawnTexts()).toContain("one more question");
    fireEvent.wheel(box);
    scrollTo(0);
    chat.list.push(userMessage("msg_later", "a later question"));
    chat.emit();
    await frames();
    expect(box.scrollTop).toBe(0);
    expect(drawnTexts()).toContain("question 0");
    expect(drawnTexts()).not.toContain("a later question");
  });
});
