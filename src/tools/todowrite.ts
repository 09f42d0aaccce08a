/** todowrite: replaces the session's todo list and returns it (OpenCode's output and title). */
import { z } from "zod";
import { TodoItem, type TodoItem as Todo } from "./ports/session-services.js";
import { sessionOf } from "./ports/session-of.js";
import { Tool } from "./tool.js";
import DESCRIPTION from "./todowrite.txt?raw";

const parameters = z.object({
  todos: z.array(TodoItem).describe("The updated todo list"),
});

/** Title as OpenCode words it: how many are not completed. */
export function todoTitle(todos: readonly Todo[]): string {
  return `${todos.filter((todo) => todo.status !== "completed").length} todos`;
}

export const TodoWriteTool = Tool.define("todowrite", {
  description: DESCRIPTION.trim(),
  parameters,
  async execute(args, ctx) {
    const session = sessionOf(ctx, "todowrite");
    await ctx.ask({ permission: "todowrite", patterns: ["*"], always: ["*"], metadata: {} });
    // Items keep the id they came with; new ones, and a repeat of an id already kept, get the next free
    // number: the page keys its rows by id, and two rows with one key would show as one.
    const used = new Set(args.todos.flatMap((todo) => (todo.id !== undefined ? [todo.id] : [])));
    const kept = new Set<string>();
    let next = 1;
    const todos: Todo[] = args.todos.map((todo) => {
      if (todo.id !== undefined && !kept.has(todo.id)) {
        kept.add(todo.id);
        return { ...todo, id: todo.id };
      }
      while (used.has(String(next))) next++;
      used.add(String(next));
      return { ...todo, id: String(next) };
    });
    session.setTodos(todos);
    return { title: todoTitle(todos), output: JSON.stringify(todos, null, 2), metadata: { todos } };
  },
});
