/**
 * `{env:NAME}` in an untrusted workspace's provider options is left empty (the environment holds the
 * person's keys). A request built from it would go out without its key or with a broken header, and the
 * provider's 401 would blame the key: `workbench run` refuses before the request instead, naming --trust.
 */
import { parse } from "jsonc-parser";
import { listProviders } from "../session/provider/providers.js";
import type { ProvidersConfig } from "../session/provider/config.js";
import type { KeySource } from "../session/provider/factory.js";
import { ProviderSetupError } from "../session/provider/setup-error.js";

/** One option of a provider that reads the environment: where it is, and the names it reads. */
export interface EnvReference {
  option: string;
  names: string[];
}

const ENV_REFERENCE = /\{env:([^}]+)\}/g;

function collect(value: unknown, path: string, found: EnvReference[]): void {
  if (typeof value === "string") {
    const names = [...value.matchAll(ENV_REFERENCE)].map((match) => match[1]!.trim());
    if (names.length > 0) found.push({ option: path, names });
  } else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) collect(inner, `${path}.${key}`, found);
  }
}

/** Provider id -> the options of it that use `{env:...}` in this config text (JSONC, as opencode.json is). */
export function envReferencesByProvider(text: string): Map<string, EnvReference[]> {
  const byProvider = new Map<string, EnvReference[]>();
  const config: unknown = parse(text, [], { allowTrailingComma: true });
  const providers = (config as { provider?: unknown } | undefined)?.provider;
  if (typeof providers !== "object" || providers === null) return byProvider;
  for (const [id, entry] of Object.entries(providers)) {
    const found: EnvReference[] = [];
    collect((entry as { options?: unknown } | null)?.options, "options", found);
    if (found.length > 0) byProvider.set(id, found);
  }
  return byProvider;
}

/**
 * Throws when the chosen provider would be called with an option the untrusted workspace meant to fill
 * from the environment. An emptied apiKey is fine when the person's own key for that provider stands in.
 */
export async function refuseUnreadEnv(
  providerID: string,
  references: ReadonlyMap<string, EnvReference[]>,
  config: ProvidersConfig,
  keys: KeySource,
  configPath: string,
): Promise<void> {
  const found = references.get(providerID);
  if (!found) return;
  const entry = listProviders(config).find((provider) => provider.id === providerID);
  const ownKey = entry && !entry.options.apiKey ? await keys.get(providerID, entry.env) : undefined;
  const unfilled = found.filter((reference) => !(reference.option === "options.apiKey" && ownKey));
  if (unfilled.length === 0) return;
  const what = unfilled.map((reference) => `${reference.option} ({env:${reference.names.join("}, {env:")}})`).join(", ");
  throw new ProviderSetupError(
    "security",
    `${configPath}: provider "${providerID}" takes ${what} from the environment, which an untrusted workspace may not read, so the request would go out without it`,
    "Run again with --trust if you trust this folder (its opencode.json then reads the environment), or put the provider in your global opencode.json.",
  );
}
