/**
 * The agent loop, OpenCode's own outer loop rather than the AI SDK's multi-step one: each pass is one
 * model step (one `streamText` call, no retries inside the SDK, tools without `execute`), written into a
 * new assistant message as it streams; the step's tool calls run through the runner, concurrently; then
 * the loop decides whether to go on. It ends when the model stops calling tools, the person stops it or
 * rejects a permission, the agent's step limit is reached, or the provider fails for good.
 *
 * Provider errors: retryable ones wait (the status says until when) and try again; a context overflow
 * compacts the session and carries on; anything else is set on the assistant message and ends the run.
 */
import { streamText, type ModelMessage } from "ai";
import type { ChatStatus, LoopEnd } from "./loop-state.js";
import type { Agent } from "../agent/types.js";
import { compact, defaultPruneOptions, isOverflow, prune, usableContext, type PruneOptions } from "./compaction.js";
import { newAssistantMessage } from "../record/new-message.js";
import { PLAN_REMINDER } from "../agent/builtins.js";
import { MAX_STEPS_NOTICE } from "./max-steps.js";
import { type AssistantMessage, type Message, type MessageError, type ModelRef, type UserMessage } from "../record/message.js";
import { modelTools, repairToolCall } from "./model-tools.js";
import { processStream } from "./process-stream.js";
import { classifyProviderError, type ClassifiedError } from "../provider/errors.js";
import { gaveUpHint, RETRY_MAX_WAIT_MS, retryDelayMs, retryLimit, TIMER_MAX_MS } from "../provider/retry.js";
import type { ModelInfo, ResolvedModel } from "../provider/types.js";
import { subagentsFor } from "../host/call-services.js";
import { sessionServices, type LoopHost } from "./loop-services.js";
import { StepTools } from "./step-tools.js";
import { contextTokens, StepWriter } from "./step-writer.js";
import { toModelMessages } from "./to-model-messages.js";
import { jobNoticeMessage } from "./job-notices.js";
import type { ToolSession } from "../host/tool-session.js";

export interface LoopOptions {
  tools: ToolSession;
  agent: Agent;
  model: ResolvedModel;
  /** The system prompt, in parts (provider or agent prompt, environment, instructions). */
  system: string[];
  /** Stops the stream and every running tool. */
  signal: AbortSignal;
  /** A message, a part or a call changed (every text delta included). */
  changed(): void;
  status(status: ChatStatus): void;
  /** A message ended: it must reach storage. */
  ended?(): Promise<void>;
  /** The compaction agent (its prompt and temperature write summaries). */
  compactionAgent?: Agent;
  prune?: PruneOptions;
  /** Injected in tests; the provider layer's classifier and backoff otherwise. */
  classify?: (error: unknown) => ClassifiedError;
  retryDelay?: (attempt: number, error: ClassifiedError) => number;
  /** Most retries of one step (each waits longer). */
  maxRetries?: number;
  /**
   * The system prompt for another agent (a subagent, or the agent plan_enter/plan_exit switch to); the
   * agent's own prompt, else this run's, when absent.
   */
  systemFor?(agent: Agent, model: ModelInfo): Promise<string[]>;
  /** A subagent's own model (agents may name one); the run's model is used when absent. */
  resolveModel?(ref: ModelRef): Promise<ResolvedModel>;
}

const ABORTED: MessageError = { kind: "aborted", message: "Stopped." };

function lastOf<T extends Message["role"]>(messages: readonly Message[], role: T): Extract<Message, { role: T }> | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === role) return messages[i] as Extract<Message, { role: T }>;
  return undefined;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    // Longer than setTimeout holds would fire at once; the loop never asks for that, but a guard costs nothing.
    const timer = setTimeout(done, Math.min(Math.max(0, ms), TIMER_MAX_MS));
    signal.addEventListener("abort", done, { once: true });
  });
}

export async function runLoop(options: LoopOptions): Promise<LoopEnd> {
  return new Loop(options).run();
}

