/**
 * The `provider` section of a workspace the person has not trusted. A shared workspace is someone else's
 * file, and a base URL or header in it decides where the person's key is sent: `provider.openai.options
 * .baseURL: "https://collector.example"` would hand over their OpenAI key with the first message. So,
 * until the workspace is trusted:
 *
 * - a provider whose key would come from the person (a built-in provider, one the person's own config
 *   defines, or one the workspace gives no key of its own) keeps the person's address: the workspace's
 *   `api`, `options.baseURL`, `options.headers`, `env` and each model's `provider.api` and `headers` are
 *   ignored, with a notice;
 * - a provider only the workspace defines (a local server, say) keeps its address, but gets no key of the
 *   person's: `withoutPersonKeys` hides any stored key for it, and its `env` list is ignored;
 * - a provider the workspace gives its own literal `options.apiKey` is the workspace's business and is left
 *   as written.
 *
 * `{env:...}` and `{file:...}` outside the workspace are dealt with when the text is read (see
 * untrustedSubstitution), since they would read the person's secrets before any of this runs.
 */
import type { Runtime } from "../../runtime/types.js";
import { CATALOG } from "../provider/catalog.js";
import type { ModelConfig, ProviderConfig, ProvidersConfig } from "../provider/config.js";
import type { KeySource } from "../provider/factory.js";
import { ProviderSetupError } from "../provider/setup-error.js";
import { insideWorkspace } from "./inside-workspace.js";

export interface DistrustedProviders {
  /** The workspace's section with what could redirect the person's keys taken out. */
  config: ProvidersConfig;
  /** Workspace-only providers that must not be given any key of the person's. */
  keyless: Set<string>;
  /** One line per thing ignored, for the person: what, and what to do about it. */
  notices: string[];
  /**
   * Providers on the person's key whose workspace entry would send it elsewhere, not yet answered: the page
   * asks the person, per provider and naming each address (Allow for this workspace / Deny).
   */
  asks: KeyRouteAsk[];
}

export interface KeyRouteAsk {
  providerID: string;
  /** Every address the workspace's entry would send the key to (`api`, `options.baseURL`, models' `provider.api`), sorted. */
  destinations: string[];
}

/** The person's answer for a provider and the exact addresses asked about; undefined when not asked yet. */
export type KeyRouteAnswers = (providerID: string, destinations: readonly string[]) => "allow" | "deny" | undefined;

/** The addresses a workspace's entry for a provider would send requests (and the key) to. */
function keyDestinations(entry: ProviderConfig): string[] {
  const found = new Set<string>();
  if (typeof entry.api === "string" && entry.api) found.add(entry.api);
  if (typeof entry.options?.baseURL === "string" && entry.options.baseURL) found.add(entry.options.baseURL);
  for (const model of Object.values(entry.models ?? {})) {
    if (typeof model.provider?.api === "string" && model.provider.api) found.add(model.provider.api);
  }
  return [...found].sort();
}

const ROUTING = ["baseURL", "headers"] as const;

/**
 * `workspace` is the workspace's own providers section (already substituted); `personal` is the person's
 * global one, whose providers count as theirs.
 */
export function distrustWorkspaceProviders(
  workspace: ProvidersConfig,
  personal: ProvidersConfig = {},
  /** The page's rule: trust never lifts this, so the notice must not promise that it would. */
  options: { evenTrusted?: boolean; routes?: KeyRouteAnswers } = {},
): DistrustedProviders {
  const keyless = new Set<string>();
  const notices: string[] = [];
  const asks: KeyRouteAsk[] = [];
  const providers: Record<string, ProviderConfig> = {};
  for (const [id, entry] of Object.entries(workspace.provider ?? {})) {
    const ownKey = typeof entry.options?.apiKey === "string" && entry.options.apiKey !== "";
    const theirs = CATALOG[id] !== undefined || personal.provider?.[id] !== undefined;
    if (ownKey) {
      providers[id] = entry;
      continue;
    }
    const destinations = theirs ? keyDestinations(entry) : [];
    const answer = destinations.length > 0 ? options.routes?.(id, destinations) : undefined;
    if (answer === "allow") {
      // The person allowed these very addresses for this workspace: its entry applies as written but `env`.
      const { env: _env, ...allowed } = entry;
      providers[id] = allowed;
      continue;
    }
    if (destinations.length > 0 && answer === undefined && options.routes) asks.push({ providerID: id, destinations });
    const ignored: string[] = [];
    const copy: ProviderConfig = { ...entry };
    if (copy.env !== undefined) {
      ignored.push(`provider.${id}.env`);
      delete copy.env;
    }
    if (theirs) {
      if (copy.api !== undefined) {
        ignored.push(`provider.${id}.api`);
        delete copy.api;
      }
      if (copy.options) {
        const options = { ...copy.options };
        for (const key of ROUTING) {
          if (options[key] !== undefined) {
            ignored.push(`provider.${id}.options.${key}`);
            delete options[key];
          }
        }
        copy.options = options;
      }
      if (copy.models) {
        const models: Record<string, ModelConfig> = {};
        for (const [key, model] of Object.entries(copy.models)) {
          const kept: ModelConfig = { ...model };
          if (kept.headers !== undefined) {
            ignored.push(`provider.${id}.models.${key}.headers`);
            delete kept.headers;
          }
          if (kept.provider?.api !== undefined) {
            ignored.push(`provider.${id}.models.${key}.provider.api`);
            kept.provider = { ...kept.provider };
            delete kept.provider.api;
          }
          models[key] = kept;
        }
        copy.models = models;
      }
    } else {
      keyless.add(id);
    }
    if (ignored.length > 0) {
      notices.push(
        `${ignored.join(", ")} from this workspace ${ignored.length === 1 ? "is" : "are"} ignored ${options.evenTrusted ? "(trust never moves a key: set the address in your own provider settings to use it)" : "until you trust this workspace"}: your key for ${id} only goes to ${theirs ? "the address your own settings give it" : "nowhere (this provider gets no key of yours)"}`,
      );
    }
    providers[id] = copy;
  }
  return { config: workspace.provider === undefined ? workspace : { ...workspace, provider: providers }, keyless, notices, asks };
}

/** A key source that has no key for the given providers (workspace-only ones of an untrusted workspace). */
export function withoutPersonKeys(keys: KeySource, keyless: ReadonlySet<string>): KeySource {
  return { get: (providerID, envNames) => (keyless.has(providerID) ? undefined : keys.get(providerID, envNames)) };
}

/**
 * What `{env:...}` and `{file:...}` may read in an untrusted workspace's config: no environment (it holds
 * the person's keys), and files only inside the workspace (a `{file:~/.aws/credentials}` header would send
 * them out). `readFile` is the runtime's, already relative-path-resolved by the caller.
 */
export function untrustedSubstitution(runtime: Runtime, source: string) {
  return {
    env: {} as Readonly<Record<string, string | undefined>>,
    readFile: async (path: string): Promise<string | undefined> => {
      if (!(await insideWorkspace(runtime, path))) {
        throw new ProviderSetupError(
          "security",
          `${source}: {file:${path}} is outside the workspace, which an untrusted workspace's config may not read`,
          `Trust the workspace (--trust, or Trust in the page), or keep the file inside the workspace.`,
        );
      }
      return runtime.fs.readFile(path).then(
        (bytes) => new TextDecoder().decode(bytes),
        () => undefined,
      );
    },
  };
}
