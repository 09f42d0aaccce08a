/**
 * Issue 19, attacked from outside: the session tools (task, todowrite, question, plan agent, batch) used
 * the way a careless model or a hostile prompt would. Each case states the promise and the attack.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import type { SessionRecord } from "../../src/session/calls.js";
import { runLoop } from "../../src/session/loop.js";
import { ScriptedLanguageModel } from "../../src/session/provider/scripted.js";
import { ToolSession, type ToolSessionOptions } from "../../src/session/tool-session.js";
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
  const session = await ToolSession.open({ runtime, dataDir: "/data", home: "/home/user", builtins: builtinTools, trusted: true, ...options });
  return { session, runtime };
}

async function run(session: ToolSession, model: LanguageModelV4, text: string) {
  userText(session, text, session.agent.name);
  return runLoop({ tools: session, agent: session.agent, model: resolved(model), system: ["test"], signal: new AbortController().signal, changed: () => {}, status: () => {} });
}

const callsOf = (record: SessionRecord, tool: string) => record.calls.filter((call) => call.tool === tool);
const read = async (runtime: { fs: { readFile(path: string): Promise<Uint8Array> } }, path: string) => new TextDecoder().decode(await runtime.fs.readFile(path));

describe("task: one child session, one loop at a time", () => {
  it("refuses to resume a child that is already running (two task calls with the same task_id in one step)", async () => {
    const { session } = await open();
    const first = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "task", input: { description: "start", prompt: "say hi", subagent_type: "general" } }] }, { text: "hi" }, { text: "started" }],
    });
    await run(session, first, "start one");
    const child = session.session.children![0]!;
    const resume = { description: "again", prompt: "say it again", subagent_type: "general", task_id: child.id };
    const twice = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "task", input: resume }, { tool: "task", input: resume }] }, { text: "hi again" }, { text: "finished" }],
    });
    expect(await run(session, twice, "resume it twice")).toBe("done");
    const [, a, b] = callsOf(session.session, "task");
    expect([a!.status, b!.status].sort()).toEqual(["completed", "error"]);
    expect((a!.status === "error" ? a : b)!.error).toContain("already running");
    // The child got one follow-up, not two interleaved ones.
    expect(child.messages.filter((message) => message.role === "user")).toHaveLength(2);
    expect(child.messages.filter((message) => message.role === "assistant").map((message) => message.parts.find((part) => part.type === "text"))).toHaveLength(2);
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
    const patch = await session.run("apply_patch", { patchText: ["*** Begin Patch", "*** Add File: .opencode/plans/other.md", "+pwned", "*** End Patch"].join("\n") });
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
