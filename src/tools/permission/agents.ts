/**
 * The rules every agent starts from, before any user config. They follow OpenCode's built-in agents, so a
 * config written for OpenCode means the same thing here.
 *
 * Composition is concatenation (last match wins): defaults, then the agent's own rules, then user config,
 * then per-agent config, then the tool-output allowance. Each layer only has to state what it changes.
 */
import { join, relative } from "pathe";
import { rulesFromConfig, type PermissionConfig } from "./config.js";
import type { RuleSource, Ruleset } from "./types.js";

export interface AgentRulesOptions {
  /** The app's data folder; the plan agent may write its plans under `<dataDir>/plans`. */
  dataDir: string;
  /** Where truncated tool output is saved, as a glob (`<dir>/*`): the model must be able to read it back. */
  toolOutputGlob: string;
  /** Folders holding skills, whose files agents may read without a prompt. */
  skillDirs?: readonly string[];
  /** The project's worktree; lets the plan agent's edit rule name the plans folder relative to it. */
  worktree?: string;
}

export const AGENT_NAMES = ["build", "plan", "general", "explore", "compaction", "title", "summary"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** What every agent gets: everything allowed except what needs a person or could leak secrets. */
export function defaultRules(options: AgentRulesOptions): Ruleset {
  return rules("default", {
    "*": "allow",
    doom_loop: "ask",
    external_directory: { "*": "ask", ...allowAll(whitelistedFolders(options)) },
    question: "deny",
    plan_enter: "deny",
    plan_exit: "deny",
    // Secrets live in .env files; their examples are meant to be read.
    read: { "*": "allow", "*.env": "ask", "*.env.*": "ask", "*.env.example": "allow" },
  });
}

/** The defaults followed by what makes each agent what it is. */
export function agentRules(name: AgentName, options: AgentRulesOptions): Ruleset {
  return [...defaultRules(options), ...rules("agent", agentSpecific(name, options))];
}

/**
 * The plan agent's shell: a few commands that only look run unasked; anything else asks, since it may
 * change files (`echo > f`, `sed -i`, `rm -rf`). The later rules win, so a redirection (`cat a > b`) or an
 * output option asks even on an allowed command.
 */
const PLAN_BASH: Record<string, "allow" | "ask"> = {
  "*": "ask",
  ls: "allow",
  "ls *": "allow",
  pwd: "allow",
  "cat *": "allow",
  "head *": "allow",
  "tail *": "allow",
  "wc *": "allow",
  "grep *": "allow",
  "git status": "allow",
  "git status *": "allow",
  "*>*": "ask",
  "*--output*": "ask",
};

function agentSpecific(name: AgentName, options: AgentRulesOptions): PermissionConfig {
  switch (name) {
    case "build":
      return { question: "allow", plan_enter: "allow" };
    case "plan": {
      // The plan agent thinks but does not touch the project: it may only write its own plan files.
      const edit: Record<string, "allow" | "deny"> = { "*": "deny", ".opencode/plans/*.md": "allow" };
      if (options.worktree !== undefined) edit[relative(options.worktree, join(options.dataDir, "plans", "*.md"))] = "allow";
      return {
        question: "allow",
        plan_exit: "allow",
        external_directory: { [join(options.dataDir, "plans", "*")]: "allow" },
        edit,
        bash: PLAN_BASH,
      };
    }
    case "general":
      // A subagent's todo list would clobber its parent's.
      return { todoread: "deny", todowrite: "deny" };
    case "explore":
      // Read-only by construction: deny everything, then list what looking around needs.
      return {
        "*": "deny",
        grep: "allow",
        glob: "allow",
        list: "allow",
        bash: "allow",
        webfetch: "allow",
        websearch: "allow",
        codesearch: "allow",
        read: "allow",
        external_directory: { "*": "ask", ...allowAll(whitelistedFolders(options)) },
      };
    case "compaction":
    case "title":
    case "summary":
      // Internal agents that only produce text.
      return { "*": "deny" };
  }
}

export interface ComposeOptions {
  toolOutputGlob: string;
  /** The config file's top-level `permission` rules. */
  user?: Ruleset;
  /** The config file's `agent.<name>.permission` rules. */
  agentConfig?: Ruleset;
}

/** An agent's effective ruleset: built-ins, then user config, then per-agent config, then tool output access. */
export function composeAgentRuleset(builtIn: Ruleset, options: ComposeOptions): Ruleset {
  return withToolOutputAccess([...builtIn, ...(options.user ?? []), ...(options.agentConfig ?? [])], options.toolOutputGlob);
}

/**
 * Truncated output is saved outside the project and the truncation notice tells the model to read it, so
 * config that asks (or denies) for every outside folder must not make that notice a dead end. Only a rule that
 * denies exactly this folder is taken as the user's considered wish and respected.
 */
export function withToolOutputAccess(ruleset: Ruleset, toolOutputGlob: string): Ruleset {
  const explicitlyDenied = ruleset.some(
    (rule) => rule.permission === "external_directory" && rule.pattern === toolOutputGlob && rule.action === "deny",
  );
  if (explicitlyDenied) return ruleset;
  return [...ruleset, { permission: "external_directory", pattern: toolOutputGlob, action: "allow", source: "default" }];
}

function whitelistedFolders(options: AgentRulesOptions): string[] {
  return [options.toolOutputGlob, ...(options.skillDirs ?? []).map((dir) => join(dir, "*"))];
}

function allowAll(patterns: readonly string[]): Record<string, "allow"> {
  return Object.fromEntries(patterns.map((pattern) => [pattern, "allow" as const]));
}

// Built-in patterns are absolute or project-relative and never start with `~`, so there is no home to expand.
function rules(source: RuleSource, config: PermissionConfig): Ruleset {
  return rulesFromConfig(config, { home: "", source });
}
