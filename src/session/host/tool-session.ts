/**
 * Everything one session of tool calls needs, put together from a runtime: the workspace config, the
 * agent's rules, the permission engine, FileTime, truncation, the registry with the workspace's custom
 * tools and plugins (only when the workspace is trusted), and the runner.
 */
import type { Runtime } from "../../runtime/types.js";
import { engineName } from "../../tools/permission/v2-names.js";
import { toolNamesOf } from "../config/tool-names.js";
import { BackgroundJobs } from "../../tools/jobs/background-jobs.js";
import { Bus } from "../../tools/bus.js";
import { fromPlugin } from "../../tools/custom/from-plugin.js";
import { DEFAULT_CUSTOM_TOOL_TIMEOUT_MS, withTimeLimit } from "../../tools/custom/time-limit.js";
import {
  configDirectories,
  loadCustomTools,
  loadPlugins,
  workspaceCodeFiles,
  type LoadedPlugin,
  type LoadProblem,
} from "../../tools/custom/loader.js";
import { createPluginShell } from "../../tools/custom/plugin-api.js";
import type { WorkspaceCodeLoader } from "../../tools/custom/workspace-code.js";
import { FileTime } from "../../tools/file-time.js";
import { PermissionEngine } from "../../tools/permission/engine.js";
import { isKnownPermission, knownPermissions } from "../../tools/permission/known.js";
import { explain, UNTRUSTED_IGNORED, type Explanation, type RuleLayer } from "../../tools/permission/evaluate.js";
import type { Ruleset } from "../../tools/permission/types.js";
import { defaultFlags, ToolRegistry, type RegistryFlags } from "../../tools/registry.js";
import type { LanguageService } from "../../tools/ports/language-service.js";
import type { PreviewAccess } from "../../tools/ports/preview-access.js";
import type { Info } from "../../tools/tool.js";
import { defaultAgent, loadAgents, type AgentProblem } from "../agent/load.js";
import type { Agent } from "../agent/types.js";
import { OutputStore, TruncationSink, truncateOutput } from "../../tools/truncation/index.js";
import type { SessionRecord, ToolCall } from "../record/session-record.js";
import { ascendingId } from "../record/ids.js";
import type { SessionStore } from "../record/session-store.js";
import type { SessionCheckpoints } from "./session-checkpoints.js";
import { ToolRunner, type RunOptions } from "./tool-runner.js";
import { McpManager, type LocalTransportFactory } from "./mcp/manager.js";
import { nodeWebAccess } from "./node-web.js";
import type { WebAccess } from "../../tools/ports/web-access.js";
import { loadWorkspaceConfig, saveApprovals, type WorkspaceConfig } from "../config/workspace-config.js";
import type { SkillInfo } from "../../tools/ports/session-services.js";
import { Questions } from "./questions.js";
import { manualServices } from "./call-services.js";
import { discoverSkills, skillFolders, type SkillProblem } from "../agent/skills.js";

export interface ToolSessionOptions {
  runtime: Runtime;
  /** The app's data folder (truncated outputs go under it), absolute, outside the workspace. */
  dataDir: string;
  /** For `~` and `$HOME` in permission patterns. */
  home: string;
  builtins: Info[];
  flags?: Partial<RegistryFlags>;
  /** Whether the workspace's own code (custom tools, plugins) may run. */
  trusted: boolean;
  /** How a trusted workspace's code is loaded: the page's sandbox; in this process when absent (the CLI). */
  workspaceCode?: WorkspaceCodeLoader;
  globalConfigDir?: string;
  /**
   * The agent whose rules apply: one from loadAgents (src/session/agent), or the name of one (built in,
   * from opencode.json or from a markdown file); the workspace's default agent when absent.
   */
  agent?: string | Agent;
  store?: SessionStore;
  bus?: Bus;
  /** Continue this record (its calls stay in the transcript) instead of starting an empty one. */
  session?: SessionRecord;
  /** Runs a local MCP server's command: the CLI gives it; the page cannot, so its local servers say so. */
  mcpLocal?: LocalTransportFactory;
  /** Connect the MCP servers only when `session.mcp.start()` is called (the CLI first hides the provider keys). */
  mcpDeferred?: boolean;
  /** How web tools reach the web: the page passes its own (direct, then a proxy); Node's plain fetch otherwise. */
  web?: WebAccess;
  /**
   * The workspace's language service (diagnostics after writes, the lsp tool). Left out of the session
   * when opencode.json says `"lsp": false` (or disables its typescript server).
   */
  languageService?: LanguageService;
  /** The page's preview: given only by a page, which is where the preview tool is offered. */
  preview?: PreviewAccess;
  /** The workspace's checkpoints, marked before each message and around each call. */
  checkpoints?: SessionCheckpoints;
  /**
   * What the session being continued has read (a reopen after rules were saved or trust changed): the
   * files did not change, so the model need not read them again before editing.
   */
  fileTime?: FileTime;
}

