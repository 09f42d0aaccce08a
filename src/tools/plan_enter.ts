/** plan_enter: asks the person, then hands the session to the plan agent with the plan file's path. */
import { z } from "zod";
import { sessionOf } from "./ports/session-of.js";
import { QuestionDismissedError } from "./ports/session-services.js";
import { Tool } from "./tool.js";
import DESCRIPTION from "./plan_enter.txt?raw";

const parameters = z.object({});

export const PlanEnterTool = Tool.define("plan_enter", {
  description: DESCRIPTION.trim(),
  parameters,
  async execute(_args, ctx) {
    const session = sessionOf(ctx, "plan_enter");
    // Refused before the person is asked: a subagent turned primary would shed its session's limits.
    if (session.isSubagent())
      throw new Error(
        "plan_enter switches the main session's agent; a subagent cannot call it: finish the task you were given and answer with your result instead.",
      );
    // Denied to every agent but the one it belongs to; asked (not only hidden) so a batch cannot reach it.
    await ctx.ask({ permission: "plan_enter", patterns: ["*"], always: ["*"], metadata: {} });
    const plan = session.planPath();
    const [answer] = await session.ask([
      {
        question: `Would you like to switch to the plan agent and write a plan at ${plan} before changing anything?`,
        header: "Plan Agent",
        options: [
          { label: "Yes", description: "Switch to the plan agent: it only reads and writes the plan" },
          { label: "No", description: "Stay with the build agent" },
        ],
        custom: false,
      },
    ]);
    if (answer?.[0] !== "Yes") throw new QuestionDismissedError();
    session.switchAgent(
      "plan",
      `The user asked to plan first. You are the plan agent now: read what you need, then write the plan to ${plan} (the only file you may edit). Call plan_exit when it is complete.`,
    );
    return {
      title: "Switching to plan agent",
      output: `User approved switching to the plan agent. Write the plan at ${plan}.`,
      metadata: { plan },
    };
  },
});
