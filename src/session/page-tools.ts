/**
 * The page's tool session: one ToolSession on the workspace's active runtime, with what a person at
 * the page needs on top of it: the tools with their schemas, a way to start a call and abort it later,
 * and the pending permission prompts with their replies. The UI reaches tools only through this.
 */
import { normalize } from "pathe";
import type { z } from "zod";
import type { Runtime } from "../runtime/types.js";
import { builtinTools } from "../tools/builtins.js";
import type { Explanation, RuleLayer } from "../tools/permission/evaluate.js";
import type { PermissionRequest } from "../tools/permission/types.js";
import type { SessionRecord, ToolCall } from "./calls.js";
import type { SessionStore } from "./session-store.js";
import { ToolSession } from "./tool-session.js";
import { loadWorkspaceConfig, permissionRulesOf, saveApprovals, savePermissionRules, type ConfigRule } from "./workspace-config.js";

export interface ToolEntry {
  id: string;
  description: string;
  parameters: z.ZodType;
}

export type PermissionReply = "once" | "always" | "reject";

/**
 * How often a session with a running call is saved, at most. The runner saves each call as it starts
 * and as it ends; these saves in between keep streamed output and answered prompts over a reload.
 */
const LIVE_SAVE_INTERVAL_MS = 1000;

export interface PageToolsOptions {
  /** Whether the workspace's own code (custom tools, plugins) may run; the user decides, so off by default. */
  trusted?: boolean;
  /** Where the session is saved as its calls change; nowhere when absent. */
  store?: SessionStore;
  /** A saved session to continue. */
  session?: SessionRecord;
}

/** The app's data folder: saved full outputs live under it, outside the workspace. */
export const DATA_DIR = "/data";

/** A saved output bigger than this is shown from its start only: the page would not hold it whole. */
export const SAVED_OUTPUT_VIEW_BYTES = 32 * 1024 * 1024;

export interface SavedOutput {
  path: string;
  text: string;
  /** The file's whole size in bytes; more than `text` holds when the file was over the view limit. */
  size: number;
  complete: boolean;
}

const within = (path: string, dir: string) => path.startsWith(`${dir}/`);

export class PageTools {
  /** Calls the user aborted, so a call that still completed (bash keeps its output) reads as aborted. */
  private readonly abortedIDs = new Set<string>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly running = new Set<Promise<ToolCall>>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;

  private constructor(
    readonly session: ToolSession,
    readonly trusted: boolean,
    private readonly store: SessionStore | undefined,
  ) {
    this.unsubscribe = store ? this.onChange(() => this.scheduleSave()) : () => {};
  }

  static open(runtime: Runtime, options: PageToolsOptions = {}): Promise<PageTools> {
    return PageTools.openOn(runtime, { trusted: options.trusted ?? false, store: options.store, session: options.session });
  }

  /** `carried`: the page being replaced, whose transcript and listeners (bus) the new one continues. */
  private static async openOn(
    runtime: Runtime,
    options: { trusted: boolean; store?: SessionStore; session?: SessionRecord },
    carried?: PageTools,
  ): Promise<PageTools> {
    const { trusted, store } = options;
    const session = await ToolSession.open({
      runtime,
      // Outside the workspace, so saved full outputs never show up among the user's files.
      dataDir: DATA_DIR,
      home: "/home/user",
      builtins: builtinTools,
      trusted,
      flags: { client: "web" },
      bus: carried?.session.bus,
      session: carried?.session.session ?? options.session,
      store,
    });
    return new PageTools(session, trusted, store);
  }

  get record(): SessionRecord {
    return this.session.session;
  }

  /** Workspace code (custom tools, plugins) found but not run, because the workspace is not trusted. */
  get untrustedFiles(): readonly string[] {
    return this.session.untrustedFiles;
  }

  /** Custom tools and plugins that failed to load. */
  get problems(): readonly { file: string; error: string }[] {
    return this.session.problems;
  }

  /** Whether a call is still under way (waiting, running or asking), which a reopen would cut off. */
  busy(): boolean {
    return this.calls.some((call) => call.status === "pending" || call.status === "running") || this.pending().length > 0;
  }

  /**
   * The same session opened again, so the config file and trust are read anew: the transcript, the
   * "always" approvals and the listeners (the bus) carry over. Refused while a call is under way,
   * since its prompt and abort button belong to the session being replaced.
   */
  async reopen(options: PageToolsOptions = {}): Promise<PageTools> {
    if (this.busy()) throw new Error("A call is still running or waiting for permission: let it finish (or abort it), then try again.");
    const next = await PageTools.openOn(this.session.runtime, { trusted: options.trusted ?? this.trusted, store: this.store }, this);
    // The new page saves the record from now on; this one, on the same bus, must stop.
    this.retire();
    next.session.permissions.loadApprovals(this.session.permissions.approved.map((rule) => ({ ...rule })));
    for (const id of this.abortedIDs) next.abortedIDs.add(id);
    return next;
  }

  /** The rules in force, in evaluation order (the last match wins), grouped by where they came from. */
  rulesInForce(): RuleLayer[] {
    return this.session.rulesInForce();
  }

  /** What would happen for `permission` and `pattern`, and which rule (from where) decides it. */
  explain(permission: string, pattern: string): Explanation {
    return this.session.explain(permission.trim(), pattern);
  }

  /** The workspace config's own `permission` entries as the file holds them now (it may have changed since the session opened). */
  async configRules(): Promise<{ path?: string; rules: ConfigRule[] }> {
    const { config, path } = await loadWorkspaceConfig(this.session.runtime);
    return { path, rules: permissionRulesOf(config) };
  }

