/** todoread: the session's todo list as todowrite left it. */
import { z } from "zod";
import { sessionOf } from "./ports/session-of.js";
import { Tool } from "./tool.js";
import { todoTitle } from "./todowrite.js";
import DESCRIPTION from "./todoread.txt?raw";

const parameters = z.object({});

export const TodoReadTool = Tool.define("todoread", {
  description: DESCRIPTION.trim(),
  parameters,
  async execute(_args, ctx) {
    const session = sessionOf(ctx, "todoread");
    await ctx.ask({ permission: "todoread", patterns: ["*"], always: ["*"], metadata: {} });
    const todos = session.todos();
    return { title: todoTitle(todos), output: JSON.stringify(todos, null, 2), metadata: { todos } };
  },
});
