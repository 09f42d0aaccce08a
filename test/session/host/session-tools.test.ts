import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import type { SessionRecord } from "../../../src/session/record/session-record.js";
import { runLoop, type LoopOptions } from "../../../src/session/loop/loop.js";
import { ScriptedLanguageModel } from "../../../src/session/provider/scripted.js";
import { ToolSession, type ToolSessionOptions } from "../../../src/session/host/tool-session.js";
import { BatchTool } from "../../../src/tools/batch.js";
import { builtinTools } from "../../../src/tools/builtins.js";
import type { Context } from "../../../src/tools/tool.js";
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { resolved, userText } from "../../support/loop.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

async function open(files: Record<string, string> = {}, options: Partial<ToolSessionOptions> = {}) {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  disposers.push(() => runtime.dispose());
  for (const [path, text] of Object.entries(files)) {
    const full = path.startsWith("/") ? path : `${runtime.root}/${path}`;
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

async function run(session: ToolSession, model: LanguageModelV4, text: string, extra: Partial<LoopOptions> = {}) {
  userText(session, text, session.agent.name);
  const controller = new AbortController();
  const end = await runLoop({
    tools: session,
    agent: session.agent,
    model: resolved(model),
    system: ["test"],
    signal: controller.signal,
    changed: () => {},
    status: () => {},
    ...extra,
  });
  return end;
}

const callsOf = (record: SessionRecord, tool: string) => record.calls.filter((call) => call.tool === tool);

describe("todowrite, todoread and task", () => {
  it("writes todos, starts a general subagent that reads a file and answers, and gets the answer back; then resumes it by task_id", async () => {
    const { session, runtime } = await open({ "notes.txt": "the secret word is basil\n" });
    const todos = [
      { content: "Ask a subagent for the word", status: "in_progress", priority: "high" },
      { content: "Tell the person", status: "pending", priority: "low", id: "tell" },
    ];
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "todowrite", input: { todos } }] },
        {
          toolCalls: [
            { tool: "task", input: { description: "Find the word", prompt: "Read notes.txt and say the word.", subagent_type: "general" } },
          ],
        },
        // The child: it may not touch the todo list, then it reads and answers.
        {
          toolCalls: [
            { tool: "todowrite", input: { todos: [] } },
            { tool: "read", input: { filePath: `${runtime.root}/notes.txt` } },
          ],
        },
        { text: "The word is basil." },
        { text: "Basil." },
      ],
    });
    // The task card's live progress: the tool the child runs, read from the task call while it runs.
    const live = new Set<string>();
    session.bus.subscribe("call.updated", () => {
      const running = session.session.calls.find((call) => call.tool === "task" && call.status === "running");
      if (typeof running?.metadata.tool === "string") live.add(running.metadata.tool);
    });
    expect(await run(session, model, "what is the word?")).toBe("done");
    expect([...live]).toContain("read");
    const record = session.session;
    expect(record.todos).toEqual([
      { content: "Ask a subagent for the word", status: "in_progress", priority: "high", id: "1" },
      { content: "Tell the person", status: "pending", priority: "low", id: "tell" },
    ]);
    expect(callsOf(record, "todowrite")[0]!.title).toBe("2 todos");
    const task = callsOf(record, "task")[0]!;
    expect(task.status).toBe("completed");
    const child = record.children?.[0];
    expect(child?.parentID).toBe(record.id);
    expect(child?.title).toBe("Find the word (@general subagent)");
    expect(task.output).toBe(
      `task_id: ${child!.id} (for resuming to continue this task if needed)\n\n<task_result>\nThe word is basil.\n</task_result>`,
    );
    expect(task.metadata).toMatchObject({ sessionId: child!.id, subagent: "general", calls: 2 });
    expect(task.permissions.map((permission) => [permission.permission, permission.patterns, permission.answer])).toEqual([
      ["task", ["general"], "allow"],
    ]);
    // todowrite is denied to the child outright, so it is not even offered: the call goes to invalid.
    expect(child!.calls.map((call) => [call.tool, call.status])).toEqual([
      ["invalid", "completed"],
      ["read", "completed"],
    ]);
    expect(child!.calls[0]!.input.tool).toBe("todowrite");
    expect(child!.todos).toBeUndefined();
    expect(record.todos).toHaveLength(2);
    expect(child!.messages.filter((message) => message.role === "assistant").every((message) => message.agent === "general")).toBe(true);

    // Resume: the same child session gets the follow-up and keeps what it had.
    const again = new ScriptedLanguageModel({
      version: 1,
      steps: [
        {
          toolCalls: [
            { tool: "todoread", input: {} },
            {
              tool: "task",
              input: { description: "Follow up", prompt: "Spell it backwards.", subagent_type: "general", task_id: child!.id },
            },
          ],
        },
        { text: "lisab" },
        { text: "It is lisab backwards." },
      ],
    });
    expect(await run(session, again, "and backwards?")).toBe("done");
    expect(record.children).toHaveLength(1);
    expect(child!.messages.filter((message) => message.role === "user")).toHaveLength(2);
    const resumed = callsOf(record, "task")[1]!;
    expect(resumed.output).toContain(`task_id: ${child!.id}`);
    expect(resumed.output).toContain("<task_result>\nlisab\n</task_result>");
    expect(JSON.parse(callsOf(record, "todoread")[0]!.output!)).toEqual(record.todos);

    // A task_id that names no child of this session says what does exist.
    const wrong = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "x", prompt: "x", subagent_type: "general", task_id: "ses_nope" } }] },
        { text: "ok" },
      ],
    });
    await run(session, wrong, "resume a wrong one");
    expect(callsOf(record, "task")[2]!.error).toContain(`its tasks: ${child!.id}`);
  });

  it("a child cannot start tasks of its own; an unknown subagent or a primary agent is refused by name", async () => {
    const { session } = await open();
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        {
          toolCalls: [{ tool: "task", input: { description: "nest", prompt: "start another task", subagent_type: "general" } }],
        },
        { toolCalls: [{ tool: "task", input: { description: "deeper", prompt: "x", subagent_type: "general" } }] },
        { text: "could not" },
        { toolCalls: [{ tool: "task", input: { description: "bad", prompt: "x", subagent_type: "nobody" } }] },
        { toolCalls: [{ tool: "task", input: { description: "bad", prompt: "x", subagent_type: "plan" } }] },
        { text: "done" },
      ],
    });
    await run(session, model, "go");
    const child = session.session.children![0]!;
    expect(child.calls[0]!.tool).toBe("invalid");
    expect(child.calls[0]!.input.tool).toBe("task");
    expect(child.calls[0]!.output).toContain('Unknown tool "task"');
    expect(child.children).toBeUndefined();
    const [, unknown, primary] = callsOf(session.session, "task");
    expect(unknown!.error).toContain("Unknown agent type: nobody is not a valid agent type");
    expect(primary!.error).toContain("Unknown agent type: plan is not a valid agent type");
  });

  it("stopping the parent while the child is streaming stops the child too", async () => {
    const { session } = await open();
    let calls = 0;
    let started!: () => void;
    const childStreaming = new Promise<void>((resolve) => (started = resolve));
    const scripted = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "task", input: { description: "slow", prompt: "take forever", subagent_type: "general" } }] }],
    });
    // Step 1 is the parent's task call; step 2 (the child's) never ends until aborted.
    const model: LanguageModelV4 = {
      specificationVersion: "v4",
      provider: "test",
      modelId: "hang",
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error("not used")),
      async doStream(options: LanguageModelV4CallOptions) {
        if (++calls === 1) return scripted.doStream(options);
        started();
        const signal = options.abortSignal!;
        return {
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue({ type: "stream-start", warnings: [] });
              signal.addEventListener("abort", () => controller.error(signal.reason), { once: true });
            },
          }),
        };
      },
    };
    userText(session, "go");
    const controller = new AbortController();
    const ending = runLoop({
      tools: session,
      agent: session.agent,
      model: resolved(model),
      system: ["t"],
      signal: controller.signal,
      changed: () => {},
      status: () => {},
    });
    await childStreaming;
    controller.abort(new DOMException("Stopped by the person.", "AbortError"));
    expect(await ending).toBe("aborted");
    const task = callsOf(session.session, "task")[0]!;
    expect(task.status).toBe("error");
    expect(task.error).toContain("The task was stopped");
    const child = session.session.children![0]!;
    const last = child.messages.at(-1)!;
    expect(last.role === "assistant" && last.error?.kind).toBe("aborted");
    expect(calls).toBe(2);
  });
});

