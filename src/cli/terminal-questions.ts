/**
 * The question tool on a terminal: `workbench run` offers it only when standard input is a terminal, and
 * then asks here, one question at a time, on stderr. An option is picked by its number (several, comma
 * separated, where the question allows), anything else is taken as the person's own answer (where the
 * question allows that), and an empty line dismisses the questions.
 */
import { createInterface } from "node:readline/promises";
import type { QuestionRequest, Questions } from "../session/host/questions.js";
import type { QuestionItem } from "../tools/ports/session-services.js";

export type LineReader = (prompt: string) => Promise<string | undefined>;

/** What a typed line means for one question: the answer, or why it cannot be one. */
export function parseAnswer(question: QuestionItem, line: string): { answer: string[] } | { retry: string } {
  const text = line.trim();
  const numbers = text.split(",").map((piece) => piece.trim());
  if (numbers.every((piece) => /^\d+$/.test(piece))) {
    const picked = numbers.map((piece) => question.options[Number(piece) - 1]);
    if (picked.some((option) => option === undefined)) return { retry: `pick a number from 1 to ${question.options.length}` };
    if (picked.length > 1 && !question.multiple) return { retry: "pick one option only" };
    return { answer: picked.map((option) => option!.label) };
  }
  if (question.custom === false) return { retry: `pick a number from 1 to ${question.options.length}` };
  return { answer: [text] };
}

function render(question: QuestionItem): string {
  const options = question.options.map((option, index) => `  ${index + 1}. ${option.label}: ${option.description}`).join("\n");
  const how = question.multiple ? "numbers, comma separated" : "a number";
  const own = question.custom === false ? "" : ", or type your own answer";
  return `\n? [${question.header}] ${question.question}\n${options}\n(${how}${own}; an empty line dismisses) > `;
}

/** Answers one request by asking on the terminal; the request is dismissed on an empty line or end of input. */
export async function answerOnTerminal(questions: Questions, request: QuestionRequest, readLine: LineReader): Promise<void> {
  const answers: string[][] = [];
  for (const question of request.questions) {
    let prompt = render(question);
    for (;;) {
      const line = await readLine(prompt);
      if (line === undefined || line.trim() === "") return questions.dismiss(request.id);
      const parsed = parseAnswer(question, line);
      if ("answer" in parsed) {
        answers.push(parsed.answer);
        break;
      }
      prompt = `(${parsed.retry}) > `;
    }
  }
  questions.reply(request.id, answers);
}

/** Asks every question of the session on the process's terminal, one request after another. */
export function askOnTerminal(questions: Questions): () => void {
  let chain = Promise.resolve();
  const off = questions.onAsked((request) => {
    chain = chain.then(async () => {
      const terminal = createInterface({ input: process.stdin, output: process.stderr });
      const closed = new Promise<undefined>((resolve) => terminal.once("close", () => resolve(undefined)));
      try {
        await answerOnTerminal(questions, request, (prompt) => Promise.race([terminal.question(prompt), closed]));
      } catch {
        // The call stopped meanwhile (Ctrl-C): its question is gone.
      } finally {
        terminal.close();
      }
    });
  });
  return off;
}
