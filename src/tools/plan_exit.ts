/** plan_exit: asks the person whether the plan is done, then hands the session to the build agent. */
import { z } from "zod";
import { sessionOf } from "./ports/session-of.js";
import { QuestionDismissedError } from "./ports/session-services.js";
import { Tool } from "./tool.js";
import DESCRIPTION from "./plan_exit.txt?raw";

const parameters = z.object({});

export const PlanExitTool = Tool.define("plan_exit", {
  description: DESCRIPTION.trim(),
  parameters,
  async execute(_args, ctx) {
    const session = sessionOf(ctx, "plan_exit");
    // Refused before the person is asked: a subagent turned primary would shed its session's limits.
    if (session.isSubagent())
      throw new Error(
        "plan_exit switches the main session's agent; a subagent cannot call it: finish the task you were given and answer with your result instead.",
      );
    // Denied to every agent but the one it belongs to; asked (not only hidden) so a batch cannot reach it.
    await ctx.ask({ permission: "plan_exit", patterns: ["*"], always: ["*"], metadata: {} });
    const plan = session.planPath();
    const [answer] = await session.ask([
      {
        question: `Plan at ${plan} is complete. Would you like to switch to the build agent and start implementing?`,
        header: "Build Agent",
        options: [
          { label: "Yes", description: "Switch to the build agent and start implementing the plan" },
          { label: "No", description: "Stay with the plan agent to keep refining the plan" },
        ],
        custom: false,
      },
    ]);
    if (answer?.[0] !== "Yes") throw new QuestionDismissedError();
    session.switchAgent("build", `The plan at ${plan} has been approved, you can now edit files. Execute the plan`);
    return {
      title: "Switching to build agent",
      output: "User approved switching to build agent. Wait for further instructions.",
      metadata: { plan },
    };
  },
});
