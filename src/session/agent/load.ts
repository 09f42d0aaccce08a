/**
 * The agents of a workspace, put together as OpenCode does. Lowest first, later layers win per field:
 *   1. the built-ins (build, plan, general, explore, compaction, title, summary);
 *   2. `agent.<name>` in the workspace's opencode.json;
 *   3. markdown agents of the global config folder;
 *   4. markdown agents of the workspace's `.opencode` folder.
 * So a global `agents/x.md` beats `agent.x` in the project's JSON (OpenCode's precedence, surprising as it
 * is). Layers merge per key (options and permission maps deep-merge; a key given again keeps its place and
 * takes the new value); `disable: true` removes an agent, built-ins included.
 *
 * Each agent's rules are the built-in ones for its name (the defaults for a new agent), then the config's
 * top-level `permission` (with the legacy `tools` switches under it), then its own entry's, then access to
 * saved tool output (src/tools/permission/agents.ts composes them).
 *
 * A workspace is other people's content until the person trusts it (`trusted: false`): its rules (the
 * top-level `permission` and `tools`, `agent.<name>` in its opencode.json, its `.opencode` markdown agents)
 * then only count where they are no looser than the agent's built-in rules; the others are set aside, per
 * agent, in `Agent.ignoredRules` (src/tools/permission/loosening.ts says how "looser" is decided). The
 * global config folder is the person's and always counts. Known gap: "looser" is measured against the
 * built-in rules, so a workspace markdown agent that replaces a permission map of the person's global
 * markdown agent of the same name can drop the person's stricter entries (never below the built-ins).
 *
 * A definition that is wrong (a bad type, broken frontmatter, a missing `{file:...}`) is reported and its
 * agent removed, rather than run with some of its settings missing: the missing one could be the rule that
 * kept it from editing.
 */
import { dirname, isAbsolute, join } from "pathe";
import { z } from "zod";
import type { Runtime } from "../../runtime/types.js";
import { agentRules, composeAgentRuleset, defaultRules, type AgentName, type AgentRulesOptions } from "../../tools/permission/agents.js";
import { expandHome, rulesFromConfig, validatePermissionConfig } from "../../tools/permission/config.js";
import { splitLoosening } from "../../tools/permission/loosening.js";
import { engineName, rulesFromV2, type V2Rule } from "../../tools/permission/v2.js";
import type { Action, Ruleset } from "../../tools/permission/types.js";
import { insideWorkspace } from "../config/inside-workspace.js";
import { OUTPUT_FOLDER } from "../../tools/truncation/constants.js";
import type { WorkspaceConfig } from "../config/workspace-config.js";
import { BUILT_IN_AGENTS } from "./builtins.js";
import { AgentConfigError, foldLegacyTools, parseAgentEntry, type AgentEntry } from "../config/agent-entries.js";
import { loadMarkdownAgents } from "./markdown.js";
import type { Agent } from "./types.js";
import { errorMessage } from "../../base/error-message.js";

export interface LoadAgentsOptions {
  /** The app's data folder (absolute): saved tool output and the plan agent's plans live under it. */
  dataDir: string;
  /** For `~` and `$HOME` in permission patterns. */
  home: string;
  /** The global config folder (`~/.config/opencode`), whose markdown agents come before the workspace's. */
  globalConfigDir?: string;
  /** The opencode.json the config came from: `{file:...}` in a prompt is relative to its folder. */
  configPath?: string;
  /** Where saved tool output lives, as a glob; `<dataDir>/tool-output/*` when not given. */
  toolOutputGlob?: string;
  skillDirs?: readonly string[];
  /**
   * Whether the person trusts the workspace. When false its rules that loosen protection are held back
   * (see above) and `{file:...}` in its config may not read outside it. True when absent, for callers
   * that load the person's own folders.
   */
  trusted?: boolean;
}

export interface AgentProblem {
  file: string;
  error: string;
  /** The agent the problem removed, when it concerns one. */
  agent?: string;
}

export interface LoadedAgents {
  /** The default agent first, then the rest by name. */
  agents: Agent[];
  problems: AgentProblem[];
}

const legacyTools = z.record(z.string(), z.boolean()).optional();

