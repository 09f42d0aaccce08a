/**
 * Runs tool calls in a session: builds each call's context, asks permissions through the engine,
 * runs plugin hooks around the tool, and keeps the call's record (state, times, live metadata,
 * permission requests) published on the bus. Nothing a tool throws escapes a call: it becomes the
 * call's error.
 */
import type { Runtime } from "../../runtime/types.js";
import type { Bus } from "../../tools/bus.js";
import type { LanguageService } from "../../tools/ports/language-service.js";
import { triggerHook } from "../../tools/custom/hooks.js";
import type { LoadedPlugin } from "../../tools/custom/loader.js";
import type { FileTime } from "../../tools/file-time.js";
import type { PermissionEngine } from "../../tools/permission/engine.js";
import { CorrectedError, DeniedError, RejectedError } from "../../tools/permission/errors.js";
import { evaluate } from "../../tools/permission/evaluate.js";
import { matchWildcard } from "../../tools/permission/wildcard.js";
import type { AskInput, Ruleset } from "../../tools/permission/types.js";
import type { ToolRegistry } from "../../tools/registry.js";
import { QuestionDismissedError, type SessionServices } from "../../tools/ports/session-services.js";
import type { WebAccess } from "../../tools/ports/web-access.js";
import type { AgentInfo, Context, TruncateResult, TruncationRequest, TruncationStream } from "../../tools/tool.js";
import type { CallPermission, SessionRecord, ToolCall } from "../record/session-record.js";
import type { SessionCheckpoints } from "./session-checkpoints.js";
import { ascendingId } from "../record/ids.js";
import type { SessionStore } from "../record/session-store.js";
import type { PreviewAccess } from "../../tools/ports/preview-access.js";
import type { BackgroundJobs } from "../../tools/jobs/background-jobs.js";
import { errorMessage } from "../../base/error-message.js";

/** How often live metadata from a running call reaches subscribers, at most. */
const METADATA_INTERVAL_MS = 100;

type Truncator = (
  text: string,
  options: { maxLines?: number; maxBytes?: number; direction?: "head" | "tail" },
  hint: { taskAvailable: boolean },
) => Promise<TruncateResult>;

type TruncationStreamFactory = (options: TruncationRequest, hint: { taskAvailable: boolean }) => TruncationStream;

export interface ToolRunnerOptions {
  runtime: Runtime;
  registry: ToolRegistry;
  permissions: PermissionEngine;
  bus: Bus;
  fileTime: FileTime;
  truncate: Truncator;
  truncationStream?: TruncationStreamFactory;
  store?: SessionStore;
  plugins?: LoadedPlugin[];
  /** How long each plugin hook may take (the custom tools' limit); none when absent. */
  hookTimeoutMs?: number;
  /** Rules that apply to this session only, after the agent's. */
  sessionRules?: Ruleset;
  /** How web tools reach the web (ctx.web). */
  web?: WebAccess;
  /** The session's background shell jobs, handed to tools as ctx.jobs (shared with its subagents). */
  jobs?: BackgroundJobs;
  /** The workspace's language service, handed to tools as ctx.lsp. */
  lsp?: LanguageService;
  /** The page's preview, handed to tools as ctx.preview; absent outside a page. */
  preview?: PreviewAccess;
  /**
   * A subagent's callers' rules, outermost first: a subagent may do no more than the agents that started
   * it (a general subagent of the plan agent may not edit what plan may not), so each request is also
   * judged by these, and the strictest answer wins.
   */
  callerRules?: Ruleset[];
  /** Marks the workspace's checkpoints around each call. */
  checkpoints?: SessionCheckpoints;
  /** Rules laid over every call for a while (guard()); shared with the runner's children. */
  guards?: Set<Ruleset>;
}

export interface RunOptions {
  signal?: AbortSignal;
  messageID?: string;
  extra?: Record<string, unknown>;
  /** The call's id, chosen by the caller (the loop names the call in its tool part before it runs). */
  callID?: string;
  /** Permissions to ask before the tool runs (the loop's doom_loop check), recorded on the call like the tool's own. */
  ask?: AskInput[];
  /**
   * Set when the call may not run at all (batch naming a tool its agent's rules deny outright): the call
   * still gets its card, failing with this reason, recorded as a denied permission. No approval lifts it.
   */
  refuse?: { permission: string; reason: string };
  /** The session services for this call (the loop provides them; calls run by hand have none). */
  services?: (call: ToolCall, signal: AbortSignal) => SessionServices;
}

function messageOf(error: unknown): string {
  return errorMessage(error);
}

export class ToolRunner {
  private readonly guards: Set<Ruleset>;

  constructor(private readonly options: ToolRunnerOptions) {
    this.guards = options.guards ?? new Set();
  }

  /**
   * Lays `rules` over every call of this session and its subagents until the returned function is called
   * (a replay of a shared session asks before each network call). They are judged as a caller's rules
   * are: they can make a call ask or refuse it, never allow what the session's own rules do not.
   */
  guard(rules: Ruleset): () => void {
    this.guards.add(rules);
    return () => void this.guards.delete(rules);
  }

