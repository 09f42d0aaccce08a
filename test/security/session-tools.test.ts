/**
 * Issue 19, attacked from outside: the session tools (task, todowrite, question, plan agent, batch) used
 * the way a careless model or a hostile prompt would. Each case states the promise and the attack.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import type { SessionRecord } from "../../src/session/record/session-record.js";
import { runLoop } from "../../src/session/loop/loop.js";
import { ScriptedLanguageModel } from "../../src/session/provider/scripted.js";
import { ToolSession, type ToolSessionOptions } from "../../src/session/host/tool-session.js";
import { builtinTools } from "../../src/tools/builtins.js";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { resolved, userText } from "../support/loop.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

async function open(files: Record<string, string> = {}, options: Partial<ToolSessionOptions> = {}) {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  disposers.push(() => runtime.dispose());
  for (const [path, text] of Object.entries(files)) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  const session = await ToolSession.open({
    runtime,
    dataDir: "/data",
    home: "/home/user",
    builtins: builtinTools,
    trusted: true,
    ...options,
  });
  return { session, runtime };
}

async function run(session: ToolSession, model: LanguageModelV4, text: string) {
  userText(session, text, session.agent.name);
  return runLoop({
    tools: session,
    agent: session.agent,
    model: resolved(model),
    system: ["test"],
    signal: new AbortController().signal,
    changed: () => {},
    status: () => {},
  });
}

const callsOf = (record: SessionRecord, tool: string) => record.calls.filter((call) => call.tool === tool);
const read = async (runtime: { fs: { readFile(path: string): Promise<Uint8Array> } }, path: string) =>
  new TextDecoder().decode(await runtime.fs.readFile(path));

describe("task: one child session, one loop at a time", () => {
  it("refuses to resume a child that is already running (two task calls with the same task_id in one step)", async () => {
    const { session } = await open();
    const first = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "start", prompt: "say hi", subagent_type: "general" } }] },
        { text: "hi" },
        { text: "started" },
      ],
    });
    await run(session, first, "start one");
    const child = session.session.children![0]!;
    const resume = { description: "again", prompt: "say it again", subagent_type: "general", task_id: child.id };
    const twice = new ScriptedLanguageModel({
      version: 1,
      steps: [
        {
          toolCalls: [
            { tool: "task", input: resume },
            { tool: "task", input: resume },
          ],
        },
        { text: "hi again" },
        { text: "finished" },
      ],
    });
    expect(await run(session, twice, "resume it twice")).toBe("done");
    const [, a, b] = callsOf(session.session, "task");
    expect([a!.status, b!.status].sort()).toEqual(["completed", "error"]);
    expect((a!.status === "error" ? a : b)!.error).toContain("already running");
    // The child got one follow-up, not two interleaved ones.
    expect(child.messages.filter((message) => message.role === "user")).toHaveLength(2);
    expect(
      child.messages.filter((message) => message.role === "assistant").map((message) => message.parts.find((part) => part.type === "text")),
    ).toHaveLength(2);
  });
});

describe("todowrite: ids stay unique", () => {
  it("gives a repeated id a fresh one, so the page's rows (keyed by id) do not collapse", async () => {
    const { session } = await open();
    const call = await session.run("todowrite", {
      todos: [
        { content: "one", status: "pending", priority: "high", id: "a" },
        { content: "two", status: "pending", priority: "high", id: "a" },
        { content: "three", status: "pending", priority: "low" },
      ],
    });
    expect(call.status).toBe("completed");
    const ids = session.session.todos!.map((todo) => todo.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe("a");
    expect(session.session.todos!.map((todo) => todo.content)).toEqual(["one", "two", "three"]);
  });
});

describe("plan agent: only its plan files", () => {
  it("refuses a path that climbs out of .opencode/plans with ..", async () => {
    const { session, runtime } = await open({ "src/a.ts": "keep\n", ".opencode/plans/p.md": "plan\n" }, { agent: "plan" });
    const call = await session.run("write", { filePath: `${runtime.root}/.opencode/plans/../../src/a.ts`, content: "pwned\n" });
    expect(call.status).toBe("error");
    expect(await read(runtime, `${runtime.root}/src/a.ts`)).toBe("keep\n");
    const edit = await session.run("edit", { filePath: ".opencode/plans/../../src/a.ts", oldString: "keep", newString: "pwned" });
    expect(edit.status).toBe("error");
    expect(await read(runtime, `${runtime.root}/src/a.ts`)).toBe("keep\n");
  });

  it("refuses a plan file that is a link to a source file", async () => {
    const { session, runtime } = await open({ "src/a.ts": "keep\n", ".opencode/plans/p.md": "plan\n" }, { agent: "plan" });
    await runtime.fs.symlink("../../src/a.ts", `${runtime.root}/.opencode/plans/evil.md`);
    // Read first, so only the permission can stop the write (not the read-before-write check).
    expect((await session.run("read", { filePath: `${runtime.root}/.opencode/plans/evil.md` })).status).toBe("completed");
    const write = await session.run("write", { filePath: `${runtime.root}/.opencode/plans/evil.md`, content: "pwned\n" });
    expect(write.status).toBe("error");
    const edit = await session.run("edit", { filePath: `${runtime.root}/.opencode/plans/evil.md`, oldString: "keep", newString: "pwned" });
    expect(edit.status).toBe("error");
    expect(await read(runtime, `${runtime.root}/src/a.ts`)).toBe("keep\n");
  });

  it("refuses a plans folder that is itself a link into the sources", async () => {
    const { session, runtime } = await open({ "src/a.ts": "keep\n", ".opencode/x": "" }, { agent: "plan" });
    await runtime.fs.symlink("../src", `${runtime.root}/.opencode/plans`);
    const call = await session.run("write", { filePath: `${runtime.root}/.opencode/plans/new.md`, content: "pwned\n" });
    expect(call.status).toBe("error");
    expect((await runtime.fs.readdir(`${runtime.root}/src`)).map((entry) => entry.name)).toEqual(["a.ts"]);
    const patch = await session.run("apply_patch", {
      patchText: ["*** Begin Patch", "*** Add File: .opencode/plans/other.md", "+pwned", "*** End Patch"].join("\n"),
    });
    expect(patch.status).toBe("error");
    const edit = await session.run("edit", { filePath: `${runtime.root}/.opencode/plans/third.md`, oldString: "", newString: "pwned\n" });
    expect(edit.status).toBe("error");
    expect((await runtime.fs.readdir(`${runtime.root}/src`)).map((entry) => entry.name)).toEqual(["a.ts"]);
  });

  it("may still write its own plan", async () => {
    const { session, runtime } = await open({}, { agent: "plan" });
    const call = await session.run("write", { filePath: `${runtime.root}/.opencode/plans/p.md`, content: "the plan\n" });
    expect(call.status).toBe("completed");
    expect(await read(runtime, `${runtime.root}/.opencode/plans/p.md`)).toBe("the plan\n");
  });
});

describe("stopping the parent while its child waits for the person", () => {
  async function runUntil(session: ToolSession, model: LanguageModelV4, text: string, waiting: () => boolean) {
    userText(session, text, session.agent.name);
    const controller = new AbortController();
    const off = session.bus.subscribe("call.updated", () => {
      if (waiting()) queueMicrotask(() => controller.abort());
    });
    const offAsked = session.bus.subscribe("permission.asked", () => queueMicrotask(() => controller.abort()));
    try {
      return await runLoop({
        tools: session,
        agent: session.agent,
        model: resolved(model),
        system: ["test"],
        signal: controller.signal,
        changed: () => {},
        status: () => {},
      });
    } finally {
      off();
      offAsked();
    }
  }

  it("ends the child and takes its permission prompt away", async () => {
    const { session } = await open({ "opencode.json": JSON.stringify({ permission: { bash: "ask" } }) });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "run it", prompt: "run echo", subagent_type: "general" } }] },
        { toolCalls: [{ tool: "bash", input: { command: "echo hi", description: "say hi" } }] },
        { text: "never" },
        { text: "never either" },
      ],
    });
    expect(await runUntil(session, model, "go", () => false)).toBe("aborted");
    expect(session.permissions.pending()).toEqual([]);
    const task = callsOf(session.session, "task")[0]!;
    expect(task.status).toBe("error");
    const child = session.session.children![0]!;
    expect(child.calls.map((call) => [call.tool, call.status])).toEqual([["bash", "error"]]);
    expect(child.calls.some((call) => call.status === "running" || call.status === "pending")).toBe(false);
  });

  it("ends the child and takes its question away", async () => {
    const config = { agent: { asker: { mode: "subagent", description: "asks the person", permission: { question: "allow" } } } };
    const { session } = await open({ "opencode.json": JSON.stringify(config) });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "ask", prompt: "ask the person", subagent_type: "asker" } }] },
        {
          toolCalls: [
            {
              tool: "question",
              input: { questions: [{ question: "Which?", header: "Pick", options: [{ label: "A", description: "a" }] }] },
            },
          ],
        },
        { text: "never" },
        { text: "never either" },
      ],
    });
    expect(await runUntil(session, model, "go", () => session.questions.pending().length > 0)).toBe("aborted");
    expect(session.questions.pending()).toEqual([]);
    const child = session.session.children![0]!;
    expect(child.calls.map((call) => [call.tool, call.status])).toEqual([["question", "error"]]);
    expect(callsOf(session.session, "task")[0]!.status).toBe("error");
  });
});

describe("question: odd payloads", () => {
  it("an answer to a dismissed question is refused with a clear error, and the dismissal stands", async () => {
    const { session } = await open();
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "question", input: { questions: [{ question: "Which?", header: "Pick", options: [] }] } }] },
        { text: "after" },
      ],
    });
    const asked: string[] = [];
    session.questions.onAsked((request) => {
      asked.push(request.id);
      queueMicrotask(() => {
        session.questions.dismiss(request.id);
        expect(() => session.questions.reply(request.id, [["late"]])).toThrow(/no question .* is waiting/);
      });
    });
    await run(session, model, "ask me");
    expect(asked).toHaveLength(1);
    const call = callsOf(session.session, "question")[0]!;
    expect(call.status).toBe("error");
    expect(call.error).toContain("dismissed");
  });
});

describe("skills: hostile files", () => {
  it("a deeply nested or huge frontmatter is reported, never fatal, and the other skills still load", async () => {
    const deep = [
      "---",
      "name: deep",
      "description: d",
      ...Array.from({ length: 3000 }, (_, i) => `${"  ".repeat(i)}k${i}:`),
      "---",
      "body",
    ].join("\n");
    const huge = ["---", "name: huge", `description: ${"x".repeat(2_000_000)}`, "---", "body"].join("\n");
    const { session } = await open({
      ".opencode/skills/deep/SKILL.md": deep,
      ".opencode/skills/huge/SKILL.md": huge,
      ".opencode/skills/good/SKILL.md": "---\nname: good\ndescription: fine\n---\nDo it well.",
    });
    expect(session.skills.map((skill) => skill.name)).toContain("good");
    const call = await session.run("skill", { name: "good" });
    expect(call.status).toBe("completed");
    expect(call.output).toContain("Do it well.");
  });
});

describe("batch: only the tools the agent is offered", () => {
  const MARK = `
import { tool } from "@opencode-ai/plugin";
export default tool({
  description: "Leaves a mark",
  args: {},
  async execute() {
    globalThis.__wbBatchMarks = (globalThis.__wbBatchMarks ?? 0) + 1;
    return "marked";
  },
});
`;
  const marks = () => (globalThis as { __wbBatchMarks?: number }).__wbBatchMarks ?? 0;

  it("refuses a custom tool the agent's rules hide (it asks no permission of its own), by hand and from the loop", async () => {
    const { session } = await open(
      { ".opencode/tool/mark.ts": MARK, "opencode.json": JSON.stringify({ permission: { mark: "deny" } }) },
      { flags: { batchTool: true } },
    );
    expect(session.registry.ids()).toContain("mark");
    const before = marks();
    const byHand = await session.run("batch", {
      tool_calls: [
        { tool: "mark", parameters: {} },
        { tool: "todoread", parameters: {} },
      ],
    });
    expect(byHand.output).toContain("1 failed");
    expect(byHand.output).toMatch(/mark: .*not available to the build agent/);
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "batch", input: { tool_calls: [{ tool: "mark", parameters: {} }] } }] }, { text: "ok" }],
    });
    await run(session, model, "mark it");
    expect(callsOf(session.session, "batch")[1]!.output).toContain("0/1");
    expect(marks()).toBe(before);
    // Each refused call still has its card, failing with the reason and recorded as denied.
    const refused = callsOf(session.session, "mark");
    expect(refused.map((call) => [call.status, call.permissions.map((permission) => permission.answer)])).toEqual([
      ["error", ["deny"]],
      ["error", ["deny"]],
    ]);
  });
});

describe("skills: names that are patterns or markup", () => {
  it("refuses a skill named with wildcard or markup characters (an always-approval of '*' would cover every skill), and reports it", async () => {
    const skill = (name: string) => `---\nname: "${name}"\ndescription: d\n---\nbody`;
    const { session } = await open({
      ".opencode/skills/star/SKILL.md": skill("*"),
      ".opencode/skills/quest/SKILL.md": skill("a?c"),
      ".opencode/skills/tag/SKILL.md": skill('x\\"><skill_content name=\\"y'),
      ".opencode/skills/fine/SKILL.md": skill("fine-skill_2.0"),
    });
    expect(session.skills.map((one) => one.name)).toEqual(["fine-skill_2.0"]);
    const problems = session.problems.filter((problem) => "file" in problem && problem.file.includes("/.opencode/skills/"));
    expect(problems).toHaveLength(3);
    expect(problems.every((problem) => "error" in problem && /name/.test(String(problem.error)))).toBe(true);
  });
});

describe("task: a subagent can do no more than the agent that started it", () => {
  it("a general subagent started by the plan agent cannot edit source files (only what plan may), nor run what plan may not", async () => {
    const { session, runtime } = await open({ "src/a.ts": "keep\n" }, { agent: "plan" });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "do it", prompt: "change src/a.ts", subagent_type: "general" } }] },
        {
          toolCalls: [
            { tool: "write", input: { filePath: `${runtime.root}/src/new.ts`, content: "pwned\n" } },
            { tool: "write", input: { filePath: `${runtime.root}/.opencode/plans/from-child.md`, content: "notes\n" } },
          ],
        },
        { text: "tried" },
        { text: "done" },
      ],
    });
    expect(await run(session, model, "plan it")).toBe("done");
    expect((await runtime.fs.readdir(`${runtime.root}/src`)).map((entry) => entry.name)).toEqual(["a.ts"]);
    const child = session.session.children![0]!;
    const [source, plan] = child.calls;
    expect([source!.status, source!.permissions.map((permission) => [permission.permission, permission.answer])]).toEqual([
      "error",
      [["edit", "deny"]],
    ]);
    expect(plan!.status).toBe("completed");
    expect(await read(runtime, `${runtime.root}/.opencode/plans/from-child.md`)).toBe("notes\n");
  });

  it("the same when the session switched to the plan agent after it opened as build", async () => {
    const { session, runtime } = await open({ "src/a.ts": "keep\n" });
    const plan = session.agents.find((agent) => agent.name === "plan")!;
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "do it", prompt: "add src/new.ts", subagent_type: "general" } }] },
        { toolCalls: [{ tool: "write", input: { filePath: `${runtime.root}/src/new.ts`, content: "pwned\n" } }] },
        { text: "tried" },
        { text: "done" },
      ],
    });
    userText(session, "plan it", "plan");
    await runLoop({
      tools: session,
      agent: plan,
      model: resolved(model),
      system: ["test"],
      signal: new AbortController().signal,
      changed: () => {},
      status: () => {},
    });
    expect((await runtime.fs.readdir(`${runtime.root}/src`)).map((entry) => entry.name)).toEqual(["a.ts"]);
    expect(session.session.children![0]!.calls[0]!.permissions.map((permission) => permission.answer)).toEqual(["deny"]);
  });

  it("a subagent of a build agent whose config asks before bash is asked too, even when the subagent's own rules allow bash", async () => {
    const config = { agent: { build: { permission: { bash: "ask" } } } };
    const { session } = await open({ "opencode.json": JSON.stringify(config) });
    const asked: string[] = [];
    session.bus.subscribe("permission.asked", (request) => {
      asked.push(`${request.sessionID === session.session.id ? "parent" : "child"}:${request.permission}`);
      queueMicrotask(() => session.permissions.reply(request.id, "once"));
    });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "run", prompt: "run echo", subagent_type: "general" } }] },
        { toolCalls: [{ tool: "bash", input: { command: "echo hi", description: "say hi" } }] },
        { text: "ran" },
        { text: "done" },
      ],
    });
    expect(await run(session, model, "go")).toBe("done");
    expect(asked).toEqual(["child:bash"]);
    expect(session.session.children![0]!.calls[0]!.status).toBe("completed");
  });
});

describe("plan tools: a subagent cannot hand its session to a primary agent", () => {
  it("refuses plan_exit and plan_enter in a child session before asking the person, and the child keeps its agent", async () => {
    const config = {
      agent: {
        planner: { mode: "subagent", description: "plans", permission: { plan_exit: "allow", plan_enter: "allow", question: "allow" } },
      },
    };
    const { session } = await open({ "opencode.json": JSON.stringify(config) }, { flags: { planMode: true } });
    let asked = 0;
    session.questions.onAsked((request) => {
      asked++;
      queueMicrotask(() => session.questions.reply(request.id, [["Yes"]]));
    });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "plan", prompt: "plan then build", subagent_type: "planner" } }] },
        {
          toolCalls: [
            { tool: "plan_exit", input: {} },
            { tool: "plan_enter", input: {} },
          ],
        },
        { text: "could not" },
        { text: "done" },
      ],
    });
    expect(await run(session, model, "go")).toBe("done");
    expect(asked).toBe(0);
    const child = session.session.children![0]!;
    expect(child.calls.map((call) => [call.tool, call.status])).toEqual([
      ["plan_exit", "error"],
      ["plan_enter", "error"],
    ]);
    expect(child.calls[0]!.error).toContain("subagent");
    expect(child.messages.filter((message) => message.role === "user")).toHaveLength(1);
    expect(child.messages.filter((message) => message.role === "assistant").every((message) => message.agent === "planner")).toBe(true);
  });
});

describe("task: a question the child waits on can be found from the parent's card", () => {
  it("the task call's metadata names the child's waiting call, whose question the page can answer", async () => {
    const config = { agent: { asker: { mode: "subagent", description: "asks the person", permission: { question: "allow" } } } };
    const { session } = await open({ "opencode.json": JSON.stringify(config) });
    const seen: Array<string | undefined> = [];
    session.questions.onAsked((request) => {
      // Answered only once the parent's task card names the call that waits (its metadata is flushed).
      const poll = setInterval(() => {
        const task = callsOf(session.session, "task")[0];
        const named = task?.metadata.childCallID;
        if (typeof named !== "string" || !session.questions.forCall(named) || task?.metadata.asking !== true) return;
        clearInterval(poll);
        seen.push(named === request.callID ? "named" : `wrong ${named}`);
        session.questions.reply(session.questions.forCall(named)!.id, [["A"]]);
      }, 20);
    });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "ask", prompt: "ask the person", subagent_type: "asker" } }] },
        {
          toolCalls: [
            {
              tool: "question",
              input: { questions: [{ question: "Which?", header: "Pick", options: [{ label: "A", description: "a" }] }] },
            },
          ],
        },
        { text: "A was picked" },
        { text: "done" },
      ],
    });
    expect(await run(session, model, "go")).toBe("done");
    expect(seen).toEqual(["named"]);
    expect(callsOf(session.session, "task")[0]!.output).toContain("A was picked");
  });
});