/**
 * The search endpoint a trusted workspace names (workbench.exaUrl) on top of the web access given: an
 * untrusted workspace's endpoint would receive every query, so it is not used until the person trusts it.
 */
function withExaUrl(web: WebAccess, exaUrl: string | undefined): WebAccess {
  if (!exaUrl) return web;
  return { fetch: (request) => web.fetch(request), exaUrl, ...(web.fromThisMachine ? { fromThisMachine: true } : {}) };
}

/** OpenCode's `lsp` key: false turns every server off; `{ typescript: { disabled: true } }` just that one. */
function lspDisabled(config: WorkspaceConfig): boolean {
  const lsp: unknown = config.lsp;
  if (lsp === false) return true;
  if (typeof lsp !== "object" || lsp === null) return false;
  const typescript: unknown = (lsp as Record<string, unknown>).typescript;
  return typeof typescript === "object" && typescript !== null && (typescript as Record<string, unknown>).disabled === true;
}

/**
 * OpenCode's flag for the lsp tool is an environment variable (OPENCODE_EXPERIMENTAL_LSP_TOOL, or
 * OPENCODE_EXPERIMENTAL); a page has no environment, so the workspace config can set it too, under our
 * own key: `"workbench": { "experimentalLspTool": true }`.
 */
function lspToolFromConfig(config: WorkspaceConfig): boolean {
  const workbench: unknown = config.workbench;
  return typeof workbench === "object" && workbench !== null && (workbench as Record<string, unknown>).experimentalLspTool === true;
}

/** Consecutive rules from one source form a layer, so an explanation can name where its rule came from. */
function layersBySource(rules: Ruleset): RuleLayer[] {
  const layers: RuleLayer[] = [];
  for (const rule of rules) {
    const source = rule.source ?? "config";
    const last = layers[layers.length - 1];
    if (last && last.source === source) last.rules.push(rule);
    else layers.push({ source, rules: [rule] });
  }
  return layers;
}

/** The agent asked for, by object or name, or the default; an unknown name says which exist and why one is missing. */
function pickAgent(wanted: string | Agent | undefined, agents: Agent[], problems: AgentProblem[], preferred: unknown): Agent {
  if (typeof wanted === "object") return wanted;
  if (wanted === undefined) return defaultAgent(agents, typeof preferred === "string" ? preferred : undefined);
  const found = agents.find((agent) => agent.name === wanted);
  if (found) return found;
  const why = problems
    .filter((problem) => problem.agent === wanted)
    .map((problem) => ` (${problem.file}: ${problem.error})`)
    .join("");
  throw new Error(`unknown agent "${wanted}"${why}: use one of ${agents.map((agent) => agent.name).join(", ")}`);
}

export class ToolSession {
  private constructor(
    readonly runtime: Runtime,
    readonly config: WorkspaceConfig,
    readonly configPath: string | undefined,
    readonly agent: Agent,
    /** Every agent of the workspace, the default first (for pickers and the task tool). */
    readonly agents: Agent[],
    /** The agent's rules by where they came from, for explanations. */
    readonly layers: RuleLayer[],
    readonly registry: ToolRegistry,
    readonly permissions: PermissionEngine,
    readonly bus: Bus,
    readonly fileTime: FileTime,
    readonly runner: ToolRunner,
    readonly session: SessionRecord,
    /** Agents, custom tools, plugins and skills that failed to load. */
    readonly problems: Array<LoadProblem | AgentProblem | SkillProblem>,
    /** Workspace code found but not run, because the workspace is not trusted. */
    readonly untrustedFiles: string[],
    /** Skills found when the session opened (the skill tool offers them). */
    readonly skills: SkillInfo[],
    /** Questions waiting for the person (question, plan_enter, plan_exit). */
    readonly questions: Questions,
    /** Where the session is saved, if anywhere (a child saves its root session). */
    readonly store: SessionStore | undefined,
    /** The session whose task started this one; the root session is saved for it. */
    readonly root: SessionRecord,
    /** The workspace's MCP servers, connecting in the background; their tools join the registry as they come. */
    readonly mcp: McpManager,
  ) {}

