/**
 * The page's tool session: one ToolSession on the workspace's active runtime, with what a person at
 * the page needs on top of it: the tools with their schemas, a way to start a call and abort it later,
 * and the pending permission prompts with their replies. The UI reaches tools only through this.
 */
import type { z } from "zod";
import type { Runtime } from "../runtime/types.js";
import { builtinTools } from "../tools/builtins.js";
import type { PermissionRequest } from "../tools/permission/types.js";
import type { SessionRecord, ToolCall } from "./calls.js";
import type { SessionStore } from "./session-store.js";
import { ToolSession } from "./tool-session.js";

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
  /** Where the session is saved as its calls change; nowhere when absent. */
  store?: SessionStore;
  /** A saved session to continue. */
  session?: SessionRecord;
}

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
    private readonly store: SessionStore | undefined,
  ) {
    this.unsubscribe = store ? this.onChange(() => this.scheduleSave()) : () => {};
  }

  static async open(runtime: Runtime, options: PageToolsOptions = {}): Promise<PageTools> {
    const session = await ToolSession.open({
      runtime,
      // Outside the workspace, so saved full outputs never show up among the user's files.
      dataDir: "/data",
      home: "/home/user",
      builtins: builtinTools,
      // The workspace's own code (custom tools, plugins) runs only once the user trusts it: not yet in this UI.
      trusted: false,
      flags: { client: "web" },
      store: options.store,
      session: options.session,
    });
    return new PageTools(session, options.store);
  }

  get record(): SessionRecord {
    return this.session.session;
  }

  get calls(): readonly ToolCall[] {
    return this.session.session.calls;
  }

  /** Whether a call of this session is still pending or running. */
  get busy(): boolean {
    return this.calls.some((call) => call.status === "pending" || call.status === "running");
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

  /**
   * Aborts what still runs and stops saving in between: the session is deleted, or reopened on another
   * runtime. Resolves once the aborted calls have ended (and the runner has saved their end).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
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

  pending(): PermissionRequest[] {
    return this.session.permissions.pending();
  }

  reply(requestID: string, reply: PermissionReply, message?: string): boolean {
    return this.session.permissions.reply(requestID, reply, message === "" ? undefined : message);
  }
}