export async function loadAgents(runtime: Runtime, config: WorkspaceConfig, options: LoadAgentsOptions): Promise<LoadedAgents> {
  const problems: AgentProblem[] = [];
  const configFile = options.configPath ?? join(runtime.root, "opencode.json");
  const toolOutputGlob = options.toolOutputGlob ?? `${options.dataDir.replace(/\/+$/, "")}/${OUTPUT_FOLDER}/*`;
  // The top-level rules apply to every agent: when they are wrong no agent can run safely, so this throws.
  const tools = legacyTools.safeParse(config.tools);
  if (!tools.success) throw new Error(`${configFile}: tools must be an object of tool names to true or false, e.g. { "bash": false }`);
  const permission = config.permission === undefined ? undefined : validatePermissionConfig(config.permission);
  const user = [
    ...rulesFromConfig(foldLegacyTools(tools.data, permission) ?? {}, { home: options.home, source: "config" }),
    ...(config.permissions === undefined ? [] : rulesFromV2(config.permissions, { home: options.home })),
  ];
  const trusted = options.trusted !== false;
  const rulesOptions: AgentRulesOptions = {
    dataDir: options.dataDir,
    toolOutputGlob,
    worktree: runtime.root,
    skillDirs: options.skillDirs,
  };
  const builtInRules = (key: string) =>
    BUILT_IN_AGENTS.some((agent) => agent.name === key) ? agentRules(key as AgentName, rulesOptions) : defaultRules(rulesOptions);
  // Per agent: the workspace's rules set aside because they would loosen its built-in ones.
  const ignored = new Map<string, Ruleset>();
  const holdBack = (key: string, entry: AgentEntry): AgentEntry => {
    if (trusted || (entry.permission === undefined && entry.permissions === undefined)) return entry;
    const { loosening } = splitLoosening(entryRules(entry, options.home), builtInRules(key));
    if (loosening.length === 0) return entry;
    ignored.set(key, [...(ignored.get(key) ?? []), ...loosening]);
    return {
      ...entry,
      ...(entry.permission === undefined ? {} : { permission: withoutRules(entry.permission, loosening, options.home) }),
      ...(entry.permissions === undefined ? {} : { permissions: withoutV2Rules(entry.permissions, loosening, options.home) }),
    };
  };

  const merged = new Map<string, AgentEntry>();
  const broken = new Map<string, string>();
  const add = (key: string, entry: AgentEntry) => {
    const before = merged.get(key);
    const next = mergeDeep(before ?? { options: {} }, entry);
    // Rule lists add up like permission maps do: a later layer's rules come after, and so win.
    if (before?.permissions && entry.permissions) next.permissions = [...before.permissions, ...entry.permissions];
    merged.set(key, next);
  };
  const fail = (key: string, file: string, error: string) => {
    problems.push({ file, error, agent: key });
    broken.set(key, error);
  };

  // `agents` is OpenCode V2's name for the section; a file may hold either (or both, V2's after V1's).
  for (const name of ["agent", "agents"] as const) {
    const section = config[name] as unknown;
    if (section !== undefined && (typeof section !== "object" || section === null || Array.isArray(section))) {
      problems.push({ file: configFile, error: `${name} must be an object of agent names to their settings` });
    } else {
      for (const [key, raw] of Object.entries((section ?? {}) as Record<string, unknown>)) {
        const at = `${name}${/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
        try {
          const entry = parseAgentEntry(raw, at);
          if (entry.prompt !== undefined)
            entry.prompt = await substituteFiles(runtime, entry.prompt, dirname(configFile), options.home, `${at}.prompt`, trusted);
          add(key, holdBack(key, entry));
        } catch (error) {
          fail(key, configFile, errorMessage(error));
        }
      }
    }
  }

  const configDirs = [
    ...(options.globalConfigDir ? [{ dir: options.globalConfigDir, workspace: false }] : []),
    { dir: join(runtime.root, ".opencode"), workspace: true },
  ];
  for (const { dir, workspace } of configDirs) {
    const markdown = await loadMarkdownAgents(runtime, dir);
    for (const problem of markdown.problems) fail(problem.key, problem.file, problem.error);
    for (const { key, entry, file } of markdown.agents) {
      // A workspace agent file that is a link out would put someone's outside file into a prompt.
      if (workspace && !trusted && !(await insideWorkspace(runtime, file))) {
        fail(
          key,
          file,
          "is a link to a file outside the workspace, which an untrusted workspace's agents may not use: trust the workspace, or replace the link with the file itself",
        );
        continue;
      }
      add(key, workspace ? holdBack(key, entry) : entry);
    }
  }

  // The top-level rules apply to every agent, so whether one loosens depends on the agent's own defaults.
  const userFor = (key: string, base: Ruleset): Ruleset => {
    if (trusted) return user;
    const { kept, loosening } = splitLoosening(user, base);
    if (loosening.length > 0) ignored.set(key, [...loosening, ...(ignored.get(key) ?? [])]);
    return kept;
  };
  const compose = (key: string, base: Ruleset, entry: AgentEntry | undefined) =>
    composeAgentRuleset(base, {
      toolOutputGlob,
      user: userFor(key, base),
      agentConfig: entry === undefined ? [] : entryRules(entry, options.home),
    });

  const agents = new Map<string, Agent>();
  for (const builtIn of BUILT_IN_AGENTS) {
    agents.set(builtIn.name, {
      name: builtIn.name,
      description: builtIn.description,
      mode: builtIn.mode,
      builtIn: true,
      hidden: builtIn.hidden,
      prompt: builtIn.prompt,
      temperature: builtIn.temperature,
      permission: compose(builtIn.name, agentRules(builtIn.name, rulesOptions), undefined),
      options: {},
    });
  }
  for (const [key, entry] of merged) {
    if (broken.has(key) || entry.disable === true) continue;
    const builtIn = BUILT_IN_AGENTS.find((agent) => agent.name === key);
    const base = agents.get(key);
    agents.set(key, {
      name: entry.name ?? key,
      description: entry.description ?? base?.description,
      mode: entry.mode ?? base?.mode ?? "all",
      builtIn: builtIn !== undefined,
      hidden: entry.hidden ?? base?.hidden ?? false,
      // An empty prompt (a markdown agent with no body) leaves the model family's base prompt in charge.
      prompt: entry.prompt === undefined ? base?.prompt : entry.prompt === "" ? undefined : entry.prompt,
      model: entry.model ?? base?.model,
      temperature: entry.temperature ?? base?.temperature,
      topP: entry.topP ?? base?.topP,
      steps: entry.steps ?? base?.steps,
      color: entry.color ?? base?.color,
      variant: entry.variant ?? base?.variant,
      permission: compose(key, builtInRules(key), entry),
      options: mergeDeep(base?.options ?? {}, entry.options),
    });
  }
  for (const [key, agent] of agents) {
    const held = ignored.get(key);
    if (held && held.length > 0) agent.ignoredRules = held;
  }
  for (const key of broken.keys()) agents.delete(key);
  for (const [key, entry] of merged) if (entry.disable === true) agents.delete(key);

  const list = [...agents.values()];
  const preferred = typeof config.default_agent === "string" ? config.default_agent : undefined;
  if (config.default_agent !== undefined) {
    const reason = defaultAgentProblem(list, config.default_agent);
    if (reason) problems.push({ file: configFile, error: `default_agent ${reason}; using ${firstPrimary(list)?.name ?? "none"} instead` });
  }
  const first = list.length > 0 ? defaultAgent(list, preferred) : undefined;
  list.sort((a, b) => (a === first ? -1 : b === first ? 1 : a.name.localeCompare(b.name)));
  return { agents: list, problems };
}

/**
 * The agent a new session starts with: `preferred` (the config's `default_agent`) when it names a visible
 * primary agent, else the first visible one that is not only a subagent (build, or plan if build is gone).
 */
export function defaultAgent(agents: readonly Agent[], preferred?: string): Agent {
  const chosen =
    preferred !== undefined && defaultAgentProblem(agents, preferred) === undefined
      ? agents.find((agent) => agent.name === preferred)
      : undefined;
  const agent = chosen ?? firstPrimary(agents);
  if (!agent)
    throw new Error(
      "no primary agent is left to start a session with: re-enable build or plan (remove disable: true), or add an agent with mode primary",
    );
  return agent;
}

/** The agents Tab cycles through: primary (or all-mode) and not hidden, in list order. */
export function primaryAgents(agents: readonly Agent[]): Agent[] {
  return agents.filter((agent) => agent.mode !== "subagent" && !agent.hidden);
}

/** The agents the task tool may start: anything that is not only a primary. */
export function subagents(agents: readonly Agent[]): Agent[] {
  return agents.filter((agent) => agent.mode !== "primary");
}

function firstPrimary(agents: readonly Agent[]): Agent | undefined {
  return agents.find((agent) => agent.name === "build" && agent.mode !== "subagent" && !agent.hidden) ?? primaryAgents(agents)[0];
}

function defaultAgentProblem(agents: readonly Agent[], name: unknown): string | undefined {
  if (typeof name !== "string") return "must be a string naming a primary agent";
  const agent = agents.find((candidate) => candidate.name === name);
  if (!agent) return `"${name}" is not an agent (there are ${agents.map((a) => a.name).join(", ")})`;
  if (agent.mode === "subagent") return `"${name}" is a subagent, which cannot start a session`;
  if (agent.hidden) return `"${name}" is hidden`;
  return undefined;
}

/**
 * `{file:path}` in an opencode.json prompt becomes the file's text (trimmed): `~/` is home, a relative
 * path is relative to the config file's folder. A missing file is an error, as in OpenCode.
 */
async function substituteFiles(runtime: Runtime, text: string, base: string, home: string, at: string, trusted: boolean): Promise<string> {
  const tokens = [...text.matchAll(/\{file:([^}]+)\}/g)];
  let result = text;
  for (const [token, raw] of tokens) {
    const path = raw!.startsWith("~/") ? join(home, raw!.slice(2)) : isAbsolute(raw!) ? raw! : join(base, raw!);
    if (!trusted && !(await insideWorkspace(runtime, path))) {
      throw new AgentConfigError(
        `${at}: ${token} names ${path}, outside the workspace, which an untrusted workspace's config may not read: trust the workspace, or keep the file inside it`,
      );
    }
    const bytes = await runtime.fs.readFile(path).catch(() => undefined);
    if (!bytes)
      throw new AgentConfigError(
        `${at}: ${token} names ${path}, which does not exist: create it or fix the path (relative paths start at the config file's folder)`,
      );
    result = result.replace(token, () => new TextDecoder().decode(bytes).trim());
  }
  return result;
}

