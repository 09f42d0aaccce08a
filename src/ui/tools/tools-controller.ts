/**
 * What the Tools pane does, apart from how it looks: it opens the workspace's sessions on a runtime
 * (closing those on the runtime before), moves between sessions one at a time, trusts or stops trusting
 * the workspace, answers permission prompts (saving "always" to the config when asked) and starts calls.
 * Plain state and listeners, no DOM and no Solid, so it runs and is tested in Node; the view mirrors
 * `state()` into a signal through `subscribe`.
 */
import type { Runtime } from "../../runtime/types.js";
import type { ToolCall } from "../../session/record/session-record.js";
import type { PageSessions } from "../../page/page-sessions.js";
import type { PageTools, PermissionReply } from "../../page/page-tools.js";
import type { ShelfSessionStore } from "../../session/record/key-value-session-store.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { forgetTrust, isTrusted, rememberTrust } from "./trust.js";
import { errorMessage } from "../../base/error-message.js";

export interface SessionsPlace {
  /** The workspace's name: its sessions are kept apart from every other workspace's. */
  workspace: string;
  /** The workspace lives in memory only, so its sessions do too. */
  memoryOnly: boolean;
}

/** Where trust is remembered (localStorage by default): `remember` says false when it cannot be kept. */
export interface TrustMemory {
  /** False where trust must never be given (an embed, whose host chose the files): no button, and setTrust(true) refuses. */
  offered?: boolean;
  isTrusted(workspace: string): boolean;
  remember(workspace: string): boolean;
  forget(workspace: string): void;
}

export interface OpenedStore {
  store: ShelfSessionStore;
  /** Why sessions will not survive a reload, when they will not. */
  notice?: string;
}

export interface ToolsControllerOptions {
  place: SessionsPlace;
  readOnly: boolean;
  /** Opens the workspace's session store once; IndexedDB (loaded after the first paint) by default. */
  openStore?: (place: SessionsPlace) => Promise<OpenedStore>;
  trust?: TrustMemory;
  /** Whether the person's own fetch proxy may carry fetches: not in an embed's frame, which a host page drives. */
  ownProxy?: boolean;
}

interface ToolsNote {
  text: string;
  error?: boolean;
}

export interface ToolsState {
  sessions?: PageSessions;
  /** The session store's notice (sessions in memory only, and why). */
  storeNotice?: string;
  /** A move between sessions is under way: the palette waits for it. */
  moving: boolean;
  /** The last move failed, and why. */
  sessionError?: string;
  /** Trust is being changed (the session reopens). */
  trusting: boolean;
  /** What the last trust change or "always" save came to. */
  note?: ToolsNote;
  /** The workspace config was edited (editor, terminal, a tool): whether it is in force yet, or why not. */
  configNote?: ToolsNote;
}

const localTrust: TrustMemory = { isTrusted, remember: rememberTrust, forget: forgetTrust };

// The tools (zod, the bash parser, diffing) load after the first paint, not with it: they doubled the
// initial bundle when imported eagerly.
async function openBrowserStore(place: SessionsPlace): Promise<OpenedStore> {
  const { openBrowserSessionStore } = await import("../../page/storage/indexeddb-session-store.js");
  return openBrowserSessionStore(place.workspace, { memoryOnly: place.memoryOnly });
}

const messageOf = (error: unknown) => errorMessage(error);

/** What a key press means to the pane, given what is open; undefined when it is not the pane's. */
export type ToolsShortcut = "close-settings" | "close-palette" | "open-palette" | undefined;

export function shortcutOf(
  event: { key: string; ctrlKey: boolean; metaKey: boolean },
  open: { settings: boolean; palette: boolean },
): ToolsShortcut {
  // Escape closes the settings even when focus fell out of them; nothing else acts while they are open.
  if (open.settings) return event.key === "Escape" ? "close-settings" : undefined;
  if (event.key === "Escape" && open.palette) return "close-palette";
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") return open.palette ? "close-palette" : "open-palette";
  return undefined;
}

/**
 * Prompts in the order their calls started (the order of the cards), not the order the asks happened
 * to arrive in: with several queued, the first is the oldest call's. Prompts of one call keep their
 * order; one whose call is unknown comes last.
 */
export function orderByCall(prompts: readonly PermissionRequest[], calls: readonly { id: string }[]): PermissionRequest[] {
  const order = new Map(calls.map((call, index) => [call.id, index]));
  const rank = (request: PermissionRequest) => order.get(request.tool?.callID ?? "") ?? Number.MAX_SAFE_INTEGER;
  return prompts
    .map((request, arrival) => ({ request, arrival }))
    .sort((a, b) => rank(a.request) - rank(b.request) || a.arrival - b.arrival)
    .map(({ request }) => request);
}

