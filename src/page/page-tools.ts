/**
 * The page's tool session: one ToolSession on the workspace's active runtime, with what a person at
 * the page needs on top of it. The UI reaches tools only through this. Each concern lives in its own
 * module under ./page/ (the tools list, starting and aborting calls, prompts, saved outputs, config
 * rules, live saving); this class puts them together and owns reopening, which touches them all.
 */
import { deferredCheckpoints } from "./workspace-checkpoints.js";
import type { JobInfo } from "../tools/jobs/background-jobs.js";
import type { Runtime } from "../runtime/types.js";
import { builtinTools } from "../tools/builtins.js";
import type { Explanation, RuleLayer } from "../tools/permission/evaluate.js";
import type { PermissionRequest } from "../tools/permission/types.js";
import type { SessionRecord, ToolCall } from "../session/record/session-record.js";
import { CallControl } from "./call-control.js";
import { readConfigRules, saveAlwaysToConfig, writeConfigRules } from "./config-rules.js";
import { SaveScheduler } from "../session/record/save-scheduler.js";
import { onPromptsChanged, pendingPrompts, replyToPrompt, type PermissionReply } from "./prompts.js";
import { DATA_DIR, readSavedOutput, type SavedOutput } from "./saved-output.js";
import { listTools, type ToolEntry } from "./tool-list.js";
import type { SessionStore } from "../session/record/session-store.js";
import type { McpServerView } from "../session/host/mcp/manager.js";
import { languageServiceFor } from "../workspace/language-service.js";
import { previewFor } from "../workspace/preview/preview-host.js";
import { ToolSession } from "../session/host/tool-session.js";
import { pageWebAccess } from "./web/page-web.js";
import { proxyInForce } from "./web/proxy-setting.js";
import type { ConfigRule } from "../session/config/workspace-config.js";
import { sandboxedWorkspaceCode } from "./workspace-code.js";
import type { OpenCodeSandbox } from "../tools/custom/sandbox/client.js";

export type { PermissionReply } from "./prompts.js";
export { DATA_DIR, type SavedOutput } from "./saved-output.js";
export type { ToolEntry } from "./tool-list.js";

export interface PageToolsOptions {
  /** Whether the workspace's own code (custom tools, plugins) may run; the user decides, so off by default. */
  trusted?: boolean;
  /** Where the session is saved as its calls change; nowhere when absent. */
  store?: SessionStore;
  /** A saved session to continue. */
  session?: SessionRecord;
  /**
   * Whether the person's own fetch proxy (Settings) may carry this session's fetches; true unless the page
   * is an embed's frame, whose calls a host page starts and reads.
   */
  ownProxy?: boolean;
  /** Where a trusted workspace's custom tools and plugins run: the page's sandbox frame unless given (tests). */
  codeSandbox?: OpenCodeSandbox;
}

const BUSY = "A call is still running or waiting for permission: let it finish (or abort it), then";

/** How often a session with a running call is saved, at most (each call is also saved as it starts and ends). */
const LIVE_SAVE_INTERVAL_MS = 1000;

export class PageTools {
  private readonly control: CallControl;
  private readonly liveSave: SaveScheduler;
  private closed = false;
  private readonly unsubscribe: () => void;
  /** Ends the sandbox running the workspace's custom tools and plugins. */
  private endCode: () => void = () => {};
  private codeSandbox: OpenCodeSandbox | undefined;

  private constructor(
    readonly session: ToolSession,
    readonly trusted: boolean,
    private readonly store: SessionStore | undefined,
    private readonly ownProxy: boolean,
  ) {
    this.control = new CallControl(session, () =>
      this.closed
        ? `the session "${this.record.title}" was closed (deleted, or reopened on another runtime): run the call in the current session`
        : undefined,
    );
    this.liveSave = new SaveScheduler(store, () => this.record, LIVE_SAVE_INTERVAL_MS);
    this.unsubscribe = store ? this.onChange(() => this.liveSave.touch()) : () => {};
  }

  static open(runtime: Runtime, options: PageToolsOptions = {}): Promise<PageTools> {
    return PageTools.openOn(runtime, {
      trusted: options.trusted ?? false,
      store: options.store,
      session: options.session,
      ownProxy: options.ownProxy ?? true,
      ...(options.codeSandbox ? { codeSandbox: options.codeSandbox } : {}),
    });
  }

