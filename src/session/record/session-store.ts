import type { SessionRecord } from "./session-record.js";

/** Where sessions are kept: ShelfSessionStore over IndexedDB in the browser, over memory in tests. */
export interface SessionStore {
  save(session: SessionRecord): Promise<void>;
  /** The session as saved, with calls that were in flight marked interrupted. */
  load(id: string): Promise<SessionRecord | undefined>;
  list(): Promise<Array<Pick<SessionRecord, "id" | "title" | "createdAt">>>;
  delete(id: string): Promise<void>;
}
