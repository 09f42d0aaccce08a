/**
 * Issue 19's page parts fed what a careless model writes: statuses that are names of Object's own
 * members must show as unknown statuses, not break the checklist (and the chat around it).
 */
import { render, screen } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import { TodoList } from "../../src/ui/chat/TodoList.js";

describe("the todo checklist with odd statuses", () => {
  it("shows a plain bullet for statuses named like Object's members (hasOwnProperty, constructor, __proto__, toString)", () => {
    const statuses = ["hasOwnProperty", "constructor", "__proto__", "toString", "completed"];
    render(() => (
      <TodoList todos={statuses.map((status, index) => ({ id: String(index), content: `todo ${index}`, status, priority: "low" }))} />
    ));
    const marks = screen.getAllByTestId("todo-item").map((item) => item.querySelector(".chat-todo-mark")!.textContent);
    expect(marks).toEqual(["•", "•", "•", "•", "✓"]);
    expect(screen.getByTestId("todo-list").textContent).toContain("1/5 done");
  });
});
