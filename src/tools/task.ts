/**
 * task: starts a subagent in a child session (or continues one by task_id) and returns its last text,
 * with the child's session id so the model can resume it. The child runs the same loop with its agent's
 * rules and model; the session layer does that (Context.session.task).
 */
import { z } from "zod";
import { sessionOf } from "./ports/session-of.js";
import { Tool, type Initialized } from "./tool.js";
import DESCRIPTION from "./task.txt?raw";

export const parameters = z.object({
  description: z.string().describe("A short (3-5 words) description of the task"),
  prompt: z.string().describe("The task for the agent to perform"),
  subagent_type: z.string().describe("The type of specialized agent to use for this task"),
  task_id: z
    .string()
    .optional()
    .describe("Set only to resume a previous task: the task_id a previous call returned, to continue the same subagent session"),
  command: z.string().optional().describe("The command that triggered this task"),
});

const UNDESCRIBED = "This subagent should only be called manually by the user.";

export const TaskTool = Tool.define("task", async (init): Promise<Initialized<typeof parameters>> => {
  const agents = init?.session?.subagents() ?? [];
  const list =
    agents.length > 0
      ? agents.map((agent) => `- ${agent.name}: ${agent.description ?? UNDESCRIBED}`).join("\n")
      : "(none: no subagent is available to you)";
  return {
    description: DESCRIPTION.trim().replace("{agents}", list),
    parameters,
    async execute(args, ctx) {
      const session = sessionOf(ctx, "task");
      const known = session.subagents().map((agent) => agent.name);
      if (!known.includes(args.subagent_type)) {
        throw new Error(
          `Unknown agent type: ${args.subagent_type} is not a valid agent type (subagents you may start: ${known.join(", ") || "none"})`,
        );
      }
      if (ctx.extra?.bypassAgentCheck !== true) {
        await ctx.ask({
          permission: "task",
          patterns: [args.subagent_type],
          always: ["*"],
          metadata: { description: args.description, subagent_type: args.subagent_type },
        });
      }
      let calls = 0;
      const result = await session.task(
        {
          description: args.description,
          prompt: args.prompt,
          subagent: args.subagent_type,
          ...(args.task_id !== undefined ? { taskID: args.task_id } : {}),
        },
        (progress) => {
          calls = progress.calls;
          ctx.metadata({
            title: args.description,
            metadata: {
              sessionId: progress.sessionID,
              subagent: args.subagent_type,
              calls: progress.calls,
              ...(progress.tool ? { tool: progress.tool } : {}),
              ...(progress.callID ? { childCallID: progress.callID } : {}),
              ...(progress.asking ? { asking: true } : {}),
            },
          });
        },
        ctx.abort,
      );
      return {
        title: args.description,
        metadata: { sessionId: result.sessionID, model: result.model, subagent: args.subagent_type, calls },
        output: `task_id: ${result.sessionID} (for resuming to continue this task if needed)\n\n<task_result>\n${result.text}\n</task_result>`,
      };
    },
  };
});