describe("plan_enter and plan_exit", () => {
  it("switch build → plan → build asking first; the plan agent writes its plan file and a source edit is refused", async () => {
    const { session, runtime } = await open({ "src.ts": "export const a = 1;\n" }, { flags: { planMode: true } });
    const asked: string[] = [];
    session.questions.onAsked((request) => {
      asked.push(request.questions[0]!.question);
      queueMicrotask(() => session.questions.reply(request.id, [["Yes"]]));
    });
    const plan = `.opencode/plans/${session.session.id}.md`;
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "plan_enter", input: {} }] },
        {
          toolCalls: [
            { tool: "write", input: { filePath: `${runtime.root}/${plan}`, content: "# Plan\n1. set a to 2\n" } },
            { tool: "write", input: { filePath: `${runtime.root}/new.ts`, content: "export const b = 2;\n" } },
          ],
        },
        { toolCalls: [{ tool: "plan_exit", input: {} }] },
        { toolCalls: [{ tool: "read", input: { filePath: `${runtime.root}/src.ts` } }] },
        { toolCalls: [{ tool: "write", input: { filePath: `${runtime.root}/src.ts`, content: "export const a = 2;\n" } }] },
        { text: "Done." },
      ],
    });
    expect(await run(session, model, "change a")).toBe("done");
    const agents = session.session.messages.filter((message) => message.role === "assistant").map((message) => message.agent);
    expect(agents).toEqual(["build", "plan", "plan", "build", "build", "build"]);
    expect(asked).toEqual([
      `Would you like to switch to the plan agent and write a plan at ${plan} before changing anything?`,
      `Plan at ${plan} is complete. Would you like to switch to the build agent and start implementing?`,
    ]);
    const writes = callsOf(session.session, "write");
    expect(writes.map((call) => call.status)).toEqual(["completed", "error", "completed"]);
    expect(writes[1]!.permissions.map((permission) => [permission.permission, permission.patterns, permission.answer])).toEqual([
      ["edit", ["new.ts"], "deny"],
    ]);
    await expect(runtime.fs.stat(`${runtime.root}/new.ts`)).rejects.toThrow();
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/${plan}`))).toBe("# Plan\n1. set a to 2\n");
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/src.ts`))).toBe("export const a = 2;\n");
    const synthetic = session.session.messages.filter((message) => message.role === "user").slice(1);
    expect(synthetic.map((message) => message.agent)).toEqual(["plan", "build"]);
    expect(callsOf(session.session, "plan_exit")[0]!.output).toBe("User approved switching to build agent. Wait for further instructions.");
  });

  it("declining to leave plan mode fails the call and stops the run; the build agent cannot call plan_exit", async () => {
    const { session } = await open({}, { flags: { planMode: true } });
    session.questions.onAsked((request) => queueMicrotask(() => session.questions.reply(request.id, [["No"]])));
    const model = new ScriptedLanguageModel({ version: 1, steps: [{ toolCalls: [{ tool: "plan_exit", input: {} }] }, { text: "never" }] });
    expect(await run(session, model, "build it")).toBe("done");
    // build's rules deny plan_exit outright: it is not offered, and the call goes to invalid, never to a question.
    expect(callsOf(session.session, "invalid")[0]!.input.tool).toBe("plan_exit");

    const planning = await open({}, { flags: { planMode: true }, agent: "plan" });
    planning.session.questions.onAsked((request) => queueMicrotask(() => planning.session.questions.reply(request.id, [["No"]])));
    const declined = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "plan_exit", input: {} }] }, { text: "never" }],
    });
    expect(await run(planning.session, declined, "plan it")).toBe("blocked");
    expect(callsOf(planning.session.session, "plan_exit")[0]!.error).toBe("The user dismissed this question");
    expect(declined.calls).toBe(1);
  });
});

