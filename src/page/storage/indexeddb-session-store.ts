/**
 * The browser's session store: a shelf in IndexedDB, one database per workspace (so two workspaces
 * never share sessions), or memory when IndexedDB cannot be used, with the reason said.
 */
import { committed, done } from "./indexeddb-requests.js";
import { MemoryShelf, ShelfSessionStore, type Shelf } from "../../session/record/key-value-session-store.js";
import { errorMessage } from "../../base/error-message.js";

const STORE = "records";

class IndexedDBShelf implements Shelf {
  constructor(private readonly db: IDBDatabase) {}

  async get(key: string): Promise<string | undefined> {
    const value: unknown = await done(this.db.transaction(STORE, "readonly").objectStore(STORE).get(key));
    return typeof value === "string" ? value : undefined;
  }

  // A write counts once its transaction has committed, not when the request succeeds.
  put(entries: Array<[string, string]>): Promise<void> {
    const transaction = this.db.transaction(STORE, "readwrite");
    const store = transaction.objectStore(STORE);
    for (const [key, value] of entries) store.put(value, key);
    return committed(transaction);
  }

  delete(keys: string[]): Promise<void> {
    const transaction = this.db.transaction(STORE, "readwrite");
    const store = transaction.objectStore(STORE);
    for (const key of keys) store.delete(key);
    return committed(transaction);
  }

  async keys(prefix: string): Promise<string[]> {
    const range = IDBKeyRange.bound(prefix, `${prefix}\uffff`);
    const keys = await done(this.db.transaction(STORE, "readonly").objectStore(STORE).getAllKeys(range));
    return keys.filter((key): key is string => typeof key === "string");
  }
}

export function sessionDatabaseName(workspace: string): string {
  return `workbench-sessions:${workspace}`;
}

async function openDatabase(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  const request = factory.open(name, 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
  };
  // Another tab holding an older version open would block us forever; say so instead of hanging.
  const blocked = new Promise<never>((_, reject) => {
    request.onblocked = () => reject(new Error("the session database is held open by another tab"));
  });
  return Promise.race([done(request), blocked]);
}

export interface BrowserSessionStore {
  store: ShelfSessionStore;
  persistent: boolean;
  /** Why sessions will not survive a reload, when they will not. */
  notice?: string;
}

export async function openBrowserSessionStore(
  workspace: string,
  options: { memoryOnly?: boolean; factory?: IDBFactory } = {},
): Promise<BrowserSessionStore> {
  const memory = (notice?: string): BrowserSessionStore => ({ store: new ShelfSessionStore(new MemoryShelf()), persistent: false, notice });
  // A memory-only workspace loses its files at reload; sessions kept past them would describe files that are gone.
  if (options.memoryOnly) return memory();
  const factory = options.factory ?? (typeof indexedDB === "undefined" ? undefined : indexedDB);
  if (!factory) return memory("IndexedDB is not available: sessions live in memory and are gone after a reload.");
  try {
    const db = await openDatabase(factory, sessionDatabaseName(workspace));
    return { store: new ShelfSessionStore(new IndexedDBShelf(db)), persistent: true };
  } catch (error) {
    const detail = errorMessage(error);
    return memory(`Could not open the saved sessions (${detail}): sessions live in memory and are gone after a reload.`);
  }
}
