/**
 * Remembered keys in the browser: one IndexedDB database for the whole origin, apart from the
 * workspaces' and sessions' databases, so exporting or sharing those can never carry a key.
 */
import { committed, done } from "./indexeddb-requests.js";
import type { KeyStorage } from "../../session/provider/keys.js";
import { errorMessage } from "../../base/error-message.js";

const DATABASE = "workbench-provider-keys";
const STORE = "keys";

class IndexedDBKeyStorage implements KeyStorage {
  constructor(private readonly db: IDBDatabase) {}

  async get(providerID: string): Promise<string | undefined> {
    const value: unknown = await done(this.db.transaction(STORE, "readonly").objectStore(STORE).get(providerID));
    return typeof value === "string" ? value : undefined;
  }

  set(providerID: string, key: string): Promise<void> {
    const transaction = this.db.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).put(key, providerID);
    return committed(transaction);
  }

  delete(providerID: string): Promise<void> {
    const transaction = this.db.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).delete(providerID);
    return committed(transaction);
  }

  async list(): Promise<string[]> {
    const keys = await done(this.db.transaction(STORE, "readonly").objectStore(STORE).getAllKeys());
    return keys.filter((key): key is string => typeof key === "string");
  }
}

/** The device's key storage, or undefined (with the reason) when this browser has no usable IndexedDB. */
export async function openIndexedDBKeyStorage(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): Promise<{ storage?: KeyStorage; notice?: string }> {
  if (!factory) return { notice: "This browser has no IndexedDB: keys are kept only until the tab closes." };
  try {
    const request = factory.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    const blocked = new Promise<never>((_, reject) => {
      request.onblocked = () => reject(new Error("the key database is held open by another tab"));
    });
    return { storage: new IndexedDBKeyStorage(await Promise.race([done(request), blocked])) };
  } catch (error) {
    return {
      notice: `Keys cannot be remembered on this device (${errorMessage(error)}); they last until the tab closes.`,
    };
  }
}