  /** `carried`: the page being replaced, whose transcript and listeners (bus) the new one continues. */
  private static async openOn(
    runtime: Runtime,
    options: { trusted: boolean; store?: SessionStore; session?: SessionRecord; ownProxy: boolean; codeSandbox?: OpenCodeSandbox },
    carried?: PageTools,
  ): Promise<PageTools> {
    const { trusted, store, ownProxy } = options;
    // The config is read by ToolSession.open; the proxy is looked up per request, so it is read late.
    let configured: unknown;
    const web = pageWebAccess({
      proxy: () => proxyInForce(configured, trusted, ownProxy),
      heldProxy: () => (!trusted && typeof configured === "string" && configured.trim() ? configured.trim() : undefined),
    });
    // The embedded shell's npm fetches through the same proxy as webfetch (runtime/embedded/npm/page-fetch.ts).
    // Named by shape (EmbeddedRuntime.setFetchProxy): the page does not import a backend.
    const embedded = runtime as { setFetchProxy?: (source: () => string | undefined) => void };
    if (runtime.kind === "embedded" && typeof embedded.setFetchProxy === "function")
      embedded.setFetchProxy(() => proxyInForce(configured, trusted, ownProxy)?.template);
    // The workspace's own code runs in the sandbox frame, apart from this origin's storage and keys.
    const code = sandboxedWorkspaceCode(options.codeSandbox);
    const session = await ToolSession.open({
      web,
      runtime,
      // Outside the workspace, so saved full outputs never show up among the user's files.
      dataDir: DATA_DIR,
      home: "/home/user",
      builtins: builtinTools,
      trusted,
      workspaceCode: code.load,
      flags: { client: "web" },
      languageService: languageServiceFor(runtime),
      // The preview's frame is made on the first call, so a session that never previews makes none.
      preview: { inspect: (path, waitMs, signal) => previewFor(runtime).inspect(path, waitMs, signal) },
      bus: carried?.session.bus,
      session: carried?.session.session ?? options.session,
      // A reopen keeps what the model has read: its next edit of a file it just read must not be refused.
      fileTime: carried?.session.fileTime,
      store,
      checkpoints: deferredCheckpoints(runtime),
    });
    configured = session.config.workbench?.fetchProxy;
    const page = new PageTools(session, trusted, store, ownProxy);
    page.endCode = () => code.dispose();
    page.codeSandbox = options.codeSandbox;
    return page;
  }

  get record(): SessionRecord {
    return this.session.session;
  }

  /** Where this session is saved (the chat saves its messages there too); undefined when nowhere. */
  get sessionStore(): SessionStore | undefined {
    return this.store;
  }