  /** Writes `rules` as the config's `permission` section, then reopens so they are in force. */
  async saveRules(rules: readonly ConfigRule[]): Promise<{ path: string; page: PageTools }> {
    if (this.busy()) throw new Error("A call is still running or waiting for permission: let it finish (or abort it), then save.");
    const path = await savePermissionRules(this.session.runtime, rules);
    return { path, page: await this.reopen() };
  }

  /** Writes the patterns an "always" answer remembers into the workspace config, so they outlive the session. */
  saveAlways(request: Pick<PermissionRequest, "permission" | "always">): Promise<string> {
    return saveApprovals(this.session.runtime, request.always.map((pattern) => ({ permission: request.permission, pattern })));
  }

  get calls(): readonly ToolCall[] {
    return this.session.session.calls;
  }

  private scheduleSave(): void {
    if (this.saveTimer !== undefined || !this.store) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, LIVE_SAVE_INTERVAL_MS);
  }

  /** Saves the session now (the runner's own saves cover each call's start and end). */
  save(): Promise<void> {
    return this.store?.save(this.record).catch((error: unknown) => console.error("could not save the session:", error)) ?? Promise.resolve();
  }

  private retire(): void {
    this.closed = true;
    this.unsubscribe();
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
  }

  /**
   * Aborts what still runs and stops saving in between: the session is deleted, or reopened on another
   * runtime. Resolves once the aborted calls have ended (and the runner has saved their end).
   */
  async close(): Promise<void> {
    this.retire();
    const running = [...this.running];
    for (const id of [...this.controllers.keys()]) this.abort(id);
    await Promise.allSettled(running);
  }

  /** Every registered tool with its description and zod parameters, in the registry's order. */
  async tools(): Promise<ToolEntry[]> {
    const agent = this.session.agent;
    const all = this.session.registry.all().filter((tool) => tool.id !== "invalid");
    return Promise.all(
      all.map(async (tool) => {
        const initialized = await tool.init({ agent });
        return { id: tool.id, description: initialized.description, parameters: initialized.parameters };
      }),
    );
  }

  /**
   * Starts a call and returns its record at once (the runner adds it to the session before its first
   * await), plus the promise of its end. The record is updated in place; `onChange` says when.
   */
  start(tool: string, args: Record<string, unknown>): { call: ToolCall; done: Promise<ToolCall> } {
    if (this.closed) throw new Error(`the session "${this.record.title}" was closed (deleted, or reopened on another runtime): run the call in the current session`);
    const controller = new AbortController();
    const before = this.calls.length;
    const done = this.session.run(tool, args, { signal: controller.signal });
    const call = this.calls[before];
    if (!call) throw new Error("the session did not record the call");
    this.controllers.set(call.id, controller);
    this.running.add(done);
    void done.finally(() => {
      this.controllers.delete(call.id);
      this.running.delete(done);
    });
    return { call, done };
  }

  abort(callID: string): boolean {
    const controller = this.controllers.get(callID);
    if (!controller) return false;
    this.abortedIDs.add(callID);
    controller.abort(new Error("aborted by the user"));
    return true;
  }

  wasAborted(callID: string): boolean {
    return this.abortedIDs.has(callID);
  }

  /** Calls `listener` whenever a call changes or a permission is asked or answered. */
  onChange(listener: () => void): () => void {
    const offs = [
      this.session.bus.subscribe("call.updated", listener),
      this.session.bus.subscribe("permission.asked", listener),
      this.session.bus.subscribe("permission.replied", listener),
    ];
    return () => offs.forEach((off) => off());
  }

  /** Calls `listener` with a call's id whenever that call's record may have changed. */
  onCallUpdated(listener: (callID: string) => void): () => void {
    return this.session.bus.subscribe("call.updated", (event) => listener(event.callID));
  }

  /** Calls `listener` whenever a permission prompt is asked or answered. */
  onPromptsChanged(listener: () => void): () => void {
    const offs = [this.session.bus.subscribe("permission.asked", listener), this.session.bus.subscribe("permission.replied", listener)];
    return () => offs.forEach((off) => off());
  }

  /**
   * A truncated call's saved full output, for the person at the page. Only files inside the data folder
   * can be read this way (the path comes from a tool's text, which a model or a plugin could have shaped).
   */
  async readSavedOutput(path: string): Promise<SavedOutput> {
    const wanted = normalize(path);
    if (!path.startsWith("/") || !within(wanted, DATA_DIR)) {
      throw new Error(`Only saved outputs under ${DATA_DIR} can be opened here; ${JSON.stringify(path)} is not one. Open other files from the file tree.`);
    }
    const fs = this.session.runtime.fs;
    const gone = () => new Error(`The saved output ${wanted} no longer exists (saved outputs are removed after 7 days). Run the call again to see its output.`);
    // A symlink inside the folder must not lead out of it.
    const real = await fs.realpath(wanted).catch(() => {
      throw gone();
    });
    const realDir = await fs.realpath(DATA_DIR).catch(() => DATA_DIR);
    if (!within(real, realDir)) throw new Error(`${wanted} leads outside ${DATA_DIR} (${real}); only saved outputs can be opened here.`);
    const stat = await fs.stat(real).catch(() => {
      throw gone();
    });
    if (stat.type !== "file") throw new Error(`${wanted} is a ${stat.type}, not a saved output file.`);
    const complete = stat.size <= SAVED_OUTPUT_VIEW_BYTES;
    const bytes = complete ? await fs.readFile(real) : await fs.read(real, { position: 0, length: SAVED_OUTPUT_VIEW_BYTES });
    return { path: wanted, text: new TextDecoder().decode(bytes), size: stat.size, complete };
  }

  pending(): PermissionRequest[] {
    return this.session.permissions.pending();
  }

  reply(requestID: string, reply: PermissionReply, message?: string): boolean {
    return this.session.permissions.reply(requestID, reply, message === "" ? undefined : message);
  }
}
