/**
 * Sessions kept on a shelf of text records (IndexedDB in the browser, memory in tests), one workspace
 * per shelf. A session is a summary (for the picker, without reading any call), a header (the order of
 * its messages and calls) and one record per message and per call, so a save rewrites only what is
 * still under way, not a long session's finished answers and outputs again and again. Plus the id of
 * the session the page last had open. Headers written before messages had records of their own held
 * the messages themselves; they still load.
 *
 * Saves are coalesced per session: while one write is under way, later saves replace the one
 * waiting behind it, so a call streaming output costs at most one write in flight and one waiting, and
 * the last state saved is always the last one written.
 */
import { markInterrupted, type SessionRecord, type ToolCall } from "./session-record.js";
import type { Message } from "./message.js";
import type { SessionStore } from "./session-store.js";

/** What the store needs from its storage. `put` and `delete` of several keys are all-or-nothing. */
export interface Shelf {
  get(key: string): Promise<string | undefined>;
  put(entries: Array<[key: string, value: string]>): Promise<void>;
  delete(keys: string[]): Promise<void>;
  /** Every key that starts with `prefix`, in key order. */
  keys(prefix: string): Promise<string[]>;
}

export class MemoryShelf implements Shelf {
  readonly records = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.records.get(key);
  }

  async put(entries: Array<[string, string]>): Promise<void> {
    for (const [key, value] of entries) this.records.set(key, value);
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) this.records.delete(key);
  }

  async keys(prefix: string): Promise<string[]> {
    return [...this.records.keys()].filter((key) => key.startsWith(prefix)).sort();
  }
}

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  calls: number;
  /** Permission prompts this session is waiting on (only known for a session open in this page). */
  waiting?: number;
}

const SUMMARY = "summary:";
const HEADER = "session:";
const CALL = "call:";
const MESSAGE = "message:";
const CURRENT = "current";

/** `messages` holds ids; a header from before messages had records holds the messages themselves. */
type Header = Omit<SessionRecord, "calls" | "messages"> & { calls: string[]; messages?: Array<string | Message> };

const callKey = (sessionID: string, callID: string) => `${CALL}${sessionID}:${callID}`;
const messageKey = (sessionID: string, messageID: string) => `${MESSAGE}${sessionID}:${messageID}`;
const ended = (call: ToolCall) => call.status !== "pending" && call.status !== "running";
/** A finished call changes once more at most: when compaction clears its output for the model. */
const finalMark = (key: string, call: ToolCall) => `${key}@${call.time.compacted ?? ""}`;
/** A user message never changes; an assistant message is done once completed. */
const finished = (message: Message) => message.role === "user" || message.time.completed !== undefined;

interface Waiting {
  entries: Map<string, string>;
  /** Keys of calls that had ended when snapshotted: once written, they never need writing again. */
  final: Set<string>;
  settle: Array<{ resolve(): void; reject(error: unknown): void }>;
}

export class ShelfSessionStore implements SessionStore {
  private readonly waiting = new Map<string, Waiting>();
  private readonly writing = new Map<string, Promise<void>>();
  /** Deleted in this page: a call still ending there must not bring the session back. */
  private readonly deleted = new Set<string>();
  /** Calls written in their end state by this store: nothing changes them any more. */
  private readonly writtenFinal = new Set<string>();

  constructor(private readonly shelf: Shelf) {}

