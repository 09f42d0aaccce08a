/**
 * Turns "provider/model" into a language model made by the provider's own AI SDK package, set up as
 * OpenCode sets it up: the package named by `npm` (model, then provider, then catalog, then
 * openai-compatible), `options.baseURL` or the catalog's URL (with `${VAR}` filled from the environment),
 * the key, `options.headers`, and the remaining options handed to the package as they are. The `openai`
 * package is called through its Responses API, the others through their language model.
 *
 * The packages are imported on first use, so a page that never calls a model never loads them. Every
 * package gets a fetch that only reaches its base URL (see key-scoped-fetch.ts).
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelRef } from "../record/message.js";
import { OPENAI_COMPATIBLE } from "./catalog.js";
import { parseModelRef, type ProvidersConfig } from "./config.js";
import { DEFAULT_CHUNK_TIMEOUT_MS } from "./idle-timeout.js";
import { keyScopedFetch, type FetchFunction } from "./key-scoped-fetch.js";
import { withoutInputItemIds } from "./openai-request.js";
import { findModel, type ProviderEntry, type ProviderModel } from "./providers.js";
import { ProviderSetupError } from "./setup-error.js";
import type { ModelInfo, ResolvedModel } from "./types.js";

/** Where keys come from: the page's key store, or the environment in the CLI. */
export interface KeySource {
  get(providerID: string, envNames: readonly string[]): Promise<string | undefined> | string | undefined;
}

/** Keys from environment variables, as the CLI (and OpenCode) reads them: the first one set wins. */
export function keysFromEnv(env: Readonly<Record<string, string | undefined>>): KeySource {
  return { get: (_providerID, names) => names.map((name) => env[name]).find((value) => !!value) };
}

export interface ResolveOptions {
  config: ProvidersConfig;
  keys: KeySource;
  /** Running in a web page: adds the headers browsers need and words missing-key errors for the page. */
  page?: boolean;
  /** For `${VAR}` in base URLs (the CLI's environment; none in the page). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The fetch under the key guard (tests, routing); the global fetch otherwise. */
  fetch?: FetchFunction;
}

export interface ProviderModelResolved extends ResolvedModel {
  /** The key under which this model's `providerOptions` go (OpenCode's sdkKey). */
  providerOptionsKey: string;
  /** `models.<id>.options` from config, for `providerOptions[providerOptionsKey]`. */
  options: Record<string, unknown>;
  /** Whether to send a temperature at all. */
  temperature: boolean;
  toolCall: boolean;
  baseURL: string;
}

const BUNDLED = ["@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/google", OPENAI_COMPATIBLE] as const;

/** The options OpenCode reads itself; everything else in `options` goes to the package. */
const OWN_OPTIONS = new Set(["apiKey", "baseURL", "headers", "timeout", "chunkTimeout", "setCacheKey", "litellmProxy", "includeUsage"]);

// OpenCode asks Anthropic for interleaved thinking and streamed tool arguments.
const ANTHROPIC_BETA = "interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14";

function fillEnv(url: string, env: Readonly<Record<string, string | undefined>>): string {
  return url.replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? "");
}

function baseURLOf(provider: ProviderEntry, model: ProviderModel, env: Readonly<Record<string, string | undefined>>): string {
  const raw = provider.options.baseURL || model.api || provider.api;
  if (!raw) {
    throw new ProviderSetupError(
      "config",
      `provider "${provider.id}" has no base URL`,
      `Set provider.${provider.id}.options.baseURL in opencode.json (for example "http://localhost:11434/v1" for Ollama, "http://localhost:1234/v1" for LM Studio).`,
      `provider.${provider.id}.options.baseURL`,
    );
  }
  const url = fillEnv(raw, env);
  try {
    new URL(url);
  } catch {
    throw new ProviderSetupError(
      "config",
      `provider "${provider.id}" has an invalid base URL "${url}"`,
      `Set provider.${provider.id}.options.baseURL to a full URL such as "https://host/v1".`,
      `provider.${provider.id}.options.baseURL`,
    );
  }
  return url.replace(/\/+$/, "");
}

/** Local servers behind @ai-sdk/openai-compatible take no key; the hosted providers cannot work without one. */
function needsKey(provider: ProviderEntry, npm: string): boolean {
  return provider.builtIn || npm !== OPENAI_COMPATIBLE;
}