  /** The session's background shell jobs (shared with its subagents); `stopAll` when the session ends. */
  get jobs(): BackgroundJobs | undefined {
    return this.runner.jobs;
  }

  /**
   * A subagent's session beside this one: the same workspace, registry, permission engine (approvals and
   * prompts are shared), bus and questions, with the child's own record and agent, and session rules after
   * the agent's (a child may not touch the todo list nor start tasks unless its rules allow).
   */
  child(record: SessionRecord, agent: Agent, sessionRules: Ruleset, caller: Agent = this.agent): ToolSession {
    const root = this.root;
    const store = this.store;
    const runner = this.runner.withOptions({
      sessionRules,
      // The agent that started the child (this session's, as the loop runs it now): the child may do no more.
      callerRules: [...this.runner.callerRules, caller.permission],
      // The child lives inside its root session's record: saving it means saving the root.
      store: store
        ? {
            save: () => store.save(root),
            load: (id: string) => store.load(id),
            list: () => store.list(),
            delete: (id: string) => store.delete(id),
          }
        : undefined,
    });
    return new ToolSession(
      this.runtime,
      this.config,
      this.configPath,
      agent,
      this.agents,
      layersBySource(agent.permission),
      this.registry,
      this.permissions,
      this.bus,
      this.fileTime,
      runner,
      record,
      this.problems,
      this.untrustedFiles,
      this.skills,
      this.questions,
      store,
      root,
      this.mcp,
    );
  }

  static async open(options: ToolSessionOptions): Promise<ToolSession> {
    const { runtime } = options;
    const { config, path, problem } = await loadWorkspaceConfig(runtime, { trusted: options.trusted });
    const store = new OutputStore(runtime, { dataDir: options.dataDir });
    const skillDirs = skillFolders(runtime.root, options.globalConfigDir);
    // Until the person trusts the workspace, its rules may tighten protection but not loosen it.
    const loaded = await loadAgents(runtime, config, {
      dataDir: options.dataDir,
      home: options.home,
      globalConfigDir: options.globalConfigDir,
      configPath: path,
      toolOutputGlob: store.glob,
      trusted: options.trusted,
      skillDirs,
    });
    const agent = pickAgent(options.agent, loaded.agents, loaded.problems, config.default_agent);
    const permission = agent.permission;
    const layers = layersBySource(permission);
    if (agent.ignoredRules && agent.ignoredRules.length > 0) {
      layers.push({ source: "config", rules: [...agent.ignoredRules], ignored: UNTRUSTED_IGNORED });
    }

    const bus = options.bus ?? new Bus();
    // Plan mode is an environment flag in OpenCode; here it is our own key, `workbench.planMode`, read
    // without a schema of ours so the `workbench` section stays one shared, loose object.
    const ours = (config as { workbench?: { planMode?: unknown; experimentalCodeMode?: unknown } }).workbench;
    const flags: RegistryFlags = {
      ...defaultFlags,
      batchTool: config.experimental?.batch_tool === true,
      planMode: ours?.planMode === true,
      codeMode: ours?.experimentalCodeMode === true,
      toolNames: toolNamesOf(config),
      ...options.flags,
      experimentalLsp: options.flags?.experimentalLsp === true || lspToolFromConfig(config),
      preview: options.preview !== undefined,
    };
    const lsp = options.languageService && !lspDisabled(config) ? options.languageService : undefined;
    const registry = new ToolRegistry(options.builtins, flags);
    const found = await discoverSkills(runtime, skillDirs);
    const problems: Array<LoadProblem | AgentProblem | SkillProblem> = [
      ...(problem ? [problem] : []),
      ...loaded.problems,
      ...found.problems,
    ];
    const untrustedFiles: string[] = [];
    let plugins: LoadedPlugin[] = [];
    const dirs = configDirectories(runtime.root, options.globalConfigDir);
    const timeoutMs = config.experimental?.tool_timeout ?? DEFAULT_CUSTOM_TOOL_TIMEOUT_MS;
    if (options.trusted && options.workspaceCode) {
      const code = await options.workspaceCode(runtime, dirs);
      for (const tool of code.tools) registry.register(withTimeLimit(tool, timeoutMs));
      plugins = code.plugins;
      problems.push(...code.problems);
    } else if (options.trusted) {
      const custom = await loadCustomTools(runtime, dirs);
      for (const tool of custom.tools) registry.register(withTimeLimit(tool, timeoutMs));
      problems.push(...custom.problems);
      const loaded = await loadPlugins(runtime, dirs, {
        directory: runtime.root,
        worktree: runtime.root,
        project: { id: runtime.root, worktree: runtime.root },
        $: createPluginShell(runtime),
        client: undefined,
      });
      plugins = loaded.plugins;
      problems.push(...loaded.problems);
      for (const plugin of plugins) {
        for (const [id, def] of Object.entries(plugin.hooks.tool ?? {})) registry.register(withTimeLimit(fromPlugin(id, def), timeoutMs));
      }
    } else {
      untrustedFiles.push(...(await workspaceCodeFiles(runtime, dirs)));
    }

    const permissions = new PermissionEngine({ bus });
    const fileTime = options.fileTime ?? new FileTime(runtime.fs);
    const runner = new ToolRunner({
      runtime,
      registry,
      permissions,
      bus,
      fileTime,
      plugins,
      hookTimeoutMs: timeoutMs,
      store: options.store,
      truncate: (text, truncation, hint) => truncateOutput(text, truncation, store, hint),
      truncationStream: (truncation, hint) => new TruncationSink(store, truncation, hint),
      web: withExaUrl(options.web ?? nodeWebAccess(), options.trusted ? config.workbench?.exaUrl : undefined),
      ...(lsp ? { lsp } : {}),
      // In the saved-output folder, which every agent may read: that is how the model reads a job's output.
      jobs: new BackgroundJobs({ runtime, dir: store.dir }),
      ...(options.preview ? { preview: options.preview } : {}),
      ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
    });
    const session: SessionRecord = options.session ?? {
      id: ascendingId("ses"),
      title: "",
      agent: agent.name,
      createdAt: Date.now(),
      calls: [],
      messages: [],
    };
    const mcp = new McpManager({
      registry,
      section: config.mcp,
      callTimeoutMs: typeof config.experimental?.mcp_timeout === "number" ? config.experimental.mcp_timeout : undefined,
      trusted: options.trusted,
      cwd: runtime.root,
      local: options.mcpLocal,
    });
    if (!options.mcpDeferred) mcp.start();
    const questions = new Questions(bus);
    return new ToolSession(
      runtime,
      config,
      path,
      agent,
      loaded.agents,
      layers,
      registry,
      permissions,
      bus,
      fileTime,
      runner,
      session,
      problems,
      untrustedFiles,
      found.skills,
      questions,
      options.store,
      session,
      mcp,
    );
  }