class Loop {
  private readonly classify: (error: unknown) => ClassifiedError;
  private readonly retryDelay: (attempt: number, error: ClassifiedError) => number;
  /** The agent in charge: plan_enter and plan_exit hand the session to another one mid-run. */
  private agent: Agent;
  private system: string[];
  /** Messages before this run; a user message after them may switch the agent. */
  private readonly startCount: number;

  constructor(private readonly o: LoopOptions) {
    this.classify = o.classify ?? classifyProviderError;
    this.retryDelay = o.retryDelay ?? retryDelayMs;
    this.agent = o.agent;
    this.system = o.system;
    this.startCount = o.tools.session.messages.length;
  }

  private systemFor(agent: Agent, model: ModelInfo): Promise<string[]> {
    if (this.o.systemFor) return this.o.systemFor(agent, model);
    return Promise.resolve(agent.prompt ? [agent.prompt] : this.o.system);
  }

  /** What the calls' session services borrow from this run. */
  private host(): LoopHost {
    return {
      tools: this.o.tools,
      agent: this.agent,
      model: this.o.model,
      systemFor: (agent, model) => this.systemFor(agent, model),
      ...(this.o.resolveModel ? { resolveModel: this.o.resolveModel } : {}),
      changed: this.o.changed,
      ...(this.o.ended ? { ended: this.o.ended } : {}),
      runChild: (child) =>
        runLoop({
          ...child,
          changed: this.o.changed,
          // The child's status is its task card's business; the parent stays busy meanwhile.
          status: () => undefined,
          ...(this.o.ended ? { ended: this.o.ended } : {}),
          ...(this.o.compactionAgent ? { compactionAgent: this.o.compactionAgent } : {}),
          ...(this.o.prune ? { prune: this.o.prune } : {}),
          ...(this.o.classify ? { classify: this.o.classify } : {}),
          ...(this.o.retryDelay ? { retryDelay: this.o.retryDelay } : {}),
          ...(this.o.maxRetries !== undefined ? { maxRetries: this.o.maxRetries } : {}),
          ...(this.o.systemFor ? { systemFor: this.o.systemFor } : {}),
          ...(this.o.resolveModel ? { resolveModel: this.o.resolveModel } : {}),
        }),
    };
  }

  /** A user message written during this run (plan_enter, plan_exit) for another agent hands the run to it. */
  private async followAgentSwitch(): Promise<void> {
    const messages = this.session.messages;
    const user = lastOf(messages, "user");
    if (!user || messages.indexOf(user) < this.startCount || user.agent === this.agent.name) return;
    const next = this.o.tools.agents.find((agent) => agent.name === user.agent);
    if (!next) return;
    this.agent = next;
    this.system = await this.systemFor(next, this.o.model.info);
  }

  private get session() {
    return this.o.tools.session;
  }

  async run(): Promise<LoopEnd> {
    let step = 0;
    let overflowCompacted = false;
    while (true) {
      if (this.o.signal.aborted) return "aborted";
      await this.followAgentSwitch();
      const maxSteps = this.agent.steps ?? Infinity;
      await this.compactIfNeeded();
      this.deliverJobNotices();
      step++;
      this.o.status({ type: "busy", step });
      const message = this.newAssistant();
      const result = await this.stepWithRetries(message, step, step >= maxSteps);
      if (result === "overflow" && !overflowCompacted) {
        // The provider said the prompt is too long: compact once, then take this step again from the summary.
        this.session.messages.splice(this.session.messages.indexOf(message), 1);
        this.o.changed();
        if (!(await this.summarize())) return "error";
        overflowCompacted = true;
        step--;
        continue;
      }
      message.time.completed = Date.now();
      this.o.changed();
      await this.o.ended?.();
      if (result === "overflow") return "error";
      overflowCompacted = false;
      if (result !== "ok") return result;
      if (message.finish !== "tool-calls") return "done";
      if (step >= maxSteps) return "max-steps";
    }
  }

