/**
 * The provider half of `opencode.json`, read as OpenCode reads it so a user's file works unchanged:
 * `model` and `small_model` ("provider/model"), `provider.<id>` (npm package, name, options, models) and
 * the `enabled_providers` / `disabled_providers` lists. The rest of the file (permission, agent, ...) is
 * read elsewhere; this schema ignores it.
 *
 * Unknown keys inside a provider or model entry are kept, not refused: newer OpenCode versions add keys,
 * and a file that works there must load here.
 */
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { z } from "zod";
import type { ModelRef } from "../record/message.js";
import { ProviderSetupError } from "./setup-error.js";
import { substituteConfigText, type SubstitutionContext } from "./substitute.js";

/** "provider/model", split at the first slash (model ids such as `anthropic/claude-x` keep theirs). */
export function parseModelRef(value: string): ModelRef {
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) {
    throw new ProviderSetupError(
      "config",
      `"${value}" is not a model reference`,
      `Write it as "provider/model", for example "anthropic/claude-sonnet-4-5" or "openai/gpt-5".`,
    );
  }
  return { providerID: value.slice(0, slash), modelID: value.slice(slash + 1) };
}

const ModelReference = z.string().refine((value) => /^[^/]+\/.+$/.test(value), {
  message: 'must be "provider/model", for example "openai/gpt-5"',
});

const Tokens = z.number().int().nonnegative();
const Dollars = z.number().nonnegative();

/** `provider.<id>.models.<key>`: models.dev's model fields, every one optional at the top level. */
export const ModelConfig = z.looseObject({
  /** The id sent on the wire, when the key is an alias. */
  id: z.string().optional(),
  name: z.string().optional(),
  limit: z.object({ context: Tokens, output: Tokens, input: Tokens.optional() }).optional(),
  cost: z.object({ input: Dollars, output: Dollars, cache_read: Dollars.optional(), cache_write: Dollars.optional() }).optional(),
  attachment: z.boolean().optional(),
  reasoning: z.boolean().optional(),
  temperature: z.boolean().optional(),
  tool_call: z.boolean().optional(),
  modalities: z.object({ input: z.array(z.string()), output: z.array(z.string()) }).optional(),
  status: z.string().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  provider: z.object({ npm: z.string().optional(), api: z.string().optional() }).optional(),
  variants: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
export type ModelConfig = z.infer<typeof ModelConfig>;

/** `provider.<id>.options`: the ones OpenCode reads itself; the rest go to the provider package as is. */
export const ProviderOptions = z.looseObject({
  apiKey: z.string().optional(),
  baseURL: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Milliseconds for a whole request, or false for none. */
  timeout: z.union([z.number().int().positive(), z.literal(false)]).optional(),
  chunkTimeout: z.number().int().positive().optional(),
  setCacheKey: z.boolean().optional(),
  includeUsage: z.boolean().optional(),
});
export type ProviderOptions = z.infer<typeof ProviderOptions>;

export const ProviderConfig = z.looseObject({
  npm: z.string().optional(),
  name: z.string().optional(),
  /** A base URL used when options.baseURL is absent. */
  api: z.string().optional(),
  env: z.array(z.string()).optional(),
  whitelist: z.array(z.string()).optional(),
  blacklist: z.array(z.string()).optional(),
  options: ProviderOptions.optional(),
  models: z.record(z.string(), ModelConfig).optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfig>;

export const ProvidersConfig = z.object({
  model: ModelReference.optional(),
  small_model: ModelReference.optional(),
  provider: z.record(z.string(), ProviderConfig).optional(),
  enabled_providers: z.array(z.string()).optional(),
  disabled_providers: z.array(z.string()).optional(),
});
export type ProvidersConfig = z.infer<typeof ProvidersConfig>;

/** `provider.local.options.baseURL`, `provider["my.host"]`, `disabled_providers[1]`. */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][\w$-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out || "(top level)";
}

/** Validates an already parsed config object; the error names the JSON path of the first problem. */
export function parseProvidersConfig(value: unknown, source = "opencode.json"): ProvidersConfig {
  const result = ProvidersConfig.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = jsonPath(issue.path);
  throw new ProviderSetupError("config", `${source}: ${path}: ${issue.message}`, `Fix ${path} in ${source}.`, path);
}

/**
 * Reads config text as OpenCode does: `{env:}` and `{file:}` substituted in the raw text first, then
 * JSONC (comments and trailing commas allowed), then the schema.
 */
export async function readProvidersConfig(text: string, context: SubstitutionContext & { source?: string }): Promise<ProvidersConfig> {
  const source = context.source ?? "opencode.json";
  const substituted = await substituteConfigText(text, context);
  const errors: ParseError[] = [];
  const value: unknown = parse(substituted, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const before = substituted.slice(0, first.offset).split("\n");
    const where = `line ${before.length}, column ${before.at(-1)!.length + 1}`;
    throw new ProviderSetupError(
      "config",
      `${source} is not valid JSON: ${printParseErrorCode(first.error)} at ${where}`,
      `Fix the JSON at ${where}.`,
    );
  }
  return parseProvidersConfig(value, source);
}