describe("question", () => {
  it("returns the answers (a picked option and typed text); a dismissal fails the call and stops the run", async () => {
    const { session } = await open();
    const replies: string[][][] = [[["Tabs"], ["my own words"]]];
    session.questions.onAsked((request) => {
      const next = replies.shift();
      queueMicrotask(() => (next ? session.questions.reply(request.id, next) : session.questions.dismiss(request.id)));
    });
    const questions = [
      {
        question: "Tabs or spaces?",
        header: "Indent",
        options: [
          { label: "Tabs", description: "one tab" },
          { label: "Spaces", description: "two spaces" },
        ],
      },
      { question: "Anything else?", header: "Else", options: [{ label: "No", description: "nothing" }] },
    ];
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "question", input: { questions } }] },
        { toolCalls: [{ tool: "question", input: { questions: [questions[0]] } }] },
        { text: "never" },
      ],
    });
    expect(await run(session, model, "format it")).toBe("blocked");
    const [answered, dismissed] = callsOf(session.session, "question");
    expect(answered!.output).toBe(
      'User has answered your questions: "Tabs or spaces?"="Tabs", "Anything else?"="my own words". You can now continue with the user\'s answers in mind.',
    );
    expect(answered!.title).toBe("Asked 2 questions");
    expect(dismissed!.status).toBe("error");
    expect(dismissed!.error).toBe("The user dismissed this question");
    expect(session.questions.pending()).toEqual([]);
  });
});

