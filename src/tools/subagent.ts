/**
 * OpenCode V2's `subagent`: the task tool under V2's name and parameters (`agent`, `description`, `prompt`,
 * `sessionID` to continue a child; V2's `background` and `model` are not offered yet). It asks the same `task` permission (V2 rules for
 * `subagent` map onto it) and answers in V2's form, `<subagent sessionID=... state="completed">`.
 */
import { z } from "zod";
import description from "./subagent.txt?raw";
import { TaskTool } from "./task.js";
import { define } from "./tool.js";

export const subagentParameters = z.object({
  agent: z.string().describe("The name of the agent to start, from the list above"),
  description: z.string().describe("A short label (3-5 words) for the task, shown to the person"),
  prompt: z.string().describe("The task, complete and self-contained"),
  sessionID: z
    .string()
    .describe("Continue the child session with this ID (from an earlier answer) instead of starting a new one")
    .optional(),
});

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
    async execute(args: z.infer<typeof subagentParameters>, ctx) {
      const result = await task.execute(
        {
          subagent_type: args.agent,
          description: args.description,
          prompt: args.prompt,
          ...(args.sessionID === undefined ? {} : { task_id: args.sessionID }),
        },
        ctx,
      );
      const sessionID = String(result.metadata.sessionId ?? "");
      const answer = /<task_result>\n([\s\S]*)\n<\/task_result>$/.exec(result.output)?.[1] ?? result.output;
      return { ...result, output: `<subagent sessionID="${sessionID}" state="completed">\n${answer}\n</subagent>` };
    },
  };
});
