import { streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { chunkText, Script, ScriptedLanguageModel, scriptFromSession } from "../../../src/session/provider/scripted.js";
import { loopOnce, resolved } from "../../support/loop.js";
import { sessionWith } from "../../support/tool-session.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

describe("the scripted provider", () => {
  it("answers each model call with the next step, then an empty stop", async () => {
    const model = new ScriptedLanguageModel({ version: 1, steps: [{ text: "first" }, { text: "second", usage: { input: 7, output: 3 } }] });
    const texts: string[] = [];
    const usages: Array<number | undefined> = [];
    for (let i = 0; i < 3; i++) {
      const result = streamText({ model, prompt: "hi" });
      texts.push(await result.text);
      usages.push((await result.usage).inputTokens);
    }
    expect(texts).toEqual(["first", "second", ""]);
    expect(usages[1]).toBe(7);
    expect(model.calls).toBe(3);
  });

  it("streams text a few words at a time", () => {
    expect(chunkText("one two three four five")).toEqual(["one two three ", "four five"]);
    expect(chunkText("").length).toBe(0);
  });

  it("refuses a malformed script, saying where", () => {
    const bad = Script.safeParse({ version: 1, steps: [{ toolCalls: [{ tool: 3 }] }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["steps", 0, "toolCalls", 0, "tool"]);
    expect(() => new ScriptedLanguageModel({ version: 2, steps: [] } as never)).toThrow();
  });

  it("saves a live session as a script that replays it through the loop", async () => {
    const first = await sessionWith({ "a.txt": "alpha\n" });
    disposers.push(first.dispose);
    const path = `${first.runtime.root}/a.txt`;
    const script: Script = {
      version: 1,
      steps: [
        {
          reasoning: "Read it.",
          text: "Reading.",
          toolCalls: [{ tool: "read", input: { filePath: path } }],
          usage: { input: 20, output: 5 },
        },
        { text: "It says alpha.", usage: { input: 40, output: 4 } },
      ],
    };
    await loopOnce(first.session, resolved(new ScriptedLanguageModel(script)), "read a");
    const saved = scriptFromSession(first.session.session);
    expect(saved).toEqual({
      version: 1,
      steps: [
        { ...script.steps[0], finish: "tool-calls" },
        { ...script.steps[1], finish: "stop" },
      ],
    });
    // The saved script drives a second session to the same end.
    const second = await sessionWith({ "a.txt": "alpha\n" });
    disposers.push(second.dispose);
    await loopOnce(second.session, resolved(new ScriptedLanguageModel(saved)), "read a");
    expect(second.session.session.calls.map((c) => [c.tool, c.status, c.output])).toEqual(
      first.session.session.calls.map((c) => [c.tool, c.status, c.output]),
    );
  });
});