describe("skill", () => {
  it("finds skills in .opencode/skill, .opencode/skills, .claude/skills and the global folder, reports a malformed one once, and loads one", async () => {
    const skill = (name: string, description: string, body = `Do ${name} things.`) =>
      `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
    const { session, runtime } = await open(
      {
        ".opencode/skill/alpha/SKILL.md": skill("alpha", "First skill", "Step one: use scripts/run.sh."),
        ".opencode/skill/alpha/scripts/run.sh": "echo hi\n",
        ".opencode/skills/beta/SKILL.md": skill("beta", "Second skill"),
        ".claude/skills/gamma/SKILL.md": skill("gamma", "Third skill"),
        ".claude/skills/broken/SKILL.md": "---\nname: broken\n",
        "/global/skills/delta/SKILL.md": skill("delta", "Global skill"),
        "/global/skills/beta/SKILL.md": skill("beta", "Global beta, replaced by the workspace's"),
      },
      { globalConfigDir: "/global" },
    );
    expect(session.skills.map((one) => [one.name, one.description]).sort()).toEqual([
      ["alpha", "First skill"],
      ["beta", "Second skill"],
      ["delta", "Global skill"],
      ["gamma", "Third skill"],
    ]);
    const problems = session.problems.filter((problem) => problem.file.includes("SKILL.md"));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toBe(`${runtime.root}/.claude/skills/broken/SKILL.md`);
    expect(problems[0]!.error).toContain("never closed");

    const denied = {
      ...session.agent,
      permission: [...session.agent.permission, { permission: "skill", pattern: "gamma", action: "deny" as const }],
    };
    const tools = await session.registry.tools({ providerID: "test", modelID: "m" }, denied, {
      subagents: () => [],
      skills: () => session.skills,
    });
    const description = tools.find((tool) => tool.id === "skill")!.description;
    expect(description).toContain("- **alpha**: First skill");
    expect(description).toContain("- **delta**: Global skill");
    expect(description).not.toContain("gamma");

    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        {
          toolCalls: [
            { tool: "skill", input: { name: "alpha" } },
            { tool: "skill", input: { name: "nope" } },
          ],
        },
        { text: "ok" },
      ],
    });
    await run(session, model, "use alpha");
    const [loaded, missing] = callsOf(session.session, "skill");
    expect(loaded!.title).toBe("Loaded skill: alpha");
    expect(loaded!.output).toBe(
      [
        '<skill_content name="alpha">',
        "# Skill: alpha",
        "",
        "Step one: use scripts/run.sh.",
        "",
        `Base directory for this skill: file://${runtime.root}/.opencode/skill/alpha`,
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
        "Note: file list is sampled.",
        "",
        "<skill_files>",
        `<file>${runtime.root}/.opencode/skill/alpha/scripts/run.sh</file>`,
        "</skill_files>",
        "</skill_content>",
      ].join("\n"),
    );
    expect(loaded!.permissions.map((permission) => [permission.permission, permission.patterns])).toEqual([["skill", ["alpha"]]]);
    expect(missing!.error).toBe('Skill "nope" not found. Available skills: delta, alpha, beta, gamma');
  });
});