  /** A call run by hand (the palette): the session tools that need no model or person work too. */
  run(tool: string, args: Record<string, unknown>, options?: RunOptions): Promise<ToolCall> {
    return this.runner.run(this.session, this.agent, tool, args, {
      services: (call, signal) => manualServices(this, this.agent, call, signal),
      ...options,
    });
  }

  /**
   * Every rule in force, in evaluation order, grouped by where it came from; the approvals come last. The
   * untrusted workspace's loosening rules close the list as a layer marked `ignored` (not in force).
   */
  rulesInForce(): RuleLayer[] {
    const approvals = [...this.permissions.approved];
    const inForce = this.layers.filter((layer) => layer.ignored === undefined);
    const held = this.layers.filter((layer) => layer.ignored !== undefined);
    return [...inForce, ...(approvals.length > 0 ? [{ source: "approval" as const, rules: approvals }] : []), ...held];
  }

  /** Which rule decides `permission` for `pattern`, with the session's approvals last. */
  explain(written: string, pattern: string): Explanation {
    // V2's names (`shell`, `subagent`) are asked about as the permission the engine keeps for them.
    const permission = engineName(written);
    const answer = explain(permission, pattern, [...this.layers, { source: "approval", rules: [...this.permissions.approved] }]);
    const known = knownPermissions(this.registry.ids());
    if (isKnownPermission(permission, known)) return answer;
    return {
      ...answer,
      known,
      sentence: `${JSON.stringify(permission)} is not a permission anything asks for, so no rule for it ever takes effect. Known permissions: ${known.join(", ")}.`,
    };
  }

  /** Writes the session's "always" approvals into the workspace config, so they outlive the session. */
  saveApprovals(): Promise<string> {
    return saveApprovals(
      this.runtime,
      this.permissions.approved.map(({ permission, pattern }) => ({ permission, pattern })),
    );
  }
}