  /** Background jobs that ended since the last step are told to the model now, before it answers. */
  private deliverJobNotices(): void {
    const ended = this.o.tools.jobs?.takeEnded() ?? [];
    if (ended.length === 0) return;
    const { providerID, modelID } = this.o.model.info;
    this.session.messages.push(jobNoticeMessage(this.session.id, this.agent.name, { providerID, modelID }, ended));
    this.o.changed();
  }

  private newAssistant(): AssistantMessage {
    const user = lastOf(this.session.messages, "user");
    const message = newAssistantMessage({
      sessionID: this.session.id,
      parentID: user?.id ?? "",
      agent: this.agent.name,
      model: { providerID: this.o.model.info.providerID, modelID: this.o.model.info.modelID },
    });
    this.session.messages.push(message);
    this.o.changed();
    return message;
  }

  /** One step, tried again while the provider's error is retryable. */
  private async stepWithRetries(
    message: AssistantMessage,
    step: number,
    last: boolean,
  ): Promise<"ok" | "blocked" | "aborted" | "error" | "overflow"> {
    const writer = new StepWriter(message, this.o.model.info, this.o.changed);
    for (let attempt = 1; ; attempt++) {
      try {
        const { blocked } = await this.step(writer, last);
        if (this.o.signal.aborted) throw new DOMException("The run was stopped.", "AbortError");
        return blocked ? "blocked" : "ok";
      } catch (error) {
        if (this.o.signal.aborted) {
          message.error = ABORTED;
          return "aborted";
        }
        const classified = this.classify(error);
        if (classified.contextOverflow) {
          message.error = errorOf(classified);
          return "overflow";
        }
        const maxRetries = retryLimit(classified, this.o.maxRetries ?? 10);
        if (classified.retryable && attempt > maxRetries) {
          message.error = { ...errorOf(classified), hint: gaveUpHint({ attempts: attempt }) };
          return "error";
        }
        if (classified.retryable) {
          const delay = this.retryDelay(attempt, classified);
          if (!(delay <= RETRY_MAX_WAIT_MS)) {
            message.error = { ...errorOf(classified), hint: gaveUpHint({ tooLong: delay }) };
            return "error";
          }
          this.o.status({ type: "retry", attempt, next: Date.now() + delay, message: classified.message });
          await wait(delay, this.o.signal);
          if (this.o.signal.aborted) {
            // Stopped while waiting to retry: the transcript keeps what was failing, not only "Stopped".
            message.error = {
              ...ABORTED,
              message: `Stopped retrying after ${attempt} failed ${attempt === 1 ? "attempt" : "attempts"}: ${classified.message}`,
            };
            return "aborted";
          }
          this.o.status({ type: "busy", step });
          writer.reset();
          continue;
        }
        message.error = errorOf(classified);
        return "error";
      }
    }
  }

