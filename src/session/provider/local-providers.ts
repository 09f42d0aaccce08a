/**
 * OpenAI-compatible servers the person added in the provider dialog (Ollama, LM Studio, llama.cpp,
 * vLLM, or any other endpoint): an id, a base URL and the model ids to offer. They belong to the person,
 * not to the workspace, so they are kept beside the keys (in memory, or in this browser's storage when
 * "remember on this device" is ticked) and laid over the workspace's providers as config entries. Only
 * the base URL and model ids are kept here: a key never is.
 */
import { z } from "zod";
import { OPENAI_COMPATIBLE } from "./catalog.js";
import type { ProviderConfig, ProvidersConfig } from "./config.js";

export const LocalProvider = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "use lowercase letters, digits, - or _"),
  baseURL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  models: z.array(z.string().min(1)).min(1, "name at least one model the server runs"),
});
export type LocalProvider = z.infer<typeof LocalProvider>;

const Saved = z.array(LocalProvider);

/** Where remembered entries live (localStorage in the page). */
export interface TextStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const STORAGE_KEY = "workbench-local-providers";

export class LocalProviders {
  private readonly entries = new Map<string, LocalProvider>();
  private readonly remembered = new Set<string>();

  constructor(private readonly storage?: TextStorage) {
    const parsed = Saved.safeParse(readJSON(storage?.getItem(STORAGE_KEY) ?? null));
    // A damaged entry is dropped rather than blocking the page; the person can add the server again.
    for (const entry of parsed.success ? parsed.data : []) {
      this.entries.set(entry.id, entry);
      this.remembered.add(entry.id);
    }
  }

  list(): LocalProvider[] {
    return [...this.entries.values()];
  }

  get(id: string): LocalProvider | undefined {
    return this.entries.get(id);
  }

  isRemembered(id: string): boolean {
    return this.remembered.has(id);
  }

  /** Adds or replaces an entry; `remember` keeps it in the browser's storage too. */
  set(input: LocalProvider, options: { remember: boolean }): LocalProvider {
    const result = LocalProvider.safeParse(input);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`the ${String(issue.path[0] ?? "entry")} ${issue.message}`);
    }
    const entry = { ...result.data, baseURL: result.data.baseURL.replace(/\/+$/, "") };
    this.entries.set(entry.id, entry);
    if (options.remember && this.storage) this.remembered.add(entry.id);
    else this.remembered.delete(entry.id);
    this.persist();
    return entry;
  }

  remove(id: string): void {
    this.entries.delete(id);
    this.remembered.delete(id);
    this.persist();
  }

  /**
   * `config` with these servers laid over it: a new id becomes an openai-compatible provider; an id the
   * workspace already names keeps its entry and takes the base URL and models typed here.
   */
  over(config: ProvidersConfig): ProvidersConfig {
    if (this.entries.size === 0) return config;
    const provider: Record<string, ProviderConfig> = { ...config.provider };
    for (const entry of this.entries.values()) {
      const own = provider[entry.id];
      const models = { ...own?.models };
      for (const id of entry.models) models[id] = { ...models[id], name: models[id]?.name ?? id };
      provider[entry.id] = {
        ...own,
        npm: own?.npm ?? OPENAI_COMPATIBLE,
        name: own?.name ?? entry.id,
        options: { ...own?.options, baseURL: entry.baseURL },
        models,
      };
    }
    const enabled = config.enabled_providers ? [...new Set([...config.enabled_providers, ...this.entries.keys()])] : undefined;
    return { ...config, provider, ...(enabled ? { enabled_providers: enabled } : {}) };
  }

  private persist(): void {
    if (!this.storage) return;
    const kept = this.list().filter((entry) => this.remembered.has(entry.id));
    try {
      if (kept.length === 0) this.storage.removeItem(STORAGE_KEY);
      else this.storage.setItem(STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // Storage full or refused: the entry still works for this tab.
    }
  }
}

function readJSON(text: string | null): unknown {
  if (text === null) return [];
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}
