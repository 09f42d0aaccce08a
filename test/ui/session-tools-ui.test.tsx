import { fireEvent, render, screen } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { QuestionForm } from "../../src/ui/chat/QuestionForm.js";
import { TodoList } from "../../src/ui/chat/TodoList.js";
import { stateOf } from "../../src/ui/tools/CallCard.js";

const request = {
  id: "que_1",
  sessionID: "ses_1",
  callID: "call_1",
  questions: [
    {
      question: "Which colours?",
      header: "Colours",
      multiple: true,
      options: [
        { label: "Red", description: "warm" },
        { label: "Blue", description: "cold" },
      ],
    },
    {
      question: "Go on?",
      header: "Go",
      custom: false,
      options: [
        { label: "Yes", description: "y" },
        { label: "No", description: "n" },
      ],
    },
  ],
};

describe("the session tools in the chat", () => {
  it("the checklist shows each todo with its status and the count done, and nothing without todos", () => {
    const { unmount } = render(() => (
      <TodoList
        todos={[
          { id: "1", content: "Write it", status: "completed", priority: "high" },
          { id: "2", content: "Test it", status: "in_progress", priority: "medium" },
        ]}
      />
    ));
    const items = screen.getAllByTestId("todo-item");
    expect(items.map((item) => item.getAttribute("data-status"))).toEqual(["completed", "in_progress"]);
    expect(screen.getByTestId("todo-list").textContent).toContain("1/2 done");
    unmount();
    render(() => <TodoList todos={[]} />);
    expect(screen.queryByTestId("todo-list")).toBeNull();
  });

  it("a question form sends several choices plus typed text, refuses an unanswered question, and offers no box where typing is forbidden", () => {
    const sent: string[][][] = [];
    let dismissed = 0;
    render(() => <QuestionForm request={request} onAnswer={(answers) => sent.push(answers)} onDismiss={() => dismissed++} />);
    expect(screen.getAllByTestId("question-own")).toHaveLength(1);
    fireEvent.click(screen.getByRole("checkbox", { name: /Red/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: /Blue/ }));
    fireEvent.input(screen.getByTestId("question-own"), { target: { value: "green" } });
    fireEvent.click(screen.getByTestId("question-send"));
    expect(sent).toEqual([]);
    expect(screen.getByRole("alert").textContent).toContain('Answer "Go" first');
    fireEvent.click(screen.getByRole("radio", { name: /No/ }));
    fireEvent.click(screen.getByTestId("question-send"));
    expect(sent).toEqual([[["Red", "Blue", "green"], ["No"]]]);
    fireEvent.click(screen.getByTestId("question-dismiss"));
    expect(dismissed).toBe(1);
  });

  it("a call waiting only on the person's answers says so, not that it waits for a permission", () => {
    const call = (permission: string): ToolCall => ({
      id: "c",
      sessionID: "s",
      messageID: "m",
      tool: "question",
      input: {},
      status: "running",
      title: "",
      metadata: {},
      permissions: [{ permission, patterns: [], always: [], answer: "pending" }],
      time: { created: 0 },
    });
    expect(stateOf(call("question"), false)).toBe("waiting for answer");
    expect(stateOf(call("bash"), false)).toBe("pending permission");
  });
});