describe("batch", () => {
  it("runs 25 calls in parallel, each its own call; one failure and one denial fail alone and the 26th is refused", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 23; i++) files[`f${i}.txt`] = `file ${i}\n`;
    const { session, runtime } = await open(files, { flags: { batchTool: true } });
    const agent = {
      ...session.agent,
      permission: [...session.agent.permission, { permission: "glob", pattern: "*", action: "deny" as const }],
    };
    const calls = [
      ...Object.keys(files).map((name) => ({ tool: "read", parameters: { filePath: `${runtime.root}/${name}` } })),
      { tool: "read", parameters: { filePath: `${runtime.root}/missing.txt` } },
      { tool: "glob", parameters: { pattern: "*.txt" } },
      { tool: "read", parameters: { filePath: `${runtime.root}/f0.txt` } },
    ];
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [{ toolCalls: [{ tool: "batch", input: { tool_calls: calls } }] }, { text: "ok" }],
    });
    userText(session, "read them all");
    await runLoop({
      tools: session,
      agent,
      model: resolved(model),
      system: ["t"],
      signal: new AbortController().signal,
      changed: () => {},
      status: () => {},
    });
    const batch = callsOf(session.session, "batch")[0]!;
    expect(batch.title).toBe("Batch execution (23/26 successful)");
    expect(batch.output).toContain("Executed 23/26 tools successfully. 3 failed.");
    expect(batch.output).toContain("- 26. read: Maximum of 25 tools allowed in batch");
    // 25 calls of their own (the 26th never ran), each named in the batch's metadata.
    const subCalls = session.session.calls.filter((call) => call.tool !== "batch");
    expect(subCalls).toHaveLength(25);
    const entries = batch.metadata.calls as Array<{ callID?: string; status: string }>;
    expect(
      entries
        .slice(0, 25)
        .map((entry) => entry.callID)
        .sort(),
    ).toEqual(subCalls.map((call) => call.id).sort());
    expect(entries[25]!.callID).toBeUndefined();
    expect(subCalls.filter((call) => call.status === "completed")).toHaveLength(23);
    const glob = subCalls.find((call) => call.tool === "glob")!;
    expect(glob.permissions[0]!.answer).toBe("deny");
    expect(subCalls.find((call) => call.input.filePath === `${runtime.root}/missing.txt`)!.status).toBe("error");
  });

  it("refuses batch inside batch and tools outside the registry, and explains a malformed payload", async () => {
    const { session } = await open({ "a.txt": "a\n" }, { flags: { batchTool: true } });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        {
          toolCalls: [
            {
              tool: "batch",
              input: {
                tool_calls: [
                  { tool: "batch", parameters: {} },
                  { tool: "mcp_thing", parameters: {} },
                ],
              },
            },
          ],
        },
        { toolCalls: [{ tool: "batch", input: { tool_calls: [] } }] },
        { text: "ok" },
      ],
    });
    await run(session, model, "nest");
    const [nested] = callsOf(session.session, "batch");
    const empty = callsOf(session.session, "invalid")[0];
    expect(nested!.output).toContain("Tool 'batch' is not allowed in batch. Disallowed tools: batch");
    expect(nested!.output).toContain(
      "Tool 'mcp_thing' not in registry. External tools (MCP, environment) cannot be batched - call them directly. Available tools: question, bash, read, glob",
    );
    // The wire schema stops an empty list before the tool runs: the model hears why through invalid.
    expect(empty!.input.tool).toBe("batch");
    expect(empty!.output).toContain("Provide at least one tool call");
    // Called directly, the tool's own message shows the payload it expects.
    const tool = await BatchTool.init();
    await expect(tool.execute({ tool_calls: [] }, {} as Context)).rejects.toThrow(
      'Invalid parameters for tool \'batch\':\n  - tool_calls: Provide at least one tool call\n\nExpected payload format:\n  [{"tool": "tool_name", "parameters": {...}}, {...}]',
    );
  });

  it("cannot reach the person or switch agents for an agent whose rules deny it", async () => {
    const { session } = await open({}, { flags: { batchTool: true, planMode: true }, agent: "general" });
    let asked = 0;
    session.questions.onAsked(() => asked++);
    const question = { questions: [{ question: "q?", header: "h", options: [{ label: "a", description: "a" }] }] };
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        {
          toolCalls: [
            {
              tool: "batch",
              input: {
                tool_calls: [
                  { tool: "question", parameters: question },
                  { tool: "plan_exit", parameters: {} },
                ],
              },
            },
          ],
        },
        { text: "ok" },
      ],
    });
    await run(session, model, "try");
    expect(asked).toBe(0);
    const denied = session.session.calls.filter((call) => call.tool === "question" || call.tool === "plan_exit");
    expect(denied.map((call) => [call.tool, call.status, call.permissions[0]?.answer])).toEqual([
      ["question", "error", "deny"],
      ["plan_exit", "error", "deny"],
    ]);
    expect(session.session.messages.filter((message) => message.role === "user")).toHaveLength(1);
  });
});