  /** The session's background jobs, when it has any. */
  get jobs(): BackgroundJobs | undefined {
    return this.options.jobs;
  }

  /** The same runner with some options replaced (a child session's rules and store). */
  withOptions(changes: Partial<ToolRunnerOptions>): ToolRunner {
    return new ToolRunner({ ...this.options, guards: this.guards, ...changes });
  }

  /** The workspace's checkpoints this runner marks, if any (the chat marks each user message there too). */
  get checkpoints(): SessionCheckpoints | undefined {
    return this.options.checkpoints;
  }

  /** The rules of the agents that started this session, outermost first (none for a top-level session). */
  get callerRules(): readonly Ruleset[] {
    return this.options.callerRules ?? [];
  }

  /**
   * The ruleset the engine judges a request by: the session's own, unless a caller's rules deny one of the
   * patterns (then DeniedError) or ask where the own rules allow (then an ask for that pattern is added).
   */
  private withCallers(input: AskInput, ruleset: Ruleset): Ruleset {
    const callers = this.options.callerRules ?? [];
    if (callers.length === 0 && this.guards.size === 0) return ruleset;
    const approved: Ruleset = [...this.options.permissions.approved];
    const added: Ruleset = [];
    for (const pattern of input.patterns) {
      const own = evaluate(input.permission, pattern, ruleset, approved).action;
      if (own === "deny") continue;
      // A guard speaks only for the permissions it names; a caller's rules speak for all (no rule: ask).
      const guards = [...this.guards].filter((rules) => evaluate(input.permission, pattern, rules).rule !== undefined);
      for (const rules of [...callers, ...guards]) {
        const theirs = evaluate(input.permission, pattern, rules, approved).action;
        if (theirs === "deny") throw new DeniedError(rules.filter((rule) => matchWildcard(input.permission, rule.permission)));
        if (theirs === "ask" && own === "allow") added.push({ permission: input.permission, pattern, action: "ask", source: "session" });
      }
    }
    return added.length === 0 ? ruleset : [...ruleset, ...added];
  }

  private publish(call: ToolCall): void {
    this.options.bus.publish("call.updated", { sessionID: call.sessionID, callID: call.id });
  }

  private async persist(session: SessionRecord): Promise<void> {
    await this.options.store?.save(session).catch((error: unknown) => console.error("could not save the session:", error));
  }

  /** Runs one call to completion (or error) and returns its final record. */
  async run(
    session: SessionRecord,
    agent: AgentInfo,
    toolID: string,
    input: Record<string, unknown>,
    runOptions: RunOptions = {},
  ): Promise<ToolCall> {
    const { registry, runtime, bus } = this.options;
    let tool = registry.get(toolID);
    let args: Record<string, unknown> = input;
    let name = toolID;
    if (!tool || toolID === "invalid") {
      // A call to a tool that does not exist goes to `invalid`, which tells the model what does.
      const available = registry.ids().filter((id) => id !== "invalid");
      name = "invalid";
      args = toolID === "invalid" ? input : { tool: toolID, error: `Unknown tool "${toolID}". Available tools: ${available.join(", ")}.` };
      tool = registry.get("invalid");
    }
    const call: ToolCall = {
      id: runOptions.callID ?? ascendingId("call"),
      sessionID: session.id,
      messageID: runOptions.messageID ?? ascendingId("msg"),
      tool: name,
      input: args,
      status: "pending",
      title: "",
      metadata: {},
      permissions: [],
      time: { created: Date.now() },
    };
    session.calls.push(call);
    this.publish(call);
    await this.persist(session);

    const controller = new AbortController();
    const onAbort = () => controller.abort(runOptions.signal?.reason);
    if (runOptions.signal?.aborted) controller.abort(runOptions.signal.reason);
    runOptions.signal?.addEventListener("abort", onAbort, { once: true });

    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      flushTimer = undefined;
      this.publish(call);
    };
    const ruleset: Ruleset = [...agent.permission, ...(this.options.sessionRules ?? [])];
    const taskAvailable = evaluate("task", "*", agent.permission).action !== "deny";
    const services = runOptions.services?.(call, controller.signal);

    const ctx: Context = {
      sessionID: session.id,
      messageID: call.messageID,
      agent: agent.name,
      abort: controller.signal,
      callID: call.id,
      extra: runOptions.extra,
      runtime,
      directory: runtime.root,
      worktree: runtime.root,
      fileTime: this.options.fileTime,
      bus,
      metadata: (update) => {
        if (call.status !== "running") return;
        if (update.title !== undefined) call.title = update.title;
        if (update.metadata !== undefined) call.metadata = { ...update.metadata };
        flushTimer ??= setTimeout(flush, METADATA_INTERVAL_MS);
      },
      ask: (request, options) =>
        this.ask(call, request, ruleset, options?.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal),
      truncate: (text, options = {}) => this.options.truncate(text, options, { taskAvailable }),
      ...(this.options.web ? { web: this.options.web } : {}),
      ...(this.options.lsp ? { lsp: this.options.lsp } : {}),
      ...(this.options.jobs ? { jobs: this.options.jobs } : {}),
      ...(this.options.preview ? { preview: this.options.preview } : {}),
      ...(this.options.truncationStream
        ? { truncationStream: (options = {}) => this.options.truncationStream!(options, { taskAvailable }) }
        : {}),
      ...(services ? { session: services } : {}),
    };

