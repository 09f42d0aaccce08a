/**
 * The page's sessions: the saved ones of this workspace, the one open now, and the moves between them
 * (new, switch, rename, delete). The session open at a reload is opened again after it; calls that were
 * running then come back interrupted. A session left for another keeps running its calls in the
 * background and is picked up as it is when switched back to.
 */
import type { Runtime } from "../runtime/types.js";
import type { SessionRecord } from "../session/record/session-record.js";
import { PageTools } from "./page-tools.js";
import type { SessionSummary, ShelfSessionStore } from "../session/record/key-value-session-store.js";

export interface PageSessionsOptions {
  /**
   * Whether to reopen the session open last and remember the one open now. A read-only tab (the
   * workspace is open elsewhere) does not: it starts its own session so the two tabs never write one.
   */
  remember: boolean;
  /** Whether the workspace's own code may run in sessions opened from now on (the user can change it). */
  trusted?: () => boolean;
  /** Whether the person's own fetch proxy may carry the sessions' fetches (not in an embed's frame). */
  ownProxy?: boolean;
}

function numberOf(title: string): number {
  const match = /^Session (\d+)$/.exec(title);
  return match ? Number(match[1]) : 0;
}

export class PageSessions {
  private readonly opened = new Map<string, PageTools>();
  private readonly listeners = new Set<() => void>();
  private saved: SessionSummary[] = [];
  private active!: PageTools;
  /** One move at a time: a double click must not open a session twice. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly runtime: Runtime,
    private readonly store: ShelfSessionStore,
    private readonly options: PageSessionsOptions,
  ) {}

  static async open(runtime: Runtime, store: ShelfSessionStore, options: PageSessionsOptions): Promise<PageSessions> {
    const sessions = new PageSessions(runtime, store, options);
    sessions.saved = await store.list();
    const last = options.remember ? await store.current() : undefined;
    if (last !== undefined && (await sessions.activate(last))) return sessions;
    await sessions.startNew();
    return sessions;
  }

  get current(): PageTools {
    return this.active;
  }

  /** Every session, oldest first; an open one as it is now, not as last saved. */
  list(): SessionSummary[] {
    const ids = new Set(this.saved.map((summary) => summary.id));
    const all = [...this.saved];
    for (const page of this.opened.values()) if (!ids.has(page.record.id)) all.push(this.summaryOf(page));
    return all
      .map((summary) => {
        const page = this.opened.get(summary.id);
        return page ? this.summaryOf(page) : summary;
      })
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts an empty session and makes it the current one. */
  create(): Promise<PageTools> {
    return this.serially(() => this.startNew());
  }

  /**
   * The current session was reopened (trust changed, rules saved): `page` continues its record and
   * takes its place.
   */
  replaceCurrent(page: PageTools): void {
    if (page.record.id !== this.active.record.id) throw new Error("the reopened page is not the current session");
    this.keep(page);
    this.active = page;
    this.changed();
  }

  /** Makes a saved (or open) session the current one. */
  switchTo(id: string): Promise<PageTools> {
    return this.serially(async () => {
      if (!(await this.activate(id))) throw new Error(`there is no session ${id} in this workspace any more`);
      return this.active;
    });
  }

  /** Keeps an imported session (already given new ids) in this workspace and makes it the current one. */
  adopt(record: SessionRecord): Promise<PageTools> {
    return this.serially(async () => {
      await this.store.save(record);
      this.saved = await this.store.list();
      if (!(await this.activate(record.id))) throw new Error(`the imported session "${record.title}" could not be opened`);
      return this.active;
    });
  }

  rename(id: string, title: string): Promise<void> {
    return this.serially(async () => {
      const name = title.trim();
      if (name === "") throw new Error("a session needs a name: type one, or keep the old name");
      const page = this.opened.get(id) ?? (await this.openSaved(id));
      if (!page) throw new Error(`there is no session ${id} in this workspace any more`);
      page.record.title = name;
      await page.save();
      this.saved = await this.store.list();
      this.changed();
    });
  }

  /** Deletes a session and its calls (running ones are aborted); deleting the current one opens the latest other. */
  delete(id: string): Promise<void> {
    return this.serially(async () => {
      const page = this.opened.get(id);
      this.opened.delete(id);
      await page?.close();
      await this.store.delete(id);
      this.saved = await this.store.list();
      if (this.active.record.id === id) {
        const latest = this.list().at(-1);
        if (!latest || !(await this.activate(latest.id))) await this.startNew();
      }
      this.changed();
    });
  }

  /**
   * Aborts every call still running in this page's sessions and waits for their ends to be saved:
   * the sessions are about to be reopened on another runtime.
   */
  close(): Promise<void> {
    return this.serially(async () => {
      this.listeners.clear();
      await Promise.all([...this.opened.values()].map((page) => page.close()));
    });
  }

  private serially<T>(move: () => Promise<T>): Promise<T> {
    const result = this.queue.then(move);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private summaryOf(page: PageTools): SessionSummary {
    const { id, title, createdAt, calls } = page.record;
    return { id, title, createdAt, calls: calls.length, waiting: page.pending().length };
  }

  /**
   * Keeps `page` among the open sessions. A prompt in a session in the background would otherwise go
   * unseen (a replay there looks stalled), so the list changes whenever a session's prompt count does.
   */
  private keep(page: PageTools): void {
    this.opened.set(page.record.id, page);
    let waiting = page.pending().length;
    page.onChange(() => {
      const now = page.pending().length;
      if (now === waiting) return;
      waiting = now;
      this.changed();
    });
  }

  private async openSaved(id: string): Promise<PageTools | undefined> {
    const record = await this.store.load(id);
    if (!record) return undefined;
    const page = await PageTools.open(this.runtime, {
      store: this.store,
      session: record,
      trusted: this.trusted(),
      ownProxy: this.options.ownProxy,
    });
    this.keep(page);
    // Calls found interrupted stay so, with the time they were found, at the next reload too.
    if (this.options.remember) await page.save();
    return page;
  }

  private trusted(): boolean {
    return this.options.trusted?.() ?? false;
  }

  private async activate(id: string): Promise<boolean> {
    let page = this.opened.get(id) ?? (await this.openSaved(id));
    if (!page) return false;
    // Trust changed while this session sat in the background: it follows, unless a call would be cut off.
    if (page.trusted !== this.trusted() && !page.busy()) {
      page = await page.reopen({ trusted: this.trusted() });
      this.keep(page);
    }
    this.active = page;
    if (this.options.remember) await this.store.setCurrent(id);
    this.changed();
    return true;
  }

  private async startNew(): Promise<PageTools> {
    const page = await PageTools.open(this.runtime, { store: this.store, trusted: this.trusted(), ownProxy: this.options.ownProxy });
    const next = Math.max(0, ...this.list().map((summary) => numberOf(summary.title))) + 1;
    page.record.title = `Session ${next}`;
    this.keep(page);
    // Saved at once, so it is in the list (and can be the one reopened) before its first call. A
    // read-only tab does not: opening one must leave no empty session behind (its first call saves it).
    if (this.options.remember) {
      await page.save();
      this.saved = await this.store.list();
    }
    this.active = page;
    if (this.options.remember) await this.store.setCurrent(page.record.id);
    this.changed();
    return page;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
