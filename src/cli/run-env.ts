/**
 * The environment variables that hold the keys a `workbench run` uses, so the tool shell never sees them
 * (a model running `env` would print them into its context, and --session-file would keep them). Those
 * are: the usual key variables of the built-in providers and every configured provider's `env` list, and
 * any variable whose value the providers' options hold (what `{env:NAME}` in opencode.json filled in,
 * whatever NAME is; `Bearer {env:TOKEN}` in a header included).
 */
import type { ProvidersConfig } from "../session/provider/config.js";
import { listProviders } from "../session/provider/providers.js";
import { BUILTIN_KEY_VARIABLES } from "./held-environment.mjs";

// The list lives with the code that hides it at start-up, which runs before TypeScript can be loaded.
export { BUILTIN_KEY_VARIABLES };

// Shorter values ("1", "true", a port) match by accident and are not keys.
const MIN_SECRET_LENGTH = 8;

function strings(value: unknown, into: string[]): string[] {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === "object") for (const item of Object.values(value)) strings(item, into);
  return into;
}

export function keyVariables(config: ProvidersConfig, env: Readonly<Record<string, string | undefined>>): string[] {
  const names = new Set(BUILTIN_KEY_VARIABLES);
  const held: string[] = [];
  for (const provider of listProviders(config)) {
    for (const name of provider.env) names.add(name);
    // Only where keys go: the options given to the package (models' options are request settings).
    strings(provider.options, held);
  }
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && held.some((text) => text.includes(value))) names.add(name);
  }
  return [...names].sort();
}