    /** Set once the call's starting checkpoint is taken: a call refused before it ran changed nothing. */
    let checkpointed = false;
    try {
      if (!tool) throw new Error(`the tool "${toolID}" does not exist and no invalid tool is registered`);
      if (runOptions.refuse) {
        call.permissions.push({ permission: runOptions.refuse.permission, patterns: ["*"], always: [], answer: "deny" });
        throw new Error(runOptions.refuse.reason);
      }
      const initialized = await tool.init({ agent, ...(services ? { session: services } : {}) });
      call.status = "running";
      call.time.start = Date.now();
      this.publish(call);
      await this.options.checkpoints?.beforeCall(call);
      checkpointed = true;
      const hookInput = { tool: name, sessionID: session.id, callID: call.id };
      const before = { args };
      await triggerHook(
        this.options.plugins ?? [],
        "tool.execute.before",
        hookInput,
        before,
        this.options.hookTimeoutMs,
        controller.signal,
      );
      if (controller.signal.aborted) throw new Error("The call was aborted before it started.");
      for (const request of runOptions.ask ?? []) await ctx.ask(request);
      const result = await initialized.execute(before.args, ctx);
      const after = { title: result.title, output: result.output, metadata: result.metadata as Record<string, unknown> };
      await triggerHook(
        this.options.plugins ?? [],
        "tool.execute.after",
        { ...hookInput, args: before.args },
        after,
        this.options.hookTimeoutMs,
        controller.signal,
      );
      call.status = "completed";
      call.title = after.title;
      call.output = after.output;
      call.metadata = after.metadata;
      if (result.attachments?.length) call.attachments = result.attachments;
    } catch (error) {
      call.status = "error";
      call.error = messageOf(error);
      // A declined question (or a "No" to plan_enter/plan_exit) is the person saying stop, like a rejected permission.
      if (error instanceof QuestionDismissedError) {
        const asked = call.permissions.findLast((permission) => permission.permission === "question");
        if (asked) asked.answer = "reject";
        else call.permissions.push({ permission: "question", patterns: [], always: [], answer: "reject" });
      }
    } finally {
      runOptions.signal?.removeEventListener("abort", onAbort);
      clearTimeout(flushTimer);
      call.time.end = Date.now();
      call.time.start ??= call.time.end;
    }
    if (checkpointed) await this.options.checkpoints?.afterCall(call);
    this.publish(call);
    await this.persist(session);
    bus.publish("call.updated", { sessionID: session.id, callID: call.id });
    return call;
  }

  /** ctx.ask: the engine decides; the call records what was asked and how it was settled. */
  private async ask(call: ToolCall, input: AskInput, ruleset: Ruleset, signal: AbortSignal): Promise<void> {
    const record: CallPermission = {
      permission: input.permission,
      patterns: [...input.patterns],
      always: [...input.always],
      answer: "pending",
    };
    call.permissions.push(record);
    let requestID: string | undefined;
    const unsubscribeAsked = this.options.bus.subscribe("permission.asked", (request) => {
      if (request.tool?.callID === call.id && request.permission === input.permission && requestID === undefined) requestID = request.id;
    });
    const unsubscribeReplied = this.options.bus.subscribe("permission.replied", (reply) => {
      if (reply.requestID !== requestID) return;
      record.answer = reply.reply;
      if (reply.message) record.message = reply.message;
    });
    let asking: Promise<void>;
    try {
      asking = this.options.permissions.ask(
        { ...input, sessionID: call.sessionID, tool: { messageID: call.messageID, callID: call.id } },
        this.withCallers(input, ruleset),
      );
    } catch (error) {
      asking = Promise.reject(error);
    }
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(new Error("The call was aborted while waiting for permission."));
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    });
    try {
      await Promise.race([asking, aborted]);
      if (record.answer === "pending") record.answer = "allow";
    } catch (error) {
      // The error says how it was settled even when the reply came before we knew the request's id.
      if (error instanceof CorrectedError) {
        record.answer = "reject";
        record.message = error.feedback;
      } else if (error instanceof RejectedError && record.answer === "pending") record.answer = "reject";
      if (record.answer === "pending") record.answer = requestID ? "reject" : "deny";
      // Only this call's prompt goes; the session's other prompts stay for the user to answer.
      if (requestID && signal.aborted) this.options.permissions.cancel(requestID);
      throw error;
    } finally {
      unsubscribeAsked();
      unsubscribeReplied();
    }
  }
}
