/**
 * Which model to use when none was chosen, and which small model writes titles, following OpenCode:
 * `model` from config, else the first usable provider's best-known model; `small_model`, else a small
 * model of the session's own provider, else the session's model.
 */
import type { ModelRef } from "../record/message.js";
import { parseModelRef, type ProvidersConfig } from "./config.js";
import { listProviders } from "./providers.js";

// OpenCode's preference when it picks a default model itself.
const PREFERRED = ["gpt-5", "claude-sonnet-4", "big-pickle", "gemini-3-pro"];
// And the models it looks for to write titles.
const SMALL = ["claude-haiku-4-5", "claude-haiku-4.5", "3-5-haiku", "3.5-haiku", "gemini-3-flash", "gemini-2.5-flash", "gpt-5-nano"];

function rank(id: string): number {
  const index = PREFERRED.findIndex((prefix) => id.includes(prefix));
  return index === -1 ? PREFERRED.length : index;
}

/**
 * The model for a message when the person, the agent and the session named none.
 * `usable` says which providers have a key (or need none); only `config.provider` keys count when the
 * config lists providers, as in OpenCode.
 */
export function defaultModelRef(config: ProvidersConfig, usable: (providerID: string) => boolean): ModelRef | undefined {
  if (config.model) return parseModelRef(config.model);
  const configured = Object.keys(config.provider ?? {});
  for (const provider of listProviders(config)) {
    if (configured.length && !configured.includes(provider.id)) continue;
    if (!usable(provider.id)) continue;
    const ids = Object.keys(provider.models).sort((a, b) => rank(a) - rank(b));
    if (ids[0]) return { providerID: provider.id, modelID: ids[0] };
  }
  return undefined;
}

export function smallModelRef(config: ProvidersConfig, session: ModelRef): ModelRef {
  if (config.small_model) return parseModelRef(config.small_model);
  const provider = listProviders(config).find((entry) => entry.id === session.providerID);
  for (const wanted of SMALL) {
    const id = Object.keys(provider?.models ?? {}).find((key) => key.includes(wanted));
    if (id) return { providerID: session.providerID, modelID: id };
  }
  return session;
}