describe("persistence", () => {
  it("the todo list and the subagent sessions are saved with their session and come back (a running child call as interrupted)", async () => {
    const { MemoryShelf, ShelfSessionStore } = await import("../../../src/session/record/key-value-session-store.js");
    const store = new ShelfSessionStore(new MemoryShelf());
    const child: SessionRecord = {
      id: "ses_child",
      title: "Look (@general subagent)",
      agent: "general",
      createdAt: 2,
      parentID: "ses_root",
      messages: [],
      calls: [
        {
          id: "call_c",
          sessionID: "ses_child",
          messageID: "msg_c",
          tool: "read",
          input: {},
          status: "running",
          title: "",
          metadata: {},
          permissions: [],
          time: { created: 2 },
        },
      ],
    };
    const root: SessionRecord = {
      id: "ses_root",
      title: "root",
      agent: "build",
      createdAt: 1,
      messages: [],
      calls: [],
      todos: [{ id: "1", content: "Do it", status: "pending", priority: "high" }],
      children: [child],
    };
    await store.save(root);
    const loaded = await store.load("ses_root");
    expect(loaded?.todos).toEqual(root.todos);
    expect(loaded?.children?.[0]).toMatchObject({ id: "ses_child", parentID: "ses_root", title: "Look (@general subagent)" });
    expect(loaded?.children?.[0]?.calls[0]?.status).toBe("interrupted");
    // The children live inside their session: the list shows only the root.
    expect((await store.list()).map((entry) => entry.id)).toEqual(["ses_root"]);
  });
});

describe("the registry's filters for the session tools", () => {
  it("batch follows experimental.batch_tool and the plan tools workbench.planMode; question needs an interactive client", async () => {
    const plain = await open();
    expect(plain.session.registry.ids()).toEqual(expect.arrayContaining(["question", "task", "todowrite", "todoread", "skill"]));
    expect(plain.session.registry.ids()).not.toEqual(expect.arrayContaining(["batch"]));
    expect(plain.session.registry.ids().filter((id) => id.startsWith("plan_"))).toEqual([]);
    const flagged = await open({ "opencode.json": JSON.stringify({ experimental: { batch_tool: true }, workbench: { planMode: true } }) });
    expect(flagged.session.registry.ids().slice(-3)).toEqual(["batch", "plan_enter", "plan_exit"]);
    const server = await open({}, { flags: { client: "server" } });
    expect(server.session.registry.ids()).not.toContain("question");
  });
});

describe("a subagent's calls are saved", () => {
  it("each call of the child saves its root session, with the child inside it", async () => {
    const { MemoryShelf, ShelfSessionStore } = await import("../../../src/session/record/key-value-session-store.js");
    const store = new ShelfSessionStore(new MemoryShelf());
    const { session, runtime } = await open({ "a.txt": "alpha\n" }, { store });
    const model = new ScriptedLanguageModel({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "task", input: { description: "Read a", prompt: "read a.txt", subagent_type: "explore" } }] },
        { toolCalls: [{ tool: "read", input: { filePath: `${runtime.root}/a.txt` } }] },
        { text: "alpha" },
        { text: "done" },
      ],
    });
    await run(session, model, "go");
    const saved = await store.load(session.session.id);
    const child = saved?.children?.[0];
    expect(child?.agent).toBe("explore");
    expect(child?.calls.map((call) => [call.tool, call.status])).toEqual([["read", "completed"]]);
    expect(child?.calls[0]?.output).toContain("alpha");
    expect(await store.load(child!.id)).toBeUndefined();
  });
});