  get calls(): readonly ToolCall[] {
    return this.session.session.calls;
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
  reopen(options: PageToolsOptions = {}): Promise<PageTools> {
    const trusted = options.trusted ?? this.trusted;
    // Two asks at once (Settings saved the file the page's config watch saw change) get the one new page,
    // so the session is never continued by two pages.
    if (this.reopening?.trusted === trusted) return this.reopening.next;
    const next = this.reopenNow(trusted);
    this.reopening = { trusted, next };
    next.catch(() => {
      if (this.reopening?.next === next) this.reopening = undefined;
    });
    return next;
  }

  private reopening: { trusted: boolean; next: Promise<PageTools> } | undefined;

  private async reopenNow(trusted: boolean): Promise<PageTools> {
    if (this.busy()) throw new Error(`${BUSY} try again.`);
    const next = await PageTools.openOn(
      this.session.runtime,
      {
        trusted,
        store: this.store,
        ownProxy: this.ownProxy,
        ...(this.codeSandbox ? { codeSandbox: this.codeSandbox } : {}),
      },
      this,
    );
    // The new page saves the record from now on; this one, on the same bus, must stop.
    this.retire();
    next.session.permissions.loadApprovals(this.session.permissions.approved.map((rule) => ({ ...rule })));
    next.control.carryAbortedFrom(this.control);
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

  /** The workspace config's own rules as the file holds them now, and whether they are V1's map or V2's list. */
  configRules(): Promise<{ path?: string; rules: ConfigRule[]; shape: "v1" | "v2" }> {
    return readConfigRules(this.session.runtime);
  }

  /** Writes `rules` as the config's `permission` section, then reopens so they are in force. */
  async saveRules(rules: readonly ConfigRule[]): Promise<{ path: string; page: PageTools }> {
    if (this.busy()) throw new Error(`${BUSY} save.`);
    const path = await writeConfigRules(this.session.runtime, rules);
    return { path, page: await this.reopen() };
  }

  /** Writes the patterns an "always" answer remembers into the workspace config, so they outlive the session. */
  saveAlways(request: Pick<PermissionRequest, "permission" | "always">): Promise<string> {
    return saveAlwaysToConfig(this.session.runtime, request);
  }

  /** Saves the session now (the runner's own saves cover each call's start and end). */
  save(): Promise<void> {
    return this.liveSave.flush();
  }

  /** The workspace's MCP servers (opencode.json `mcp`) and how each is doing. */
  mcpServers(): McpServerView[] {
    return this.session.mcp.servers();
  }

  /** Connects a server again (after it failed or died); resolves once it has connected or failed. */
  retryMcp(name: string): Promise<void> {
    return this.session.mcp.retry(name);
  }

  /** The session's background shell jobs, oldest first. */
  jobs(): JobInfo[] {
    return this.session.jobs?.list() ?? [];
  }

  /** Calls `listener` on every change of a background job (new output, its end); returns the unsubscribe. */
  onJobsChange(listener: () => void): () => void {
    return this.session.jobs?.onChange(() => listener()) ?? (() => {});
  }

  /** A background job's output so far. */
  jobOutput(id: string): Promise<string> {
    return this.session.jobs ? this.session.jobs.output(id) : Promise.reject(new Error("this session has no background jobs"));
  }

  /** Stops a running background job; false when it was not running. */
  stopJob(id: string): Promise<boolean> {
    return this.session.jobs?.stop(id) ?? Promise.resolve(false);
  }

  /** Calls `listener` whenever an MCP server's status or tools change. */
  onMcpChange(listener: () => void): () => void {
    return this.session.mcp.onChange(listener);
  }

  private retire(): void {
    // The next page (if any) connects its own clients; these must not keep registering tools.
    void this.session.mcp.close();
    // Background jobs end with their session: nothing would report their end any more.
    void this.session.jobs?.stopAll();
    this.closed = true;
    this.unsubscribe();
    this.liveSave.stop();
    this.endCode();
  }

  /**
   * Aborts what still runs and stops saving in between: the session is deleted, or reopened on another
   * runtime. Resolves once the aborted calls have ended (and the runner has saved their end).
   */
  async close(): Promise<void> {
    this.retire();
    await this.control.abortAll();
  }

  /** Every registered tool with its description and zod parameters, in the registry's order. */
  tools(): Promise<ToolEntry[]> {
    return listTools(this.session);
  }

  /** Starts a call and returns its record at once, plus the promise of its end; `onChange` says when it changes. */
  start(tool: string, args: Record<string, unknown>): { call: ToolCall; done: Promise<ToolCall> } {
    return this.control.start(tool, args);
  }

  abort(callID: string): boolean {
    return this.control.abort(callID);
  }

  wasAborted(callID: string): boolean {
    return this.control.wasAborted(callID);
  }

  /** Calls `listener` whenever a call changes or a permission is asked or answered. */
  onChange(listener: () => void): () => void {
    const offs = [this.session.bus.subscribe("call.updated", listener), onPromptsChanged(this.session, listener)];
    return () => offs.forEach((off) => off());
  }

  /** Calls `listener` with a call's id whenever that call's record may have changed. */
  onCallUpdated(listener: (callID: string) => void): () => void {
    return this.session.bus.subscribe("call.updated", (event) => listener(event.callID));
  }

  /** Calls `listener` whenever a permission prompt is asked or answered. */
  onPromptsChanged(listener: () => void): () => void {
    return onPromptsChanged(this.session, listener);
  }

  /** A truncated call's saved full output; only files inside the data folder can be read this way. */
  readSavedOutput(path: string): Promise<SavedOutput> {
    return readSavedOutput(this.session.runtime.fs, path);
  }

  pending(): PermissionRequest[] {
    return pendingPrompts(this.session);
  }

  reply(requestID: string, reply: PermissionReply, message?: string): boolean {
    return replyToPrompt(this.session, requestID, reply, message);
  }
}