function missingKey(provider: ProviderEntry, page: boolean): ProviderSetupError {
  const variable = provider.env[0] ?? `${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
  const hint = page
    ? `Add your ${provider.name} key in the provider dialog (Providers, then ${provider.name}); tick "remember on this device" to keep it after a reload.`
    : `Set ${provider.env.length ? provider.env.join(" or ") : variable} in the environment, or set provider.${provider.id}.options.apiKey to "{env:${variable}}" in opencode.json.`;
  return new ProviderSetupError("auth", `no API key for ${provider.name}`, hint);
}

function providerOptionsKey(npm: string, providerID: string): string {
  if (npm === "@ai-sdk/openai") return "openai";
  if (npm === "@ai-sdk/anthropic") return "anthropic";
  if (npm === "@ai-sdk/google") return "google";
  return providerID;
}

interface Settings {
  name: string;
  baseURL: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
  fetch: FetchFunction;
  rest: Record<string, unknown>;
}

async function createLanguageModel(npm: string, wireID: string, settings: Settings): Promise<LanguageModelV4> {
  const { name, baseURL, apiKey, headers, fetch, rest } = settings;
  switch (npm) {
    case "@ai-sdk/openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI({ ...rest, name, baseURL, apiKey, headers, fetch: withoutInputItemIds(fetch) }).responses(wireID);
    }
    case "@ai-sdk/anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ ...rest, baseURL, apiKey, headers, fetch }).languageModel(wireID);
    }
    case "@ai-sdk/google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ ...rest, baseURL, apiKey, headers, fetch }).languageModel(wireID);
    }
    case OPENAI_COMPATIBLE: {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      const includeUsage = rest.includeUsage === false ? false : true;
      return createOpenAICompatible({ ...rest, name, baseURL, apiKey, headers, fetch, includeUsage }).languageModel(wireID);
    }
    default:
      throw new ProviderSetupError(
        "provider",
        `provider package "${npm}" is not part of the workbench`,
        `Use one of ${BUNDLED.join(", ")}; any OpenAI-compatible endpoint works with "${OPENAI_COMPATIBLE}" and options.baseURL.`,
      );
  }
}

export async function resolveModel(ref: ModelRef | string, options: ResolveOptions): Promise<ProviderModelResolved> {
  const wanted = typeof ref === "string" ? parseModelRef(ref) : ref;
  const { provider, model } = findModel(options.config, wanted);
  const env = options.env ?? {};
  const npm = model.npm ?? provider.npm;
  const baseURL = baseURLOf(provider, model, env);
  const configured = provider.options.apiKey || undefined;
  const apiKey = configured ?? (await options.keys.get(provider.id, provider.env)) ?? undefined;
  if (!apiKey && needsKey(provider, npm)) throw missingKey(provider, options.page === true);

  const headers: Record<string, string> = {};
  if (npm === "@ai-sdk/anthropic") {
    headers["anthropic-beta"] = ANTHROPIC_BETA;
    // Anthropic refuses calls from a page unless the caller says it knows the key is exposed there.
    if (options.page) headers["anthropic-dangerous-direct-browser-access"] = "true";
  }
  Object.assign(headers, provider.options.headers, model.headers);

  const rest = Object.fromEntries(Object.entries(provider.options).filter(([key]) => !OWN_OPTIONS.has(key)));
  if (npm === OPENAI_COMPATIBLE && provider.options.includeUsage === false) rest.includeUsage = false;
  const timeout = provider.options.timeout;
  const fetch = keyScopedFetch({
    providerID: provider.id,
    baseURL,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(typeof timeout === "number" ? { timeoutMs: timeout } : {}),
    chunkTimeoutMs: provider.options.chunkTimeout ?? DEFAULT_CHUNK_TIMEOUT_MS,
  });
  const language = await createLanguageModel(npm, model.wireID, { name: provider.id, baseURL, apiKey, headers, fetch, rest });

  const info: ModelInfo = {
    providerID: provider.id,
    modelID: model.key,
    name: model.name,
    limit: { ...model.limit },
    cost: { ...model.cost },
    attachment: model.attachment,
    reasoning: model.reasoning,
  };
  return {
    info,
    language,
    providerOptionsKey: providerOptionsKey(npm, provider.id),
    options: model.options,
    temperature: model.temperature,
    toolCall: model.toolCall,
    baseURL,
  };
}
