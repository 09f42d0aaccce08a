/**
 * question: asks the person and returns their answers. The page shows the questions where the call
 * waits; dismissing them fails the call and stops the run (as OpenCode's rejected question does).
 */
import { z } from "zod";
import { QuestionItem } from "./ports/session-services.js";
import { sessionOf } from "./ports/session-of.js";
import { Tool } from "./tool.js";
import DESCRIPTION from "./question.txt?raw";

const parameters = z.object({
  questions: z.array(QuestionItem).min(1, "Ask at least one question").describe("Questions to ask"),
});

/** OpenCode's output: every question with its answers, in order. */
function answersOutput(questions: readonly { question: string }[], answers: readonly string[][]): string {
  const pairs = questions.map((question, index) => {
    const answer = answers[index] ?? [];
    return `"${question.question}"="${answer.length > 0 ? answer.join(", ") : "Unanswered"}"`;
  });
  return `User has answered your questions: ${pairs.join(", ")}. You can now continue with the user's answers in mind.`;
}

export const QuestionTool = Tool.define("question", {
  description: DESCRIPTION.trim(),
  parameters,
  async execute(args, ctx) {
    const session = sessionOf(ctx, "question");
    // OpenCode only hides the tool from agents whose rules deny it; asking too keeps a batch or a hand-run
    // call from reaching the person on behalf of such an agent.
    await ctx.ask({ permission: "question", patterns: ["*"], always: ["*"], metadata: {} });
    const answers = await session.ask(args.questions);
    const n = args.questions.length;
    return { title: `Asked ${n} question${n > 1 ? "s" : ""}`, output: answersOutput(args.questions, answers), metadata: { answers } };
  },
});
