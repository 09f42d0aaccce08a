/** The session's todo list as a checklist beside the transcript, moving as todowrite replaces it. */
import { For, Show } from "solid-js";
import type { TodoItem } from "../../tools/ports/session-services.js";

const MARK: Record<string, string> = { completed: "✓", in_progress: "▸", cancelled: "✕", pending: "○" };
/** The status is the model's own text: a name like "constructor" must not reach Object's members. */
const markOf = (status: string) => (Object.hasOwn(MARK, status) ? MARK[status]! : "•");

export function TodoList(props: { todos: readonly TodoItem[] }) {
  const done = () => props.todos.filter((todo) => todo.status === "completed").length;
  return (
    <Show when={props.todos.length > 0}>
      <details class="chat-todos" open data-testid="todo-list">
        <summary>
          Todos{" "}
          <span class="chat-todos-count">
            {done()}/{props.todos.length} done
          </span>
        </summary>
        <ul role="list">
          <For each={props.todos}>
            {(todo) => (
              <li class={`chat-todo status-${todo.status.replace(/[^a-z_]/gi, "")}`} data-testid="todo-item" data-status={todo.status}>
                <span class="chat-todo-mark" aria-hidden="true">
                  {markOf(todo.status)}
                </span>
                <span class="chat-todo-text">{todo.content}</span>
                <span class="visually-hidden">({todo.status.replace("_", " ")})</span>
                <Show when={todo.priority === "high"}>
                  <span class="chat-todo-priority" title="high priority">
                    high
                  </span>
                </Show>
              </li>
            )}
          </For>
        </ul>
      </details>
    </Show>
  );
}
