import { markInterrupted, type SessionRecord } from "./calls.js";

/** Where sessions are kept (IndexedDB in the browser, memory in tests and the CLI). */
export interface SessionStore {
  save(session: SessionRecord): Promise<void>;
  /** The session as saved, with calls that were in flight marked interrupted. */
  load(id: string): Promise<SessionRecord | undefined>;
  list(): Promise<Array<Pick<SessionRecord, "id" | "title" | "createdAt">>>;
  delete(id: string): Promise<void>;
}

export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, string>();

  async save(session: SessionRecord): Promise<void> {
    // Stored as text, as a real store would, so no caller keeps a live reference into it.
    this.sessions.set(session.id, JSON.stringify(session));
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const text = this.sessions.get(id);
    return text === undefined ? undefined : markInterrupted(JSON.parse(text) as SessionRecord);
  }

  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
  }

  async list() {
    return [...this.sessions.values()].map((text) => {
      const { id, title, createdAt } = JSON.parse(text) as SessionRecord;
      return { id, title, createdAt };
    });
  }
}