  save(session: SessionRecord): Promise<void> {
    if (this.deleted.has(session.id)) return Promise.resolve();
    // Serialised now, not when the write happens: the runner keeps changing the record in place.
    const { calls, messages, ...rest } = session;
    const header: Header = { ...rest, calls: calls.map((call) => call.id), messages: messages.map((message) => message.id) };
    const summary: SessionSummary = { id: session.id, title: session.title, createdAt: session.createdAt, calls: calls.length };
    const entries = new Map<string, string>([
      [HEADER + session.id, JSON.stringify(header)],
      [SUMMARY + session.id, JSON.stringify(summary)],
    ]);
    const final = new Set<string>();
    for (const call of calls) {
      const key = callKey(session.id, call.id);
      if (this.writtenFinal.has(finalMark(key, call))) continue;
      entries.set(key, JSON.stringify(call));
      if (ended(call)) final.add(finalMark(key, call));
    }
    for (const message of messages) {
      const key = messageKey(session.id, message.id);
      if (this.writtenFinal.has(key)) continue;
      entries.set(key, JSON.stringify(message));
      if (finished(message)) final.add(key);
    }
    return new Promise<void>((resolve, reject) => {
      const queued = this.waiting.get(session.id);
      if (queued) {
        // Replacing is safe: a snapshot leaves out only calls already written in their end state.
        queued.entries = entries;
        queued.final = final;
        queued.settle.push({ resolve, reject });
      } else {
        this.waiting.set(session.id, { entries, final, settle: [{ resolve, reject }] });
      }
      if (!this.writing.has(session.id)) this.writing.set(session.id, this.drain(session.id));
    });
  }

  private async drain(id: string): Promise<void> {
    // Never finishes before save() has recorded it as writing.
    await Promise.resolve();
    try {
      for (let next = this.waiting.get(id); next; next = this.waiting.get(id)) {
        this.waiting.delete(id);
        try {
          if (!this.deleted.has(id)) await this.shelf.put([...next.entries]);
          for (const key of next.final) this.writtenFinal.add(key);
          for (const waiter of next.settle) waiter.resolve();
        } catch (error) {
          for (const waiter of next.settle) waiter.reject(error);
        }
      }
    } finally {
      this.writing.delete(id);
    }
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const text = await this.shelf.get(HEADER + id);
    if (text === undefined) return undefined;
    const { calls: order, messages: messageOrder = [], ...rest } = JSON.parse(text) as Header;
    const texts = await Promise.all(order.map((callID) => this.shelf.get(callKey(id, callID))));
    const calls = texts.filter((call): call is string => call !== undefined).map((call) => JSON.parse(call) as ToolCall);
    for (const call of calls) if (ended(call)) this.writtenFinal.add(finalMark(callKey(id, call.id), call));
    // Sessions saved before the agent existed have no messages; older headers hold them inline.
    const messageTexts = await Promise.all(
      messageOrder.map((entry) => (typeof entry === "string" ? this.shelf.get(messageKey(id, entry)) : JSON.stringify(entry))),
    );
    const messages = messageTexts
      .filter((message): message is string => message !== undefined)
      .map((message) => JSON.parse(message) as Message);
    // Only records that were written finished count as written: one marked interrupted now must be saved again.
    for (const message of messages)
      if (finished(message) && messageOrder.includes(message.id)) this.writtenFinal.add(messageKey(id, message.id));
    return markInterrupted({ ...rest, messages, calls });
  }

  /** The saved sessions, oldest first. */
  async list(): Promise<SessionSummary[]> {
    const keys = await this.shelf.keys(SUMMARY);
    const texts = await Promise.all(keys.map((key) => this.shelf.get(key)));
    return texts
      .filter((text): text is string => text !== undefined)
      .map((text) => JSON.parse(text) as SessionSummary)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async delete(id: string): Promise<void> {
    this.deleted.add(id);
    // Saves still waiting are moot: they settle now, unwritten.
    for (const waiter of this.waiting.get(id)?.settle ?? []) waiter.resolve();
    this.waiting.delete(id);
    await this.writing.get(id);
    const keys = [HEADER + id, SUMMARY + id, ...(await this.shelf.keys(`${CALL}${id}:`)), ...(await this.shelf.keys(`${MESSAGE}${id}:`))];
    if ((await this.current()) === id) keys.push(CURRENT);
    await this.shelf.delete(keys);
  }

  /** The session the page had open last, if it is still there. */
  async current(): Promise<string | undefined> {
    const id = await this.shelf.get(CURRENT);
    if (id === undefined || this.deleted.has(id)) return undefined;
    return (await this.shelf.get(SUMMARY + id)) === undefined ? undefined : id;
  }

  async setCurrent(id: string): Promise<void> {
    await this.shelf.put([[CURRENT, id]]);
  }
}
