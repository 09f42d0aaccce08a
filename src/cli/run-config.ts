/**
 * The providers `workbench run` can use, read as OpenCode reads them: the global opencode.json first, the
 * workspace's on top (a provider's options and models merge key by key; `model` and the provider lists
 * of the workspace win), `{env:...}` filled from the process environment and `{file:...}` from disk.
 * Then which model to run: --model, else the agent's, else config `model`, else OpenCode's default choice
 * among the providers that have a key.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "pathe";
import type { Runtime } from "../runtime/types.js";
import type { Agent } from "../session/agent/types.js";
import type { ModelRef } from "../session/record/message.js";
import { OPENAI_COMPATIBLE } from "../session/provider/catalog.js";
import { parseModelRef, readProvidersConfig, type ProviderConfig, type ProvidersConfig } from "../session/provider/config.js";
import { defaultModelRef } from "../session/provider/model-choice.js";
import { listProviders } from "../session/provider/providers.js";
import { distrustWorkspaceProviders, untrustedSubstitution } from "../session/config/workspace-providers.js";
import { envReferencesByProvider, type EnvReference } from "./untrusted-env.js";

type Env = Readonly<Record<string, string | undefined>>;

const GLOBAL_NAMES = ["opencode.json", "opencode.jsonc", "config.json"];

export interface RunConfigOptions {
  runtime: Runtime;
  /** The workspace's config file, when it has one (a path in the runtime). */
  configPath?: string;
  /** The global config folder on the real disk; none with the embedded runtime's copy. */
  globalConfigDir?: string;
  env: Env;
  home: string;
  /**
   * Whether the person trusts the workspace (--trust). Untrusted (the default), the workspace's file gets
   * no environment for `{env:...}`, no `{file:...}` outside it, and cannot move where the person's keys go
   * (src/session/config/workspace-providers.ts).
   */
  trusted?: boolean;
}

export interface RunProviders {
  config: ProvidersConfig;
  /** Providers only an untrusted workspace defines: they get no key of the person's. */
  keyless: Set<string>;
  /** What of the workspace's provider settings was ignored, and why. */
  notices: string[];
  /** Untrusted: the workspace's provider options that use `{env:...}`, left empty (untrusted-env.ts). */
  unreadEnv: Map<string, EnvReference[]>;
}

async function diskText(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

function mergeProvider(base: ProviderConfig | undefined, over: ProviderConfig): ProviderConfig {
  if (!base) return over;
  const options = base.options || over.options ? { ...base.options, ...over.options } : undefined;
  const models = base.models || over.models ? { ...base.models, ...over.models } : undefined;
  return { ...base, ...over, ...(options ? { options } : {}), ...(models ? { models } : {}) };
}

export function mergeProvidersConfig(base: ProvidersConfig, over: ProvidersConfig): ProvidersConfig {
  const merged: ProvidersConfig = { ...base, ...over };
  if (base.provider || over.provider) {
    const provider: Record<string, ProviderConfig> = { ...base.provider };
    for (const [id, entry] of Object.entries(over.provider ?? {})) provider[id] = mergeProvider(provider[id], entry);
    merged.provider = provider;
  }
  return merged;
}

export async function loadRunProviders(options: RunConfigOptions): Promise<ProvidersConfig> {
  return (await loadRunSetup(options)).config;
}

export async function loadRunSetup(options: RunConfigOptions): Promise<RunProviders> {
  const { runtime, env, home } = options;
  let keyless = new Set<string>();
  let unreadEnv = new Map<string, EnvReference[]>();
  const notices: string[] = [];
  let config: ProvidersConfig = {};
  if (options.globalConfigDir) {
    for (const name of GLOBAL_NAMES) {
      const path = join(options.globalConfigDir, name);
      const text = await diskText(path);
      if (text === undefined) continue;
      config = await readProvidersConfig(text, { env, home, configDir: options.globalConfigDir, readFile: diskText, source: path });
      break;
    }
  }
  if (options.configPath) {
    const path = options.configPath;
    const text = new TextDecoder().decode(await runtime.fs.readFile(path));
    const readInRuntime = (file: string) =>
      runtime.fs.readFile(file).then(
        (bytes) => new TextDecoder().decode(bytes),
        () => undefined,
      );
    if (options.trusted) {
      const workspace = await readProvidersConfig(text, { env, home, configDir: dirname(path), readFile: readInRuntime, source: path });
      config = mergeProvidersConfig(config, workspace);
    } else {
      unreadEnv = envReferencesByProvider(text);
      if (/\{env:[^}]+\}/.test(text))
        notices.push(`${path}: {env:...} is left empty until you trust this workspace (the environment holds your keys)`);
      const workspace = await readProvidersConfig(text, {
        home,
        configDir: dirname(path),
        source: path,
        ...untrustedSubstitution(runtime, path),
      });
      const distrusted = distrustWorkspaceProviders(workspace, config);
      keyless = distrusted.keyless;
      notices.push(...distrusted.notices);
      config = mergeProvidersConfig(config, distrusted.config);
    }
  }
  return { config, keyless, notices, unreadEnv };
}

/** A provider can answer without more setup: a key in config or the environment, or a keyless local server. */
function usableProviders(config: ProvidersConfig, env: Env): Set<string> {
  const usable = new Set<string>();
  for (const provider of listProviders(config)) {
    const keyless = !provider.builtIn && provider.npm === OPENAI_COMPATIBLE;
    if (keyless || provider.options.apiKey || provider.env.some((name) => !!env[name])) usable.add(provider.id);
  }
  return usable;
}

/** The model to run, or undefined when nothing names one and no provider has a key. */
export function chooseRunModel(flag: string | undefined, agent: Agent, config: ProvidersConfig, env: Env): ModelRef | undefined {
  if (flag !== undefined) return parseModelRef(flag);
  if (agent.model) return agent.model;
  const usable = usableProviders(config, env);
  return defaultModelRef(config, (id) => usable.has(id));
}