/** `permission` without the given rules (matched by permission, pattern as written or expanded, and action). */
function withoutRules(
  permission: NonNullable<AgentEntry["permission"]>,
  drop: Ruleset,
  home: string,
): NonNullable<AgentEntry["permission"]> {
  const gone = (key: string, pattern: string, action: string) =>
    drop.some(
      (rule) =>
        rule.permission === engineName(key) &&
        rule.action === action &&
        (rule.pattern === pattern || rule.pattern === expandHome(pattern, home)),
    );
  const result: Record<string, Action | Record<string, Action>> = {};
  for (const [key, value] of Object.entries(permission)) {
    if (typeof value === "string") {
      if (!gone(key, "*", value)) result[key] = value;
      continue;
    }
    const patterns = Object.fromEntries(Object.entries(value).filter(([pattern, action]) => !gone(key, pattern, action)));
    if (Object.keys(patterns).length > 0) result[key] = patterns;
  }
  return result;
}

/** Plain objects merge per key (a key given again keeps its place); anything else is replaced. */
/** An agent entry's own rules: its `permission` map, then its V2 `permissions` list. */
function entryRules(entry: AgentEntry, home: string): Ruleset {
  return [
    ...rulesFromConfig(entry.permission ?? {}, { home, source: "config" }),
    ...(entry.permissions === undefined ? [] : rulesFromV2(entry.permissions, { home })),
  ];
}

/** The list without the rules in `drop` (compared after the same name mapping and home expansion). */
function withoutV2Rules(permissions: readonly V2Rule[], drop: Ruleset, home: string): V2Rule[] {
  return permissions.filter(
    (rule) =>
      !drop.some(
        (gone) =>
          gone.permission === engineName(rule.action) &&
          gone.action === rule.effect &&
          (gone.pattern === rule.resource || gone.pattern === expandHome(rule.resource, home)),
      ),
  );
}

function mergeDeep<T>(base: T, over: T): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    result[key] = key in result ? mergeDeep(result[key], value) : value;
  }
  return result as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