export class ToolsController {
  private current: ToolsState = { moving: false, trusting: false };
  private readonly listeners = new Set<() => void>();
  private store: Promise<OpenedStore> | undefined;
  private previous: PageSessions | undefined;
  /** The runtime the sessions are open on (its checkpoints are pruned with a deleted session). */
  private runtime: Runtime | undefined;
  private offSessions: (() => void) | undefined;
  /** Decided by the user; kept here too, since a browser without storage cannot remember it. */
  private trusted: boolean;
  private readonly trust: TrustMemory;
  /**
   * What the config files held when each session was opened (or last reopened), as readConfigText gives it:
   * a session switched back to may have been opened before an edit.
   */
  private readonly configLoaded = new WeakMap<PageTools, Promise<string>>();
  private readConfig: (() => Promise<string>) | undefined;
  private offConfig: (() => void) | undefined;
  private configChecks: Promise<void> = Promise.resolve();
  /**
   * Whether the current session's chat is answering (the pane that shows the chat says): an edited config
   * is put in force once it ends, never under a running answer.
   */
  chatBusy: () => boolean = () => false;

  constructor(private readonly options: ToolsControllerOptions) {
    this.trust = options.trust ?? localTrust;
    this.trusted = this.trust.isTrusted(options.place.workspace);
  }

  /** Whether Trust may be offered here at all. */
  trustOffered(): boolean {
    return this.trust.offered !== false;
  }

  state(): ToolsState {
    return this.current;
  }

  /** Called on every change of the state, of the session list, or of which session is current. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(change: Partial<ToolsState>): void {
    this.current = { ...this.current, ...change };
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** The current session's page tools, once the sessions are open. */
  page(): PageTools | undefined {
    return this.current.sessions?.current;
  }

  /**
   * Opens the sessions on `runtime`. On a new runtime (WebContainer booted) the calls on the old one end
   * first, so the session reopened on the new one reads their real end and the two never save one session.
   */
  async open(runtime: Runtime): Promise<PageSessions> {
    this.runtime = runtime;
    const { PageSessions } = await import("../../page/page-sessions.js");
    this.store ??= (this.options.openStore ?? openBrowserStore)(this.options.place);
    const opened = await this.store;
    await this.previous?.close();
    this.offSessions?.();
    // Undo per step: the workspace's checkpoints start reading the files in the background.
    const { openPageCheckpoints } = await import("../../page/workspace-checkpoints.js");
    openPageCheckpoints(runtime, this.options.place.workspace, {
      persistent: !this.options.place.memoryOnly && typeof indexedDB !== "undefined",
      readOnly: this.options.readOnly ?? false,
    });
    const sessions = await PageSessions.open(runtime, opened.store, {
      remember: !this.options.readOnly,
      trusted: () => this.trusted,
      ownProxy: this.options.ownProxy,
    });
    this.previous = sessions;
    this.offSessions = sessions.onChange(() => this.changed());
    await this.watchConfig(runtime, sessions.current);
    this.set({ sessions, storeNotice: opened.notice });
    return sessions;
  }

  /** Follows the workspace config on `runtime`: an edit by any hand applies at the next call, as Settings' saves do. */
  private async watchConfig(runtime: Runtime, current: PageTools): Promise<void> {
    const { readConfigText, watchConfig } = await import("../../page/config-watch.js");
    this.offConfig?.();
    this.readConfig = () => readConfigText(runtime);
    this.noteConfigOf(current);
    this.offConfig = watchConfig(runtime, () => void this.applyConfigChange());
  }

  /**
   * Puts an edited workspace config in force: when the files differ from what the current session was opened
   * with, the session is reopened (as after a Settings save) now, or once the running call or answer ends
   * (call this again then). One check at a time.
   */
  applyConfigChange(): Promise<void> {
    this.configChecks = this.configChecks.then(() => this.checkConfig());
    return this.configChecks;
  }

  /** Remembers the config text a session was just opened with (read now: it has just read the same). */
  private noteConfigOf(page: PageTools): void {
    if (this.readConfig) this.configLoaded.set(page, this.readConfig());
  }

  private async checkConfig(): Promise<void> {
    const page = this.page();
    if (!page || !this.readConfig) return;
    const loaded = this.configLoaded.get(page);
    if (!loaded) return this.noteConfigOf(page);
    const now = await this.readConfig();
    if (now === (await loaded)) return;
    if (page.busy() || this.chatBusy()) {
      this.set({
        configNote: { text: "opencode.json changed: it applies from the next call once this one (or the chat's answer) ends." },
      });
      return;
    }
    // What is in the file now is what the next session reads; the same text is not tried twice.
    this.configLoaded.set(page, Promise.resolve(now));
    try {
      const next = await page.reopen();
      if (this.page() === page) this.replaced(next);
      this.set({ configNote: { text: "opencode.json changed: the new settings apply from the next call." } });
    } catch (error) {
      this.set({
        configNote: {
          text: `opencode.json changed but cannot be applied: ${messageOf(error)}. The settings before stay in force until it is fixed.`,
          error: true,
        },
      });
    }
  }

