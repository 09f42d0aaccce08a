/**
 * The page's API keys. A key lives in memory for the tab's life unless the person ticks "remember on
 * this device", which also puts it in the device storage (IndexedDB in the page); unticking removes the
 * stored copy. Keys live only here: never in a workspace, a session, an export or a share link, and
 * resolveModel sends each only to its own provider's base URL.
 */
import type { KeySource } from "./factory.js";

/** Where remembered keys are kept (IndexedDB in the page, a Map in tests). */
export interface KeyStorage {
  get(providerID: string): Promise<string | undefined>;
  set(providerID: string, key: string): Promise<void>;
  delete(providerID: string): Promise<void>;
  list(): Promise<string[]>;
}

export class MemoryKeyStorage implements KeyStorage {
  private readonly keys = new Map<string, string>();
  async get(providerID: string): Promise<string | undefined> {
    return this.keys.get(providerID);
  }
  async set(providerID: string, key: string): Promise<void> {
    this.keys.set(providerID, key);
  }
  async delete(providerID: string): Promise<void> {
    this.keys.delete(providerID);
  }
  async list(): Promise<string[]> {
    return [...this.keys.keys()];
  }
}

export interface KeyStatus {
  providerID: string;
  remembered: boolean;
}

export class KeyStore implements KeySource {
  private readonly session = new Map<string, string>();

  /** Without device storage, "remember" cannot be honoured and keys last for the tab only. */
  constructor(private readonly device?: KeyStorage) {}

  get canRemember(): boolean {
    return this.device !== undefined;
  }

  async get(providerID: string): Promise<string | undefined> {
    const key = this.session.get(providerID) ?? (await this.device?.get(providerID));
    if (key !== undefined) this.session.set(providerID, key);
    return key;
  }

  async set(providerID: string, key: string, options: { remember: boolean }): Promise<void> {
    const trimmed = key.trim();
    if (!trimmed) throw new Error(`The key for ${providerID} is empty: paste the key, or use "forget" to remove it.`);
    this.session.set(providerID, trimmed);
    if (options.remember) {
      if (!this.device) throw new Error("This browser cannot store keys (no IndexedDB); the key is kept until the tab closes.");
      await this.device.set(providerID, trimmed);
    } else {
      await this.device?.delete(providerID);
    }
  }

  async forget(providerID: string): Promise<void> {
    this.session.delete(providerID);
    await this.device?.delete(providerID);
  }

  /** Which providers have a key, and whether it is remembered (never the keys themselves). */
  async status(): Promise<KeyStatus[]> {
    const remembered = new Set((await this.device?.list()) ?? []);
    const ids = new Set([...this.session.keys(), ...remembered]);
    return [...ids].sort().map((providerID) => ({ providerID, remembered: remembered.has(providerID) }));
  }

  /** Keys never serialize (a store that slips into a JSON export shows nothing). */
  toJSON(): Record<string, never> {
    return {};
  }
}
