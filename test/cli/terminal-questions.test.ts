import { describe, expect, it } from "vitest";
import { answerOnTerminal, parseAnswer } from "../../src/cli/terminal-questions.js";
import { Questions } from "../../src/session/host/questions.js";
import { Bus } from "../../src/tools/bus.js";
import { QuestionDismissedError, type QuestionItem } from "../../src/tools/ports/session-services.js";

const pick: QuestionItem = {
  question: "Which?",
  header: "Pick",
  options: [
    { label: "Red", description: "r" },
    { label: "Blue", description: "b" },
  ],
};

describe("questions on a terminal", () => {
  it("reads option numbers, several where allowed, and free text unless forbidden", () => {
    expect(parseAnswer(pick, " 2 ")).toEqual({ answer: ["Blue"] });
    expect(parseAnswer(pick, "1,2")).toEqual({ retry: "pick one option only" });
    expect(parseAnswer({ ...pick, multiple: true }, "1, 2")).toEqual({ answer: ["Red", "Blue"] });
    expect(parseAnswer(pick, "3")).toEqual({ retry: "pick a number from 1 to 2" });
    expect(parseAnswer(pick, "green please")).toEqual({ answer: ["green please"] });
    expect(parseAnswer({ ...pick, custom: false }, "green")).toEqual({ retry: "pick a number from 1 to 2" });
  });

  it("answers each question in turn, asking again after a wrong line; an empty line dismisses", async () => {
    const questions = new Questions(new Bus());
    const lines = ["9", "1", "my own"];
    const prompts: string[] = [];
    const asked = questions.ask(
      { sessionID: "s", callID: "c", questions: [pick, { ...pick, question: "And?" }] },
      new AbortController().signal,
    );
    await answerOnTerminal(questions, questions.pending()[0]!, async (prompt) => (prompts.push(prompt), lines.shift()));
    expect(await asked).toEqual([["Red"], ["my own"]]);
    expect(prompts[0]).toContain("? [Pick] Which?\n  1. Red: r\n  2. Blue: b");
    expect(prompts[1]).toBe("(pick a number from 1 to 2) > ");

    const dismissed = questions.ask({ sessionID: "s", callID: "c", questions: [pick] }, new AbortController().signal);
    await answerOnTerminal(questions, questions.pending()[0]!, async () => "");
    await expect(dismissed).rejects.toBeInstanceOf(QuestionDismissedError);
    expect(questions.pending()).toEqual([]);
  });

  it("refuses a reply with the wrong number of answers and keeps the question waiting", async () => {
    const questions = new Questions(new Bus());
    const asked = questions.ask({ sessionID: "s", callID: "c", questions: [pick] }, new AbortController().signal);
    const id = questions.pending()[0]!.id;
    expect(() => questions.reply(id, [])).toThrow("1 question(s) were asked but 0 answer(s) given");
    questions.reply(id, [["Red"]]);
    expect(await asked).toEqual([["Red"]]);
    expect(() => questions.reply(id, [["Red"]])).toThrow("no question");
  });
});