  /** The config note was read: it goes away. */
  dismissConfigNote(): void {
    this.set({ configNote: undefined });
  }

  /** A move between sessions; one at a time, so a call never lands in the session being left. */
  async move(action: (sessions: PageSessions) => Promise<unknown>): Promise<void> {
    const sessions = this.current.sessions;
    if (!sessions) return;
    this.set({ moving: true, sessionError: undefined });
    try {
      await action(sessions);
    } catch (error) {
      this.set({ sessionError: messageOf(error) });
    } finally {
      this.set({ moving: false });
    }
    // A session switched back to may have been opened before the config was edited.
    void this.applyConfigChange();
  }

  switchTo = (id: string) => this.move((all) => all.switchTo(id));
  create = () => this.move((all) => all.create());
  rename = (id: string, title: string) => this.move((all) => all.rename(id, title));
  delete = (id: string) =>
    this.move(async (all) => {
      await all.delete(id);
      // The session's checkpoints go with it; the files' timeline stays exact for the other sessions.
      const runtime = this.runtime;
      if (!runtime) return;
      const { pageCheckpointsOf } = await import("../../page/workspace-checkpoints.js");
      await (await pageCheckpointsOf(runtime)?.catch(() => undefined))?.prune(id);
    });

  /** The current session was reopened (trust, saved rules): the list takes the new page in its place. */
  replaced = (next: PageTools): void => {
    this.current.sessions?.replaceCurrent(next);
    // The new session read the config as it is now (Settings wrote it, or trust changed).
    this.noteConfigOf(next);
    this.changed();
  };

  /** Trusts the workspace (or stops), reopening the current session so its code runs (or is listed). */
  async setTrust(value: boolean): Promise<void> {
    const page = this.page();
    if (!page) return;
    if (value && !this.trustOffered()) {
      this.set({ note: { text: "An embed never trusts a workspace: its code was chosen by the page around it.", error: true } });
      return;
    }
    const workspace = this.options.place.workspace;
    this.set({ trusting: true });
    const remembered = value ? this.trust.remember(workspace) : (this.trust.forget(workspace), true);
    try {
      const next = await page.reopen({ trusted: value });
      this.trusted = value;
      this.replaced(next);
      this.set({
        note: remembered ? undefined : { text: "Trusted for this page only: this browser keeps no storage, so a reload will ask again." },
      });
    } catch (error) {
      this.set({ note: { text: `Could not ${value ? "trust" : "stop trusting"} the workspace: ${messageOf(error)}`, error: true } });
    } finally {
      this.set({ trusting: false });
    }
  }

  /** Answers a prompt; an "always" with `saveToConfig` also writes its patterns to the workspace config. */
  async answer(request: PermissionRequest, reply: PermissionReply, message?: string, saveToConfig?: boolean): Promise<void> {
    const page = this.page();
    if (!page?.reply(request.id, reply, message) || reply !== "always" || !saveToConfig) return;
    try {
      const path = await page.saveAlways(request);
      this.set({ note: { text: `Saved ${request.permission}: ${request.always.join(", ")} to ${path}` } });
    } catch (error) {
      this.set({ note: { text: `Could not save to the workspace config: ${messageOf(error)}`, error: true } });
    }
  }

  /** Starts a call in the current session; undefined when no session is open or a move is under way. */
  run(tool: string, args: Record<string, unknown>): { call: ToolCall; done: Promise<ToolCall> } | undefined {
    const page = this.page();
    if (!page || this.current.moving) return undefined;
    const started = page.start(tool, args);
    // A config edited while the call ran is put in force once it ends.
    void started.done.finally(() => this.applyConfigChange());
    this.changed();
    return started;
  }

  /** The prompts waiting, in the order of their calls (see `orderByCall`). */
  pending(): PermissionRequest[] {
    const page = this.page();
    return page ? orderByCall(page.pending(), page.calls) : [];
  }

  /** The call a prompt belongs to (its tool, title and input), for the prompt to say who asks. */
  callOf(callID: string | undefined): ToolCall | undefined {
    return callID === undefined ? undefined : this.page()?.calls.find((call) => call.id === callID);
  }

  /** The input of the call a prompt belongs to, for the prompt to show what is at stake. */
  inputOf(callID: string | undefined): Record<string, unknown> | undefined {
    return this.page()?.calls.find((call) => call.id === callID)?.input;
  }

  dispose(): void {
    this.offSessions?.();
    this.offConfig?.();
    this.listeners.clear();
  }
}
