import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { CONTINUE_TEXT, SUMMARY_PROMPT } from "../../../src/session/loop/compaction.js";
import { ScriptedLanguageModel, type Script } from "../../../src/session/provider/scripted.js";
import { CLEARED_OUTPUT, COMPACTION_QUESTION } from "../../../src/session/loop/to-model-messages.js";
import { loopOnce, mockModel, promptText, resolved, streamStep } from "../../support/loop.js";
import { sessionWith } from "../../support/tool-session.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

const lines = (word: string) => Array.from({ length: 200 }, (_, i) => `${word}-line-${i}`).join("\n") + "\n";

/** A scripted model whose requests are recorded. */
function recorded(script: Script) {
  const scripted = new ScriptedLanguageModel(script);
  return new MockLanguageModelV4({ doStream: (options) => scripted.doStream(options) });
}

async function bigSession() {
  const made = await sessionWith({ "alpha.txt": lines("alpha"), "beta.txt": lines("beta") });
  disposers.push(made.dispose);
  const root = made.runtime.root;
  const steps: Script["steps"] = [
    { toolCalls: [{ tool: "read", input: { filePath: `${root}/alpha.txt` } }], usage: { input: 100, output: 10 } },
    { toolCalls: [{ tool: "read", input: { filePath: `${root}/beta.txt` } }], usage: { input: 3000, output: 10 } },
    // The prompt has now come near the window (5,000 less 1,000 for the answer).
    { toolCalls: [{ tool: "glob", input: { pattern: "*.txt" } }], usage: { input: 4500, output: 10 } },
  ];
  return { ...made, steps };
}

const small = { limit: { context: 5000, output: 1000 } };

describe("compaction", () => {
  it("prunes old tool output first, and the model sees it cleared", async () => {
    const { session, steps } = await bigSession();
    const model = recorded({ version: 1, steps: [...steps, { text: "Both files are lists.", usage: { input: 2000, output: 10 } }] });
    const { end } = await loopOnce(session, resolved(model, small), "read the big files", {
      prune: { protect: 2000, minimum: 100, protectTurns: 0 },
    });
    expect(end).toBe("done");
    expect(model.doStreamCalls).toHaveLength(4);
    const before = promptText(model.doStreamCalls[2]!);
    expect(before).toContain("alpha-line-150");
    const after = promptText(model.doStreamCalls[3]!);
    expect(after).not.toContain("alpha-line-150");
    expect(after).toContain("beta-line-150");
    expect(after.split(CLEARED_OUTPUT)).toHaveLength(2);
    const [alpha, beta] = session.session.calls;
    expect(alpha!.time.compacted).toBeGreaterThan(0);
    expect(beta!.time.compacted).toBeUndefined();
    // The person still has the whole output.
    expect(alpha!.output).toContain("alpha-line-150");
    expect(session.session.messages.some((m) => m.role === "assistant" && m.summary)).toBe(false);
  });

  it("summarises when pruning is not enough, and carries on from the summary", async () => {
    const { session, steps } = await bigSession();
    const model = recorded({
      version: 1,
      steps: [
        ...steps,
        { text: "SUMMARY: read alpha.txt and beta.txt, both lists.", usage: { input: 4000, output: 20 } },
        { text: "Done." },
      ],
    });
    const { end } = await loopOnce(session, resolved(model, small), "read the big files", {
      prune: { protect: 2000, minimum: 1_000_000, protectTurns: 0 },
    });
    expect(end).toBe("done");
    expect(model.doStreamCalls).toHaveLength(5);
    const summaryRequest = model.doStreamCalls[3]!;
    const lastPrompt = summaryRequest.prompt.at(-1)!;
    expect(lastPrompt.role).toBe("user");
    expect(JSON.stringify(lastPrompt.content)).toContain(SUMMARY_PROMPT);
    expect(summaryRequest.tools ?? []).toHaveLength(0);

    const next = promptText(model.doStreamCalls[4]!);
    expect(next).toContain(COMPACTION_QUESTION);
    expect(next).toContain("SUMMARY: read alpha.txt and beta.txt");
    expect(next).toContain(CONTINUE_TEXT);
    expect(next).not.toContain("read the big files");
    expect(next).not.toContain("alpha-line-1");

    const roles = session.session.messages.map((m) => (m.role === "assistant" ? (m.summary ? "summary" : "assistant") : m.parts[0]!.type));
    expect(roles).toEqual(["text", "assistant", "assistant", "assistant", "compaction", "summary", "text", "assistant"]);
  });

  it("compacts and continues when the provider says the context is too long", async () => {
    const made = await sessionWith();
    disposers.push(made.dispose);
    const tooLong = () => {
      throw new APICallError({ message: "prompt is too long", url: "http://localhost", requestBodyValues: {}, statusCode: 400 });
    };
    const model = mockModel([tooLong, streamStep({ text: ["SUMMARY: nothing yet"] }), streamStep({ text: ["Answer."] })]);
    const { end } = await loopOnce(made.session, resolved(model), "hello");
    expect(end).toBe("done");
    expect(model.doStreamCalls).toHaveLength(3);
    const messages = made.session.session.messages;
    expect(messages.filter((m) => m.role === "assistant" && m.summary)).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", finish: "stop" });
    expect(messages.some((m) => m.role === "assistant" && m.error)).toBe(false);
  });
});
