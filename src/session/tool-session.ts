/**
 * Everything one session of tool calls needs, put together from a runtime: the workspace config, the
 * agent's rules, the permission engine, FileTime, truncation, the registry with the workspace's custom
 * tools and plugins (only when the workspace is trusted), and the runner.
 */
import type { Runtime } from "../runtime/types.js";
import { Bus } from "../tools/bus.js";
import { fromPlugin } from "../tools/custom/from-plugin.js";
import { configDirectories, loadCustomTools, loadPlugins, workspaceCodeFiles, type LoadedPlugin, type LoadProblem } from "../tools/custom/loader.js";
import { createPluginShell } from "../tools/custom/plugin-api.js";
import { FileTime } from "../tools/file-time.js";
import { AGENT_NAMES, agentRules, composeAgentRuleset, type AgentName } from "../tools/permission/agents.js";
import { rulesFromConfig } from "../tools/permission/config.js";
import { PermissionEngine } from "../tools/permission/engine.js";
import { explain, type Explanation, type RuleLayer } from "../tools/permission/evaluate.js";
import type { Rule, Ruleset } from "../tools/permission/types.js";
import { defaultFlags, ToolRegistry, type RegistryFlags } from "../tools/registry.js";
import type { AgentInfo, Info } from "../tools/tool.js";
import { OutputStore, TruncationSink, truncateOutput } from "../tools/truncation/index.js";
import type { SessionRecord, ToolCall } from "./calls.js";
import { ascendingId } from "./ids.js";
import type { SessionStore } from "./session-store.js";
import { ToolRunner, type RunOptions } from "./tool-runner.js";
import { loadWorkspaceConfig, saveApprovals, type WorkspaceConfig } from "./workspace-config.js";

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
  globalConfigDir?: string;
  agent?: string;
  store?: SessionStore;
  bus?: Bus;
  /** Continue this record (its calls stay in the transcript) instead of starting an empty one. */
  session?: SessionRecord;
}

/** `tools: { bash: false }` (OpenCode's older switches) as rules; every editing tool is `edit`. */
function legacyToolRules(tools: Record<string, boolean> | undefined): Ruleset {
  return Object.entries(tools ?? {}).map(([name, enabled]): Rule => ({
    permission: ["write", "edit", "patch", "multiedit", "apply_patch"].includes(name) ? "edit" : name,
    pattern: "*",
    action: enabled ? "allow" : "deny",
    source: "config",
  }));
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

export class ToolSession {
  private constructor(
    readonly runtime: Runtime,
    readonly config: WorkspaceConfig,
    readonly configPath: string | undefined,
    readonly agent: AgentInfo,
    /** The agent's rules by where they came from, for explanations. */
    readonly layers: RuleLayer[],
    readonly registry: ToolRegistry,
    readonly permissions: PermissionEngine,
    readonly bus: Bus,
    readonly fileTime: FileTime,
    readonly runner: ToolRunner,
    readonly session: SessionRecord,
    /** Custom tools and plugins that failed to load. */
    readonly problems: LoadProblem[],
    /** Workspace code found but not run, because the workspace is not trusted. */
    readonly untrustedFiles: string[],
  ) {}

  static async open(options: ToolSessionOptions): Promise<ToolSession> {
    const { runtime } = options;
    const { config, path } = await loadWorkspaceConfig(runtime);
    const name = options.agent ?? "build";
    if (!(AGENT_NAMES as readonly string[]).includes(name)) {
      throw new Error(`unknown agent "${name}": use one of ${AGENT_NAMES.join(", ")}`);
    }
    const store = new OutputStore(runtime, { dataDir: options.dataDir });
    const builtIn = agentRules(name as AgentName, { dataDir: options.dataDir, toolOutputGlob: store.glob, worktree: runtime.root });
    const user = [...legacyToolRules(config.tools), ...rulesFromConfig(config.permission ?? {}, { home: options.home, source: "config" })];
    const agentConfig = [
      ...legacyToolRules(config.agent?.[name]?.tools),
      ...rulesFromConfig(config.agent?.[name]?.permission ?? {}, { home: options.home, source: "config" }),
    ];
    const permission = composeAgentRuleset(builtIn, { toolOutputGlob: store.glob, user, agentConfig });
    const layers = layersBySource(permission);
    const agent: AgentInfo = { name, permission };

    const bus = options.bus ?? new Bus();
    const flags: RegistryFlags = { ...defaultFlags, batchTool: config.experimental?.batch_tool === true, ...options.flags };
    const registry = new ToolRegistry(options.builtins, flags);
    const problems: LoadProblem[] = [];
    const untrustedFiles: string[] = [];
    let plugins: LoadedPlugin[] = [];
    const dirs = configDirectories(runtime.root, options.globalConfigDir);
    if (options.trusted) {
      const custom = await loadCustomTools(runtime, dirs);
      for (const tool of custom.tools) registry.register(tool);
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
        for (const [id, def] of Object.entries(plugin.hooks.tool ?? {})) registry.register(fromPlugin(id, def));
      }
    } else {
      untrustedFiles.push(...(await workspaceCodeFiles(runtime, dirs)));
    }

    const permissions = new PermissionEngine({ bus });
    const fileTime = new FileTime(runtime.fs);
    const runner = new ToolRunner({
      runtime,
      registry,
      permissions,
      bus,
      fileTime,
      plugins,
      store: options.store,
      truncate: (text, truncation, hint) => truncateOutput(text, truncation, store, hint),
      truncationStream: (truncation, hint) => new TruncationSink(store, truncation, hint),
    });
    const session: SessionRecord = options.session ?? { id: ascendingId("ses"), title: "", agent: name, createdAt: Date.now(), calls: [], messages: [] };
    return new ToolSession(runtime, config, path, agent, layers, registry, permissions, bus, fileTime, runner, session, problems, untrustedFiles);
  }

  run(tool: string, args: Record<string, unknown>, options?: RunOptions): Promise<ToolCall> {
    return this.runner.run(this.session, this.agent, tool, args, options);
  }

  /** Every rule in force, in evaluation order, grouped by where it came from; the approvals come last. */
  rulesInForce(): RuleLayer[] {
    const approvals = [...this.permissions.approved];
    return [...this.layers, ...(approvals.length > 0 ? [{ source: "approval" as const, rules: approvals }] : [])];
  }

  /** Which rule decides `permission` for `pattern`, with the session's approvals last. */
  explain(permission: string, pattern: string): Explanation {
    return explain(permission, pattern, [...this.layers, { source: "approval", rules: [...this.permissions.approved] }]);
  }

  /** Writes the session's "always" approvals into the workspace config, so they outlive the session. */
  saveApprovals(): Promise<string> {
    return saveApprovals(this.runtime, this.permissions.approved.map(({ permission, pattern }) => ({ permission, pattern })));
  }
}
