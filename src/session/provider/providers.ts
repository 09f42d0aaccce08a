/**
 * The providers a session can use: the built-in catalog with opencode.json's `provider` entries laid over
 * it (OpenCode's merge: a config model overrides the catalog model field by field, `options` and
 * `headers` deep-merge), narrowed by `enabled_providers` / `disabled_providers` and each provider's model
 * `whitelist` / `blacklist`. A provider that appears only in the config is a provider too, which is how
 * local servers (Ollama, LM Studio, llama.cpp, vLLM) come in: `npm: "@ai-sdk/openai-compatible"` and a
 * base URL.
 */
import type { ModelRef } from "../record/message.js";
import { CATALOG, OPENAI_COMPATIBLE, type CatalogModel } from "./catalog.js";
import type { ModelConfig, ProviderOptions, ProvidersConfig } from "./config.js";
import { ProviderSetupError } from "./setup-error.js";

export interface ProviderModel {
  /** The key it is known by in config and in "provider/model". */
  key: string;
  /** The id sent to the provider. */
  wireID: string;
  name: string;
  limit: { context: number; output: number };
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  attachment: boolean;
  reasoning: boolean;
  temperature: boolean;
  toolCall: boolean;
  /** Per-model package and base URL, when a model lives behind a different API than its provider. */
  npm?: string;
  api?: string;
  options: Record<string, unknown>;
  headers: Record<string, string>;
}

export interface ProviderEntry {
  id: string;
  name: string;
  npm: string;
  /** The base URL before options.baseURL (the catalog's, or the config's `api`). */
  api?: string;
  env: string[];
  options: ProviderOptions;
  models: Record<string, ProviderModel>;
  builtIn: boolean;
}

function fromCatalog(model: CatalogModel): ProviderModel {
  return {
    key: model.id,
    wireID: model.id,
    name: model.name,
    limit: { ...model.limit },
    cost: {
      input: model.cost.input,
      output: model.cost.output,
      cacheRead: model.cost.cache_read ?? 0,
      cacheWrite: model.cost.cache_write ?? 0,
    },
    attachment: model.attachment,
    reasoning: model.reasoning,
    temperature: model.temperature,
    toolCall: model.tool_call,
    options: {},
    headers: {},
  };
}

/** What OpenCode assumes of a model it knows nothing about. */
function unknownModel(key: string): ProviderModel {
  return {
    key,
    wireID: key,
    name: key,
    limit: { context: 0, output: 0 },
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    attachment: false,
    reasoning: false,
    temperature: false,
    toolCall: true,
    options: {},
    headers: {},
  };
}

function overlay(base: ProviderModel, config: ModelConfig): ProviderModel {
  return {
    ...base,
    wireID: config.id ?? base.wireID,
    name: config.name ?? base.name,
    limit: config.limit ? { context: config.limit.context, output: config.limit.output } : base.limit,
    cost: config.cost
      ? {
          input: config.cost.input,
          output: config.cost.output,
          cacheRead: config.cost.cache_read ?? 0,
          cacheWrite: config.cost.cache_write ?? 0,
        }
      : base.cost,
    attachment: config.attachment ?? base.attachment,
    reasoning: config.reasoning ?? base.reasoning,
    temperature: config.temperature ?? base.temperature,
    toolCall: config.tool_call ?? base.toolCall,
    npm: config.provider?.npm ?? base.npm,
    api: config.provider?.api ?? base.api,
    options: { ...base.options, ...config.options },
    headers: { ...base.headers, ...config.headers },
  };
}

function allowedModel(key: string, whitelist?: string[], blacklist?: string[]): boolean {
  if (whitelist && !whitelist.includes(key)) return false;
  return !blacklist?.includes(key);
}

function isEnabled(id: string, config: ProvidersConfig): boolean {
  if (config.disabled_providers?.includes(id)) return false;
  return !config.enabled_providers || config.enabled_providers.includes(id);
}

export function listProviders(config: ProvidersConfig): ProviderEntry[] {
  const ids = new Set([...Object.keys(CATALOG), ...Object.keys(config.provider ?? {})]);
  const entries: ProviderEntry[] = [];
  for (const id of ids) {
    if (!isEnabled(id, config)) continue;
    const builtIn = CATALOG[id];
    const own = config.provider?.[id];
    const models: Record<string, ProviderModel> = {};
    for (const model of Object.values(builtIn?.models ?? {})) models[model.id] = fromCatalog(model);
    for (const [key, model] of Object.entries(own?.models ?? {})) models[key] = overlay(models[key] ?? unknownModel(key), model);
    for (const key of Object.keys(models)) {
      if (!allowedModel(key, own?.whitelist, own?.blacklist)) delete models[key];
    }
    entries.push({
      id,
      name: own?.name ?? builtIn?.name ?? id,
      npm: own?.npm ?? builtIn?.npm ?? OPENAI_COMPATIBLE,
      api: own?.api ?? builtIn?.api,
      env: own?.env ?? builtIn?.env ?? [],
      options: { ...own?.options, headers: { ...own?.options?.headers } },
      models,
      builtIn: builtIn !== undefined,
    });
  }
  return entries;
}

function closest(wanted: string, names: string[]): string[] {
  const lower = wanted.toLowerCase();
  return names.filter((name) => name.toLowerCase().includes(lower) || lower.includes(name.toLowerCase())).slice(0, 3);
}

/** The provider and model a "provider/model" reference names, or an error that says what exists. */
export function findModel(config: ProvidersConfig, ref: ModelRef): { provider: ProviderEntry; model: ProviderModel } {
  const providers = listProviders(config);
  const provider = providers.find((entry) => entry.id === ref.providerID);
  if (!provider) {
    const disabled =
      config.disabled_providers?.includes(ref.providerID) ||
      (config.enabled_providers && !config.enabled_providers.includes(ref.providerID));
    throw new ProviderSetupError(
      "provider",
      disabled ? `provider "${ref.providerID}" is disabled in opencode.json` : `unknown provider "${ref.providerID}"`,
      disabled
        ? `Remove it from disabled_providers (or add it to enabled_providers) in opencode.json.`
        : `Use one of ${providers.map((entry) => entry.id).join(", ")}, or add provider.${ref.providerID} to opencode.json (npm "@ai-sdk/openai-compatible" and options.baseURL for a local server).`,
    );
  }
  const model = provider.models[ref.modelID];
  if (model) return { provider, model };
  // The catalog is a small stand-in for models.dev: a built-in provider's other models are still allowed.
  if (provider.builtIn && allowedModel(ref.modelID, config.provider?.[provider.id]?.whitelist, config.provider?.[provider.id]?.blacklist)) {
    return { provider, model: unknownModel(ref.modelID) };
  }
  const suggestions = closest(ref.modelID, Object.keys(provider.models));
  throw new ProviderSetupError(
    "model",
    `provider "${provider.id}" has no model "${ref.modelID}"`,
    `${suggestions.length ? `Did you mean ${suggestions.map((name) => `"${name}"`).join(" or ")}? ` : ""}Add it under provider.${provider.id}.models in opencode.json${
      Object.keys(provider.models).length ? `, or pick one of ${Object.keys(provider.models).join(", ")}` : ""
    }.`,
  );
}
