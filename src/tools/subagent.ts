/**
 * OpenCode V2's `subagent`: the task tool under V2's name and parameters (`agent`, `description`, `prompt`,
 * `sessionID` to continue a child, `background`). It asks the same `task` permission (V2 rules for
 * `subagent` map onto it) and answers in V2's form, `<subagent sessionID=... state="completed">`. In the
 * background it is asked first, then runs as a job of the session, and its answer reaches the model as a
 * notice in the same form when it ends, so the model never polls.
 */
import { z } from "zod";
import description from "./subagent.txt?raw";
import { sessionOf } from "./ports/session-of.js";
import { TaskTool } from "./task.js";
import { type Context, define } from "./tool.js";

export const subagentParameters = z.object({
  agent: z.string().describe("The name of the agent to start, from the list above"),
  description: z.string().describe("A short label (3-5 words) for the task, shown to the person"),
  prompt: z.string().describe("The task, complete and self-contained"),
  sessionID: z
    .string()
    .describe("Continue the child session with this ID (from an earlier answer) instead of starting a new one")
    .optional(),
  background: z
    .boolean()
    .describe(
      "Run the subagent in the background: this call returns at once with a job id, and its answer comes to you as a notice when it ends (do not poll)",
    )
    .optional(),
});

type SubagentArgs = z.infer<typeof subagentParameters>;

/** The child's own answer inside the task tool's output. */
function answerOf(output: string): string {
  return /<task_result>\n([\s\S]*)\n<\/task_result>$/.exec(output)?.[1] ?? output;
}

/** The V2 answer's envelope around a task's result. */
function envelope(output: string, sessionID: string): string {
  return `<subagent sessionID="${sessionID}" state="completed">\n${answerOf(output)}\n</subagent>`;
}

const UNDESCRIBED = "This subagent should only be called manually by the user.";

export const SubagentTool = define("subagent", async (init) => {
  const task = await TaskTool.init(init);
  const agents = init?.session?.subagents() ?? [];
  const list =
    agents.length > 0
      ? agents.map((agent) => `- ${agent.name}: ${agent.description ?? UNDESCRIBED}`).join("\n")
      : "(none: no subagent is available to you)";
  return {
    description: description.trim().replace("{agents}", list),
    parameters: subagentParameters,
    async execute(args: SubagentArgs, ctx) {
      const taskArgs = {
        subagent_type: args.agent,
        description: args.description,
        prompt: args.prompt,
        ...(args.sessionID === undefined ? {} : { task_id: args.sessionID }),
      };
      if (args.background === true) return startInBackground(task, taskArgs, args, ctx);
      const result = await task.execute(taskArgs, ctx);
      const sessionID = String(result.metadata.sessionId ?? "");
      return { ...result, output: envelope(result.output, sessionID) };
    },
  };
});

type TaskRun = Awaited<ReturnType<typeof TaskTool.init>>;

/**
 * Judges the call as a foreground one would be (the agent exists, the `task` permission), then hands the
 * run to the session's jobs under the job's own signal: Stop on the job, or the session's end, stops it.
 */
async function startInBackground(task: TaskRun, taskArgs: Parameters<TaskRun["execute"]>[0], args: SubagentArgs, ctx: Context) {
  const session = sessionOf(ctx, "subagent");
  const known = session.subagents().map((agent) => agent.name);
  if (!known.includes(args.agent))
    throw new Error(`Unknown agent type: ${args.agent} is not a valid agent type (subagents you may start: ${known.join(", ") || "none"})`);
  if (!ctx.jobs) throw new Error("background subagents need a session to report their end to; run it without background");
  if (ctx.extra?.bypassAgentCheck !== true)
    await ctx.ask({
      permission: "task",
      patterns: [args.agent],
      always: ["*"],
      metadata: { description: args.description, subagent_type: args.agent },
    });
  const job = await ctx.jobs.startSubagent(
    { agent: args.agent, description: args.description, cwd: ctx.directory },
    async (signal, append, named) => {
      const result = await task.execute(taskArgs, {
        ...ctx,
        abort: signal,
        // The call has returned, so its card takes no updates; the child's id goes to the job's line instead.
        metadata: (update) => {
          const id = update.metadata?.sessionId;
          if (typeof id === "string") named(id);
        },
        extra: { ...ctx.extra, bypassAgentCheck: true },
      });
      const sessionID = String(result.metadata.sessionId ?? "");
      named(sessionID);
      append(answerOf(result.output));
    },
  );
  return {
    title: args.description,
    metadata: { background: true, jobId: job.id, subagent: args.agent, outputPath: job.outputPath },
    output: `<subagent job="${job.id}" state="running">\nThe ${args.agent} subagent is working in the background as job ${job.id}. Its answer will come to you as a notice when it ends: do not poll or wait for it. Carry on with other work, or end your turn.\n</subagent>`,
  };
}