  private async step(writer: StepWriter, last: boolean): Promise<{ blocked: boolean }> {
    const { model, signal } = this.o;
    const agent = this.agent;
    const ref = { providerID: model.info.providerID, modelID: model.info.modelID };
    // A model that takes no tools is offered none (an empty set; calls it makes anyway go to `invalid`).
    const { tools, active } =
      model.toolCall === false
        ? { tools: {}, active: [] }
        : await modelTools(this.o.tools.registry, ref, agent, {
            subagents: () => subagentsFor(this.o.tools.agents, agent),
            skills: () => this.o.tools.skills,
          });
    const messages: ModelMessage[] = toModelMessages(this.session.messages, this.session.calls, { attachments: model.info.attachment });
    // OpenCode still offers the tools on the last step; only this notice asks the model not to use them.
    if (last) messages.push({ role: "assistant", content: MAX_STEPS_NOTICE });
    // As in OpenCode, the plan agent's every request reminds it that it may only look and plan: its rules
    // already deny edits, but a model that knows it will not try them.
    if (agent.name === "plan") remindLastUser(messages, PLAN_REMINDER);
    const host = this.host();
    const stepTools = new StepTools(this.o.tools, agent, writer, signal, active, (call, callSignal) =>
      sessionServices(host, call, callSignal),
    );
    const result = streamText({
      model: model.language,
      instructions: this.system.map((content) => ({ role: "system" as const, content })),
      messages,
      tools,
      activeTools: active,
      maxRetries: 0,
      // The stream's error part reaches us; the SDK's default handler would only log it again.
      onError: () => undefined,
      abortSignal: signal,
      repairToolCall,
      ...(agent.temperature !== undefined && model.temperature !== false ? { temperature: agent.temperature } : {}),
      ...(agent.topP !== undefined ? { topP: agent.topP } : {}),
      ...providerOptionsOf(model, agent),
    });
    let failure: { error: unknown } | undefined;
    try {
      await processStream(result.stream, writer, stepTools);
    } catch (error) {
      failure = { error };
    }
    // Calls already started finish (or are aborted) before the step is over, even when the stream failed.
    const settled = await stepTools.settle();
    if (failure) throw failure.error;
    return settled;
  }

  /** Prunes, then summarises, when the last step came near the model's window. */
  private async compactIfNeeded(): Promise<void> {
    const last = lastOf(this.session.messages, "assistant");
    if (!last || last.summary || last.error || !isOverflow(last.tokens, this.o.model.info)) return;
    const freed = prune(this.session, this.o.prune ?? defaultPruneOptions);
    this.o.changed();
    if (contextTokens(last.tokens) - freed > (usableContext(this.o.model.info) ?? Infinity)) await this.summarize();
  }

  /** Writes a summary; false when the provider failed (the error is on the summary message). */
  private async summarize(): Promise<boolean> {
    const agent = this.o.compactionAgent;
    const user = lastOf(this.session.messages, "user") as UserMessage | undefined;
    this.o.status({ type: "busy", step: 0 });
    try {
      await compact({
        session: this.session,
        model: this.o.model,
        system: agent?.prompt ? [agent.prompt] : this.system,
        agent: user?.agent ?? this.agent.name,
        ...(agent?.temperature !== undefined && this.o.model.temperature !== false ? { temperature: agent.temperature } : {}),
        signal: this.o.signal,
        changed: this.o.changed,
        auto: true,
      });
      await this.o.ended?.();
      return true;
    } catch (error) {
      const summary = lastOf(this.session.messages, "assistant");
      if (summary?.summary) summary.error = this.o.signal.aborted ? ABORTED : errorOf(this.classify(error));
      this.o.changed();
      await this.o.ended?.();
      return false;
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `over` on top of `under`, objects merged key by key (OpenCode merges model and agent options deeply). */
function mergeOptions(under: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    merged[key] = isPlainObject(below) && isPlainObject(value) ? mergeOptions(below, value) : value;
  }
  return merged;
}

/**
 * The model's configured options with the agent's over them, under the key the provider package reads
 * (its own name for the bundled packages, so a custom provider id on @ai-sdk/openai still gets them).
 */
function providerOptionsOf(model: ResolvedModel, agent: Agent): { providerOptions?: Record<string, Record<string, never>> } {
  const options = mergeOptions(model.options ?? {}, agent.options);
  if (Object.keys(options).length === 0) return {};
  return { providerOptions: { [model.providerOptionsKey ?? model.info.providerID]: options as Record<string, never> } };
}

function errorOf(classified: ClassifiedError): MessageError {
  return {
    kind: classified.kind,
    message: classified.message,
    ...(classified.hint !== undefined ? { hint: classified.hint } : {}),
    ...(classified.status !== undefined ? { status: classified.status } : {}),
  };
}

/** Adds `text` to the last user message of a request (not to the session: it is said every step, never stored). */
function remindLastUser(messages: ModelMessage[], text: string): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    messages[i] = { ...message, content: [...content, { type: "text", text }] };
    return;
  }
}
