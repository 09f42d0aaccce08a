/**
 * The built-in providers and a few of their models.
 *
 * OpenCode takes this from models.dev (https://models.dev/api.json), which the workbench cannot reach
 * offline (and whose CORS is unverified), so this small list stands in for it: the four providers
 * OpenCode knows by id, their package, base URL and key variables, and a handful of current models with
 * their limits, prices (US dollars per million tokens) and abilities, as models.dev lists them. A model
 * of a built-in provider that is not listed here still works, with unknown limits; `provider.<id>.models`
 * in opencode.json adds models or overrides these fields.
 */

export interface CatalogModel {
  id: string;
  name: string;
  limit: { context: number; output: number };
  cost: { input: number; output: number; cache_read?: number; cache_write?: number };
  attachment: boolean;
  reasoning: boolean;
  /** The model takes a temperature (reasoning models mostly do not). */
  temperature: boolean;
  tool_call: boolean;
}

export interface CatalogProvider {
  id: string;
  name: string;
  npm: string;
  /** The default base URL. */
  api: string;
  /** Environment variables that hold the key, in the order they are tried. */
  env: string[];
  models: Record<string, CatalogModel>;
}

export const OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";

type Entry = Omit<CatalogModel, "id" | "tool_call"> & { tool_call?: boolean };

function models(entries: Record<string, Entry>): Record<string, CatalogModel> {
  return Object.fromEntries(Object.entries(entries).map(([id, entry]) => [id, { id, tool_call: true, ...entry }]));
}

const REASONING = { attachment: true, reasoning: true, temperature: false };
const PLAIN = { attachment: true, reasoning: false, temperature: true };

export const CATALOG: Readonly<Record<string, CatalogProvider>> = {
  openai: {
    id: "openai",
    name: "OpenAI",
    npm: "@ai-sdk/openai",
    api: "https://api.openai.com/v1",
    env: ["OPENAI_API_KEY"],
    models: models({
      "gpt-5": {
        name: "GPT-5",
        limit: { context: 400_000, output: 128_000 },
        cost: { input: 1.25, output: 10, cache_read: 0.125 },
        ...REASONING,
      },
      "gpt-5-mini": {
        name: "GPT-5 Mini",
        limit: { context: 400_000, output: 128_000 },
        cost: { input: 0.25, output: 2, cache_read: 0.025 },
        ...REASONING,
      },
      "gpt-5-nano": {
        name: "GPT-5 Nano",
        limit: { context: 400_000, output: 128_000 },
        cost: { input: 0.05, output: 0.4, cache_read: 0.005 },
        ...REASONING,
      },
      "gpt-4.1": {
        name: "GPT-4.1",
        limit: { context: 1_047_576, output: 32_768 },
        cost: { input: 2, output: 8, cache_read: 0.5 },
        ...PLAIN,
      },
      "gpt-4o": {
        name: "GPT-4o",
        limit: { context: 128_000, output: 16_384 },
        cost: { input: 2.5, output: 10, cache_read: 1.25 },
        ...PLAIN,
      },
      "o4-mini": {
        name: "o4-mini",
        limit: { context: 200_000, output: 100_000 },
        cost: { input: 1.1, output: 4.4, cache_read: 0.275 },
        ...REASONING,
      },
    }),
  },
  anthropic: {
    id: "anthropic",
    name: "Anthropic",
    npm: "@ai-sdk/anthropic",
    api: "https://api.anthropic.com/v1",
    env: ["ANTHROPIC_API_KEY"],
    models: models({
      "claude-sonnet-4-5": {
        name: "Claude Sonnet 4.5",
        limit: { context: 200_000, output: 64_000 },
        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        ...REASONING,
        temperature: true,
      },
      "claude-opus-4-1": {
        name: "Claude Opus 4.1",
        limit: { context: 200_000, output: 32_000 },
        cost: { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
        ...REASONING,
        temperature: true,
      },
      "claude-haiku-4-5": {
        name: "Claude Haiku 4.5",
        limit: { context: 200_000, output: 64_000 },
        cost: { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
        ...REASONING,
        temperature: true,
      },
      "claude-sonnet-4-20250514": {
        name: "Claude Sonnet 4",
        limit: { context: 200_000, output: 64_000 },
        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        ...REASONING,
        temperature: true,
      },
    }),
  },
  google: {
    id: "google",
    name: "Google",
    npm: "@ai-sdk/google",
    api: "https://generativelanguage.googleapis.com/v1beta",
    env: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"],
    models: models({
      "gemini-2.5-pro": {
        name: "Gemini 2.5 Pro",
        limit: { context: 1_048_576, output: 65_536 },
        cost: { input: 1.25, output: 10, cache_read: 0.31 },
        ...REASONING,
        temperature: true,
      },
      "gemini-2.5-flash": {
        name: "Gemini 2.5 Flash",
        limit: { context: 1_048_576, output: 65_536 },
        cost: { input: 0.3, output: 2.5, cache_read: 0.075 },
        ...REASONING,
        temperature: true,
      },
      "gemini-2.5-flash-lite": {
        name: "Gemini 2.5 Flash Lite",
        limit: { context: 1_048_576, output: 65_536 },
        cost: { input: 0.1, output: 0.4, cache_read: 0.025 },
        ...REASONING,
        temperature: true,
      },
    }),
  },
  openrouter: {
    id: "openrouter",
    name: "OpenRouter",
    // OpenCode now uses @openrouter/ai-sdk-provider; OpenRouter speaks the OpenAI chat API, so the
    // compatible package reaches the same endpoint without another dependency.
    npm: OPENAI_COMPATIBLE,
    api: "https://openrouter.ai/api/v1",
    env: ["OPENROUTER_API_KEY"],
    models: models({
      "anthropic/claude-sonnet-4.5": {
        name: "Claude Sonnet 4.5",
        limit: { context: 1_000_000, output: 64_000 },
        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        ...REASONING,
        temperature: true,
      },
      "openai/gpt-5": {
        name: "GPT-5",
        limit: { context: 400_000, output: 128_000 },
        cost: { input: 1.25, output: 10, cache_read: 0.125 },
        ...REASONING,
      },
      "google/gemini-2.5-flash": {
        name: "Gemini 2.5 Flash",
        limit: { context: 1_048_576, output: 65_536 },
        cost: { input: 0.3, output: 2.5, cache_read: 0.075 },
        ...REASONING,
        temperature: true,
      },
      "qwen/qwen3-coder": {
        name: "Qwen3 Coder",
        limit: { context: 262_144, output: 66_536 },
        cost: { input: 0.22, output: 0.95 },
        attachment: false,
        reasoning: false,
        temperature: true,
      },
    }),
  },
};
