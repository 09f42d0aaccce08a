/**
 * Agents as a workspace defines them: the built-ins and their rules, opencode.json's `agent` entries,
 * markdown agents, how the layers merge, and path-named errors for what is wrong. Run on the embedded
 * runtime, with real tool calls where a rule matters.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { defaultAgent, loadAgents, primaryAgents, subagents, type Agent } from "../../../src/session/agent/index.js";
import { loadWorkspaceConfig } from "../../../src/session/config/workspace-config.js";
import { evaluate } from "../../../src/tools/permission/evaluate.js";
import { sessionWith } from "../../support/tool-session.js";

const GLOBAL = "/home/user/.config/opencode";
let runtime: EmbeddedRuntime | undefined;
const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
  for (const dispose of disposers.splice(0)) await dispose();
});

/** Files relative to the workspace, or absolute (the global config folder). */
async function agentsOf(files: Record<string, string>) {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  for (const [path, text] of Object.entries(files)) {
    const full = path.startsWith("/") ? path : `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  const { config, path } = await loadWorkspaceConfig(runtime);
  const loaded = await loadAgents(runtime, config, { dataDir: "/data", home: "/home/user", globalConfigDir: GLOBAL, configPath: path });
  const byName = (name: string): Agent => {
    const agent = loaded.agents.find((candidate) => candidate.name === name);
    if (!agent) throw new Error(`no agent ${name} among ${loaded.agents.map((a) => a.name).join(", ")}`);
    return agent;
  };
  return { ...loaded, byName, root: runtime.root };
}

const decide = (agent: Agent, permission: string, pattern = "*") => evaluate(permission, pattern, agent.permission).action;
const json = (value: unknown) => JSON.stringify(value);

describe("built-in agents", () => {
  it("are build (the default), plan, general, explore and the hidden three", async () => {
    const { agents } = await agentsOf({});
    expect(agents.map((a) => a.name)).toEqual(["build", "compaction", "explore", "general", "plan", "summary", "title"]);
    expect(defaultAgent(agents).name).toBe("build");
    expect(primaryAgents(agents).map((a) => a.name)).toEqual(["build", "plan"]);
    expect(subagents(agents).map((a) => a.name)).toEqual(["explore", "general"]);
    for (const name of ["compaction", "title", "summary"]) {
      const agent = agents.find((a) => a.name === name)!;
      expect(agent.hidden).toBe(true);
      expect(agent.prompt?.length).toBeGreaterThan(50);
      expect(decide(agent, "read", "/workspace/a.ts")).toBe("deny");
    }
    expect(agents.every((a) => a.builtIn)).toBe(true);
  });

  it("plan cannot edit outside its plan files; real writes agree", async () => {
    const s = await sessionWith({ "src/a.ts": "x\n" }, { agent: "plan" });
    disposers.push(s.dispose);
    expect(decide(s.session.agent, "edit", "src/a.ts")).toBe("deny");
    expect(decide(s.session.agent, "edit", ".opencode/plans/feature.md")).toBe("allow");
    expect(decide(s.session.agent, "edit", ".opencode/plans/feature.ts")).toBe("deny");
    const denied = await s.session.run("write", { filePath: `${s.runtime.root}/src/new.ts`, content: "changed\n" });
    expect(denied.status).toBe("error");
    expect(denied.error).toMatch(/rule which prevents you/);
    await expect(s.runtime.fs.stat(`${s.runtime.root}/src/new.ts`)).rejects.toThrow();
    const plan = await s.session.run("write", { filePath: `${s.runtime.root}/.opencode/plans/feature.md`, content: "# Plan\n" });
    expect(plan.status).toBe("completed");
  });

  it("explore is read-only: it reads and searches, and every edit is denied", async () => {
    const s = await sessionWith({ "a.txt": "hello\n" }, { agent: "explore" });
    disposers.push(s.dispose);
    const agent = s.session.agent;
    for (const permission of ["read", "grep", "glob", "list", "bash", "webfetch"]) expect(decide(agent, permission, "x")).toBe("allow");
    for (const permission of ["edit", "todowrite", "task", "question", "some_mcp_tool"])
      expect(decide(agent, permission, "x")).toBe("deny");
    expect((await s.session.run("read", { filePath: `${s.runtime.root}/a.txt` })).status).toBe("completed");
    const edit = await s.session.run("edit", { filePath: `${s.runtime.root}/a.txt`, oldString: "hello", newString: "bye" });
    expect(edit.status).toBe("error");
    expect(new TextDecoder().decode(await s.runtime.fs.readFile(`${s.runtime.root}/a.txt`))).toBe("hello\n");
  });

  it("general cannot keep a todo list (it would clobber its parent's) but may edit", async () => {
    const { byName } = await agentsOf({});
    expect(decide(byName("general"), "todowrite")).toBe("deny");
    expect(decide(byName("general"), "todoread")).toBe("deny");
    expect(decide(byName("general"), "edit", "a.ts")).toBe("allow");
    expect(decide(byName("build"), "todowrite")).toBe("allow");
  });
});

describe("agents from opencode.json", () => {
  it("override a built-in's fields and rules, the user's top-level rules in between", async () => {
    const { byName, problems } = await agentsOf({
      "opencode.json": json({
        permission: { bash: "ask", edit: "deny" },
        agent: {
          build: {
            model: "openrouter/anthropic/claude-sonnet-4",
            temperature: 0.3,
            top_p: 0.9,
            steps: 12,
            permission: { edit: "allow" },
            color: "#00ff88",
          },
          plan: { tools: { bash: false } },
        },
      }),
    });
    expect(problems).toEqual([]);
    const build = byName("build");
    expect(build.model).toEqual({ providerID: "openrouter", modelID: "anthropic/claude-sonnet-4" });
    expect([build.temperature, build.topP, build.steps, build.color]).toEqual([0.3, 0.9, 12, "#00ff88"]);
    expect(decide(build, "edit", "a.ts")).toBe("allow");
    expect(decide(build, "bash", "ls")).toBe("ask");
    expect(decide(byName("plan"), "bash", "ls")).toBe("deny");
    expect(decide(byName("general"), "edit", "a.ts")).toBe("deny");
    // The agent's own rules come after the user's: the order of explanation layers says so.
    expect(build.permission.at(-2)).toMatchObject({ permission: "edit", pattern: "*", action: "allow", source: "config" });
  });

  it("define new agents (mode all by default), with the prompt from {file:...} and unknown keys as options", async () => {
    const { byName, agents } = await agentsOf({
      "prompts/review.md": "  Review the diff carefully.  \n",
      "opencode.json": json({
        agent: {
          review: { description: "Reviews code", prompt: "{file:./prompts/review.md}", reasoningEffort: "high", options: { store: false } },
          docs: { mode: "subagent", prompt: "Write docs." },
        },
      }),
    });
    const review = byName("review");
    expect(review).toMatchObject({
      mode: "all",
      builtIn: false,
      hidden: false,
      description: "Reviews code",
      prompt: "Review the diff carefully.",
    });
    expect(review.options).toEqual({ store: false, reasoningEffort: "high" });
    // A new agent starts from the defaults: it may edit, but question and plan switching stay denied.
    expect(decide(review, "edit", "a.ts")).toBe("allow");
    expect(decide(review, "question")).toBe("deny");
    expect(primaryAgents(agents).map((a) => a.name)).toEqual(["build", "plan", "review"]);
    expect(subagents(agents).map((a) => a.name)).toContain("docs");
  });

  it("disable removes an agent, built-ins included, and default_agent picks the first agent", async () => {
    const { agents, problems } = await agentsOf({
      "opencode.json": json({ default_agent: "plan", agent: { general: { disable: true }, build: { disable: true } } }),
    });
    expect(problems).toEqual([]);
    expect(agents.map((a) => a.name)).not.toContain("general");
    expect(agents.map((a) => a.name)).not.toContain("build");
    expect(agents[0]!.name).toBe("plan");
    expect(defaultAgent(agents, "plan").name).toBe("plan");
  });

  it("reports a default_agent that cannot start a session and falls back to build", async () => {
    const { agents, problems } = await agentsOf({ "opencode.json": json({ default_agent: "explore" }) });
    expect(problems).toEqual([
      {
        file: "/workspace/opencode.json",
        error: 'default_agent "explore" is a subagent, which cannot start a session; using build instead',
      },
    ]);
    expect(agents[0]!.name).toBe("build");
  });

  it("legacy tools fold under permission as OpenCode merges them: a key in both takes permission's value in the switch's place", async () => {
    const { byName } = await agentsOf({
      "opencode.json": json({ agent: { build: { tools: { bash: false, write: false }, permission: { "*": "allow", bash: "ask" } } } }),
    });
    const rules = byName("build").permission.filter((rule) => rule.source === "config");
    expect(rules.map((r) => [r.permission, r.action])).toEqual([
      ["bash", "ask"],
      ["edit", "deny"],
      ["*", "allow"],
    ]);
    expect(decide(byName("build"), "bash", "ls")).toBe("allow");
  });
});

describe("markdown agents", () => {
  const reviewer = [
    "---",
    "description: Reviews code for quality and best practices",
    "mode: subagent",
    "model: anthropic/claude-sonnet-4-20250514",
    "temperature: 0.1",
    "tools:",
    "  write: false",
    "permission:",
    "  bash:",
    '    "*": ask',
    '    "git diff*": allow',
    "---",
    "You are in code review mode. Focus on security and performance.",
    "",
  ].join("\n");

  it("take their name from the file, their settings from the frontmatter and their prompt from the body", async () => {
    const { byName, problems } = await agentsOf({
      ".opencode/agent/review.md": reviewer,
      ".opencode/agents/docs/writer.md": "Write the docs.\n",
    });
    expect(problems).toEqual([]);
    const review = byName("review");
    expect(review).toMatchObject({
      mode: "subagent",
      description: "Reviews code for quality and best practices",
      model: { providerID: "anthropic", modelID: "claude-sonnet-4-20250514" },
      temperature: 0.1,
      prompt: "You are in code review mode. Focus on security and performance.",
    });
    expect(decide(review, "edit", "a.ts")).toBe("deny");
    expect(decide(review, "bash", "git diff HEAD")).toBe("allow");
    expect(decide(review, "bash", "rm -rf x")).toBe("ask");
    expect(byName("docs/writer")).toMatchObject({ mode: "all", prompt: "Write the docs." });
  });

  it("modes/*.md are primary agents, and frontmatter name overrides the file name", async () => {
    const { byName } = await agentsOf({ ".opencode/modes/focus.md": "---\nname: deep-focus\n---\nFocus.\n" });
    expect(byName("deep-focus").mode).toBe("primary");
  });

  it("merge over JSON entries: global markdown beats the project's JSON, the workspace's markdown beats both", async () => {
    const { byName } = await agentsOf({
      "opencode.json": json({
        agent: { build: { temperature: 0.9, steps: 3, description: "json" }, review: { description: "json", temperature: 0.9 } },
      }),
      [`${GLOBAL}/agent/build.md`]: "---\ntemperature: 0.5\ndescription: global\n---\n",
      [`${GLOBAL}/agent/review.md`]: "---\ndescription: global\n---\nGlobal prompt.\n",
      ".opencode/agent/review.md": "---\ndescription: workspace\n---\nWorkspace prompt.\n",
    });
    // Fields not given by a later layer stay; an empty body leaves build on the family prompt.
    expect(byName("build")).toMatchObject({ temperature: 0.5, steps: 3, description: "global", prompt: undefined });
    expect(byName("review")).toMatchObject({ temperature: 0.9, description: "workspace", prompt: "Workspace prompt." });
  });

  it("an empty body on explore drops its own prompt for the family prompt", async () => {
    const { byName } = await agentsOf({ ".opencode/agent/explore.md": "---\ntemperature: 0.2\n---\n\n" });
    expect(byName("explore").prompt).toBeUndefined();
  });
});

describe("problems name the file and the exact place", () => {
  it("wrong types in opencode.json: every problem, with its path; the agent is left out", async () => {
    const { agents, problems } = await agentsOf({
      "opencode.json": json({
        agent: {
          review: { temperature: "hot", mode: "sometimes", model: "gpt-4o", tools: { bash: "no" }, permission: { bash: "yes" } },
          good: { description: "fine" },
        },
      }),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toBe("/workspace/opencode.json");
    expect(problems[0]!.agent).toBe("review");
    const error = problems[0]!.error;
    expect(error).toContain("agent.review.temperature: must be a number, e.g. 0.2");
    expect(error).toContain('agent.review.mode: must be "primary", "subagent" or "all"');
    expect(error).toContain('agent.review.model: must be "provider/model"');
    expect(error).toContain("agent.review.tools.bash: must be true or false");
    expect(error).toContain('agent.review.permission.bash must be "allow", "ask" or "deny", got "yes"');
    expect(agents.map((a) => a.name)).not.toContain("review");
    expect(agents.map((a) => a.name)).toContain("good");
  });

  it("bad frontmatter: the file and the line; wrong types: the file and the key", async () => {
    const { problems, agents } = await agentsOf({
      ".opencode/agent/broken.md": "---\ndescription: x\ntools: [bash]\n---\nBody\n",
      ".opencode/agent/typed.md": "---\nsteps: -2\npermission:\n  edit: maybe\n---\nBody\n",
    });
    expect(problems).toEqual([
      {
        file: "/workspace/.opencode/agent/broken.md",
        agent: "broken",
        error: "frontmatter line 3: lists ([a, b]) are not supported in agent frontmatter",
      },
      {
        file: "/workspace/.opencode/agent/typed.md",
        agent: "typed",
        error:
          'frontmatter.steps: must be a whole number above 0; frontmatter.permission.edit must be "allow", "ask" or "deny", got "maybe"',
      },
    ]);
    expect(agents.map((a) => a.name)).not.toContain("broken");
  });

  it("a broken override of build removes build rather than loosen it; the session falls back to plan and says why", async () => {
    const files = { ".opencode/agent/build.md": "---\npermission:\n  edit: nope\n---\n" };
    const s = await sessionWith(files);
    disposers.push(s.dispose);
    expect(s.session.agent.name).toBe("plan");
    expect(s.session.problems.map((p) => p.file)).toEqual(["/workspace/.opencode/agent/build.md"]);
    await expect(sessionWith(files, { agent: "build" })).rejects.toThrow(
      /unknown agent "build" \(\/workspace\/\.opencode\/agent\/build\.md: frontmatter\.permission\.edit must be/,
    );
  });

  it("a {file:...} prompt that does not exist is reported with the path it looked at", async () => {
    const { problems } = await agentsOf({ "opencode.json": json({ agent: { review: { prompt: "{file:prompts/missing.md}" } } }) });
    expect(problems[0]!.error).toBe(
      "agent.review.prompt: {file:prompts/missing.md} names /workspace/prompts/missing.md, which does not exist: create it or fix the path (relative paths start at the config file's folder)",
    );
  });

  it("a top-level permission or tools section that is wrong stops loading: no agent could run safely", async () => {
    await expect(agentsOf({ "opencode.json": json({ permission: { bash: "sure" } }) })).rejects.toThrow(
      /permission\.bash:? must be "allow", "ask" or "deny"/,
    );
    await expect(agentsOf({ "opencode.json": json({ tools: { bash: "off" } }) })).rejects.toThrow(
      /tools(\.bash)?:? must be (an object of tool names to )?true or false/,
    );
  });
});

describe("ToolSession and loaded agents", () => {
  it("opens with a loaded agent object, or a config agent by name, and runs under its rules", async () => {
    const files = { "opencode.json": json({ agent: { careful: { permission: { read: "deny" } } } }), "a.txt": "hi\n" };
    const byName = await sessionWith(files, { agent: "careful" });
    disposers.push(byName.dispose);
    expect(byName.session.agent.name).toBe("careful");
    expect((await byName.session.run("read", { filePath: `${byName.runtime.root}/a.txt` })).status).toBe("error");
    const explore = byName.session.agents.find((a) => a.name === "explore")!;
    const byObject = await sessionWith(files, { agent: explore });
    disposers.push(byObject.dispose);
    expect(byObject.session.agent).toBe(explore);
    expect(byObject.session.session.agent).toBe("explore");
    expect((await byObject.session.run("read", { filePath: `${byObject.runtime.root}/a.txt` })).status).toBe("completed");
  });

  it("an unknown agent name says which exist", async () => {
    await expect(sessionWith({}, { agent: "nope" })).rejects.toThrow(
      /unknown agent "nope": use one of build, compaction, explore, general, plan, summary, title/,
    );
  });
});
