import { describe, expect, it } from "vitest";
import { AGENT_NAMES, agentRules, composeAgentRuleset, defaultRules, withToolOutputAccess } from "../../../src/tools/permission/agents.js";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { disabledTools } from "../../../src/tools/permission/disabled.js";
import { evaluate } from "../../../src/tools/permission/evaluate.js";

const options = { dataDir: "/data/wb", toolOutputGlob: "/data/wb/tool-output/*" };
const decide = (name: (typeof AGENT_NAMES)[number], permission: string, pattern: string, extra = {}) =>
  evaluate(permission, pattern, agentRules(name, { ...options, ...extra })).action;

describe("defaultRules", () => {
  const rules = defaultRules(options);

  it("allows ordinary tools and asks before leaving the workspace", () => {
    expect(evaluate("bash", "ls", rules).action).toBe("allow");
    expect(evaluate("external_directory", "/etc/*", rules).action).toBe("ask");
    expect(evaluate("doom_loop", "bash", rules).action).toBe("ask");
  });

  it("lets the model read its own truncated output", () => {
    expect(evaluate("external_directory", "/data/wb/tool-output/*", rules).action).toBe("allow");
  });

  it("guards .env files but not their examples", () => {
    expect(evaluate("read", "/p/.env", rules).action).toBe("ask");
    expect(evaluate("read", "/p/.env.local", rules).action).toBe("ask");
    expect(evaluate("read", "/p/.env.example", rules).action).toBe("allow");
    expect(evaluate("read", "/p/src/env.ts", rules).action).toBe("allow");
  });

  it("denies question and plan switching until an agent opts in", () => {
    for (const permission of ["question", "plan_enter", "plan_exit"]) expect(evaluate(permission, "*", rules).action).toBe("deny");
  });

  it("allows skill folders outside the workspace", () => {
    const withSkills = defaultRules({ ...options, skillDirs: ["/home/me/.skills"] });
    expect(evaluate("external_directory", "/home/me/.skills/*", withSkills).action).toBe("allow");
  });

  it("marks every rule as a default", () => {
    expect(new Set(rules.map((r) => r.source))).toEqual(new Set(["default"]));
  });
});

describe("agentRules", () => {
  it("starts every agent from the defaults, its own rules marked 'agent'", () => {
    for (const name of AGENT_NAMES) {
      const rules = agentRules(name, options);
      expect(rules.slice(0, defaultRules(options).length)).toEqual(defaultRules(options));
      expect(rules.slice(defaultRules(options).length).every((r) => r.source === "agent")).toBe(true);
    }
  });

  it("build: may ask questions and enter plan mode", () => {
    expect(decide("build", "question", "*")).toBe("allow");
    expect(decide("build", "plan_enter", "*")).toBe("allow");
    expect(decide("build", "plan_exit", "*")).toBe("deny");
    expect(decide("build", "edit", "src/a.ts")).toBe("allow");
  });

  it("plan: edits nothing but its plan files", () => {
    expect(decide("plan", "edit", "src/a.ts")).toBe("deny");
    expect(decide("plan", "edit", ".opencode/plans/today.md")).toBe("allow");
    expect(decide("plan", "external_directory", "/data/wb/plans/*")).toBe("allow");
    expect(decide("plan", "plan_exit", "*")).toBe("allow");
    expect(decide("plan", "edit", "../data/wb/plans/x.md", { worktree: "/work/proj" })).toBe("deny");
    expect(decide("plan", "edit", "../../data/wb/plans/x.md", { worktree: "/work/proj" })).toBe("allow");
  });

  it("general: keeps its hands off the todo list", () => {
    expect(decide("general", "todowrite", "*")).toBe("deny");
    expect(decide("general", "todoread", "*")).toBe("deny");
    expect(decide("general", "bash", "ls")).toBe("allow");
  });

  it("explore: read-only tools only", () => {
    const rules = agentRules("explore", options);
    expect(
      disabledTools(["read", "grep", "glob", "list", "bash", "webfetch", "edit", "write", "apply_patch", "task", "todowrite"], rules),
    ).toEqual(new Set(["edit", "write", "apply_patch", "task", "todowrite"]));
    expect(evaluate("external_directory", "/etc/*", rules).action).toBe("ask");
    expect(evaluate("external_directory", "/data/wb/tool-output/*", rules).action).toBe("allow");
  });

  it("compaction, title, summary: nothing at all", () => {
    for (const name of ["compaction", "title", "summary"] as const) {
      expect(decide(name, "read", "/x")).toBe("deny");
      expect(decide(name, "bash", "ls")).toBe("deny");
    }
  });
});

describe("composeAgentRuleset and withToolOutputAccess", () => {
  const user = rulesFromConfig({ bash: "deny", external_directory: "deny" }, { home: "/home/me" });
  const perAgent = rulesFromConfig({ bash: { "git *": "allow" } }, { home: "/home/me", source: "config" });

  it("puts user config after the built-ins and per-agent config after that", () => {
    const rules = composeAgentRuleset(agentRules("build", options), {
      toolOutputGlob: options.toolOutputGlob,
      user,
      agentConfig: perAgent,
    });
    expect(evaluate("bash", "ls", rules).action).toBe("deny");
    expect(evaluate("bash", "git status", rules).action).toBe("allow");
  });

  it("re-allows the tool output folder even under a blanket external_directory deny", () => {
    const rules = composeAgentRuleset(agentRules("build", options), { toolOutputGlob: options.toolOutputGlob, user });
    expect(evaluate("external_directory", "/etc/*", rules).action).toBe("deny");
    expect(evaluate("external_directory", "/data/wb/tool-output/*", rules).action).toBe("allow");
    expect(rules.at(-1)).toEqual({ permission: "external_directory", pattern: options.toolOutputGlob, action: "allow", source: "default" });
  });

  it("respects a rule that denies exactly that folder", () => {
    const deny = rulesFromConfig({ external_directory: { [options.toolOutputGlob]: "deny" } }, { home: "/" });
    const rules = withToolOutputAccess([...agentRules("build", options), ...deny], options.toolOutputGlob);
    expect(evaluate("external_directory", "/data/wb/tool-output/*", rules).action).toBe("deny");
  });
});
