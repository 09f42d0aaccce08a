import { describe, expect, it } from "vitest";
import { ScriptedLanguageModel } from "../../../src/session/provider/scripted.js";
import { assistants, loopOnce, resolved, testAgent, texts } from "../../support/loop.js";
import { sessionsEndedAfterEach } from "../../support/tool-session.js";

const open = sessionsEndedAfterEach();

describe("the loop on a scripted model", () => {
  it("writes a file in one step and reads it back in the next, then answers", async () => {
    const { session, runtime } = await open();
    const path = `${runtime.root}/notes.txt`;
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { text: "I will write it.", toolCalls: [{ tool: "write", input: { filePath: path, content: "hello loop\n" } }] },
        { toolCalls: [{ tool: "read", input: { filePath: path } }] },
        { text: "The file says hello loop." },
      ],
    });
    const { end } = await loopOnce(session, resolved(model), "write notes.txt");
    expect(end).toBe("done");
    expect(new TextDecoder().decode(await runtime.fs.readFile(path))).toBe("hello loop\n");
    const answers = assistants(session.session.messages);
    expect(answers.map((m) => m.role === "assistant" && m.finish)).toEqual(["tool-calls", "tool-calls", "stop"]);
    const calls = session.session.calls;
    expect(calls.map((c) => [c.tool, c.status])).toEqual([
      ["write", "completed"],
      ["read", "completed"],
    ]);
    expect(calls[1]!.output).toContain("hello loop");
    // Every tool part names its call, and every step has its start and finish.
    const toolParts = answers.flatMap((m) => m.parts.filter((p) => p.type === "tool"));
    expect(toolParts.map((p) => p.type === "tool" && p.callID)).toEqual(calls.map((c) => c.id));
    for (const message of answers) {
      expect(message.parts[0]!.type).toBe("step-start");
      expect(message.parts.at(-1)!.type).toBe("step-finish");
      expect(message.time.completed).toBeGreaterThan(0);
    }
    expect(texts(answers)).toEqual(["I will write it.", "The file says hello loop."]);
    expect(model.calls).toBe(3);
  });
});

describe("the plan agent", () => {
  it("is reminded in every request that it may only look and plan, and the reminder is never stored", async () => {
    const { session } = await open({ "a.txt": "a\n" });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "list", input: {} }] }, { text: "Plan: nothing to change." }],
    });
    const prompts: string[] = [];
    const spy = new Proxy(model, {
      get(target, key, receiver) {
        if (key === "doStream")
          return (options: { prompt: unknown }) => (prompts.push(JSON.stringify(options.prompt)), target.doStream(options as never));
        return Reflect.get(target, key, receiver);
      },
    });
    const { end } = await loopOnce(session, resolved(spy), "plan the change", { agent: testAgent("plan") });
    expect(end).toBe("done");
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) expect(prompt).toContain("You are in plan mode");
    expect(JSON.stringify(session.session.messages)).not.toContain("You are in plan mode");

    const build = await open();
    const seen: string[] = [];
    const plain = new ScriptedLanguageModel({ version: 1, steps: [{ text: "ok" }] });
    const spyBuild = new Proxy(plain, {
      get(target, key, receiver) {
        if (key === "doStream")
          return (options: { prompt: unknown }) => (seen.push(JSON.stringify(options.prompt)), target.doStream(options as never));
        return Reflect.get(target, key, receiver);
      },
    });
    await loopOnce(build.session, resolved(spyBuild), "hello");
    expect(seen.join("")).not.toContain("You are in plan mode");
  });
});
