/**
 * The chat controller: one session's conversation with an agent. It appends the person's messages,
 * runs the loop for each, saves as things change (coalesced; every message's end is saved), and tells
 * the page whenever anything changed. Models and agents are injected, so the page, the CLI and tests
 * each bring their own.
 *
 * A message sent while the agent is busy is queued: it joins the conversation, and gets its own run,
 * when the current run ends (Stop drops the queue). OpenCode instead slips it into the running loop
 * inside a system reminder; queueing keeps every run answering exactly one message.
 */
import type { Agent } from "../agent/types.js";
import type { ToolCall } from "../record/session-record.js";
import type { AgentChoice, ChatStatus, ChatView, ModelChoice, SendInput } from "./chat-view.js";
import type { SessionRecord } from "../record/session-record.js";
import type { QuestionRequest } from "../host/questions.js";
import { findChild } from "../record/session-record.js";
import type { TodoItem } from "../../tools/ports/session-services.js";
import { AttachmentError, attachmentParts } from "./attachments.js";
import { ascendingId } from "../record/ids.js";
import { newAssistantMessage, newUserMessage } from "../record/new-message.js";
import { runLoop, type LoopOptions } from "../loop/loop.js";
import type { LoopEnd } from "../loop/loop-state.js";
import { type Message, type MessageError, type ModelRef, type Part, type UserMessage } from "../record/message.js";
import type { ModelInfo, ResolvedModel } from "../provider/types.js";
import { SaveScheduler } from "../record/save-scheduler.js";
import { sessionTitleFrom } from "../record/session-title.js";
import type { SessionStore } from "../record/session-store.js";
import type { ToolSession } from "../host/tool-session.js";
import { errorMessage } from "../../base/error-message.js";

export interface ChatOptions {
  tools: ToolSession;
  /** Every agent; the primary, visible ones are offered to the person. */
  agents: Agent[];
  resolveModel(ref: ModelRef): Promise<ResolvedModel>;
  /** The system prompt for an agent on a model (environment, AGENTS.md, instructions). */
  system(agent: Agent, model: ModelInfo): Promise<string[]>;
  /** The models the picker offers. */
  models?: () => ModelChoice[];
  /** The model to start with (else the agent's own). */
  model?: ModelRef;
  agent?: string;
  store?: SessionStore;
  saveDelayMs?: number;
  /** Passed on to the loop (tests inject classifiers, delays and pruning thresholds). */
  loop?: Partial<Pick<LoopOptions, "classify" | "retryDelay" | "maxRetries" | "prune">>;
  /**
   * When a background job ends while the agent is idle, run it again to read the notice (OpenCode V2 tells
   * the session the same way), unless the person stopped the last run. Off: the notice waits for the next message.
   */
  resumeOnJobEnd?: boolean;
}

interface Queued {
  input: SendInput;
  done: () => void;
  fail: (error: unknown) => void;
}

export class Chat implements ChatView {
  private readonly listeners = new Set<() => void>();
  private readonly saver: SaveScheduler;
  private current: ChatStatus = { type: "idle" };
  private agentName: string;
  private modelRef: ModelRef | undefined;
  private controller: AbortController | undefined;
  private queue: Queued[] = [];
  private readonly children = new Map<string, ChildChat>();
  private readonly unsubscribe: () => void;
  private readonly offJobs: () => void;
  /** The person pressed Stop on the last run: a job's end waits for their next message. */
  private stoppedByPerson = false;
  /** How the last run ended (for the CLI's exit code). */
  lastEnd: LoopEnd | undefined;

  constructor(private readonly options: ChatOptions) {
    const first = options.agents.find((agent) => agent.mode !== "subagent" && !agent.hidden);
    this.agentName = options.agent ?? options.tools.session.agent ?? first?.name ?? "build";
    this.modelRef = options.model;
    this.saver = new SaveScheduler(options.store, () => options.tools.session, options.saveDelayMs);
    // A tool card follows its call (running, live output, permission asked) between part changes; a
    // subagent's calls move its task card and its own transcript.
    this.unsubscribe = options.tools.bus.subscribe("call.updated", ({ sessionID }) => {
      if (sessionID === this.sessionID || findChild(this.options.tools.session, sessionID)) this.notify();
    });
    const jobs = options.resumeOnJobEnd ? options.tools.jobs : undefined;
    this.offJobs = jobs?.onChange((job) => job.status !== "running" && this.resumeForJobs()) ?? (() => undefined);
  }

  /**
   * A job the agent started ended: an idle agent runs once more to read its notice (a running one reads it at
   * its next step). A job the person started from the Tools pane wakes nobody.
   */
  private resumeForJobs(): void {
    if (this.controller || this.stoppedByPerson || !this.model()) return;
    const ended = this.options.tools.jobs?.waitingEnds() ?? [];
    if (!ended.some((end) => this.agentStarted(end.job.id))) return;
    // Nobody waits on this run: a failure to start it (the model's key was removed) is only worth a warning.
    void this.send(undefined).catch((error: unknown) => console.warn("the agent could not be woken for a job's end:", error));
  }

  /** Whether a call of this conversation's agent started the job (its call's message is one of ours). */
  private agentStarted(jobID: string): boolean {
    const session = this.options.tools.session;
    const call = session.calls.find((one) => one.metadata?.jobId === jobID);
    return call !== undefined && session.messages.some((message) => message.id === call.messageID && message.role === "assistant");
  }

  /** Stops any run and lets go of the bus (the page closed this chat). */
  dispose(): void {
    this.stop();
    this.unsubscribe();
    this.offJobs();
    this.listeners.clear();
  }

  get sessionID(): string {
    return this.options.tools.session.id;
  }

  messages(): readonly Message[] {
    return this.options.tools.session.messages;
  }

  call(callID: string): ToolCall | undefined {
    return this.options.tools.session.calls.find((call) => call.id === callID);
  }

  status(): ChatStatus {
    return this.current;
  }

  title(): string {
    return this.options.tools.session.title;
  }

  todos(): readonly TodoItem[] {
    return this.options.tools.session.todos ?? [];
  }

  question(callID: string): QuestionRequest | undefined {
    return this.options.tools.questions.forCall(callID);
  }

  answerQuestion(id: string, answers: string[][]): void {
    this.options.tools.questions.reply(id, answers);
  }

  dismissQuestion(id: string): void {
    this.options.tools.questions.dismiss(id);
  }

  child(sessionID: string): ChatView | undefined {
    const record = findChild(this.options.tools.session, sessionID);
    if (!record) return undefined;
    let view = this.children.get(sessionID);
    if (!view) this.children.set(sessionID, (view = new ChildChat(this, record)));
    return view;
  }

  agent(): string {
    return this.agentName;
  }

  model(): ModelRef | undefined {
    return this.modelRef ?? this.findAgent(this.agentName)?.model;
  }

  agents(): AgentChoice[] {
    return this.options.agents
      .filter((agent) => agent.mode !== "subagent" && !agent.hidden)
      .map((agent) => ({ name: agent.name, ...(agent.description !== undefined ? { description: agent.description } : {}) }));
  }

  models(): ModelChoice[] {
    return this.options.models?.() ?? [];
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The models on offer changed (a key was added or removed): the page reads them again. */
  refresh(): void {
    this.notify();
  }

  setAgent(name: string): void {
    if (!this.findAgent(name))
      throw new Error(
        `unknown agent "${name}": use one of ${this.agents()
          .map((a) => a.name)
          .join(", ")}`,
      );
    this.agentName = name;
    this.notify();
  }

  setModel(model: ModelRef): void {
    this.modelRef = { providerID: model.providerID, modelID: model.modelID };
    this.notify();
  }

  /** Back to no model chosen (the agent's own, if it names one): a recording that lent its model ended. */
  clearModel(): void {
    this.modelRef = undefined;
    this.notify();
  }

  stop(): void {
    const dropped = this.queue;
    this.queue = [];
    for (const queued of dropped) queued.done();
    if (this.controller) this.stoppedByPerson = true;
    this.controller?.abort(new DOMException("Stopped by the person.", "AbortError"));
  }

  /**
   * Sends a message and resolves when the agent has answered it (or stopped), and the messages queued
   * meanwhile have had their runs. Each message's failure rejects its own send only.
   */
  async send(input: SendInput | undefined): Promise<void> {
    if (input) this.stoppedByPerson = false;
    if (this.controller) return input ? new Promise((done, fail) => this.queue.push({ input, done, fail })) : undefined;
    let failure: { error: unknown } | undefined;
    try {
      await this.run(input);
    } catch (error) {
      failure = { error };
    }
    while (this.queue.length > 0 && !this.controller) {
      const next = this.queue.shift()!;
      try {
        await this.run(next.input);
        next.done();
      } catch (error) {
        next.fail(error);
      }
    }
    if (failure) throw failure.error;
  }

  /**
   * Drops a user message and everything after it: an undo from that message, committed by the next send
   * (the files were set back already). The calls' records stay in the session, as a saved output does.
   */
  dropFrom(messageID: string): void {
    if (this.controller) throw new Error("the agent is still answering: stop it before undoing");
    const messages = this.options.tools.session.messages;
    const at = messages.findIndex((message) => message.id === messageID);
    if (at < 0) return;
    messages.splice(at);
    this.changed();
  }

  private findAgent(name: string): Agent | undefined {
    return this.options.agents.find((agent) => agent.name === name);
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        console.error("a chat listener failed:", error);
      }
    }
  }

  private changed = (): void => {
    this.saver.touch();
    this.notify();
  };

  private setStatus(status: ChatStatus): void {
    this.current = status;
    this.notify();
  }

  /** One run of the loop: after a new message, or (no input) to read what ended in the background. */
  private async run(input: SendInput | undefined): Promise<void> {
    const session = this.options.tools.session;
    const agent = this.findAgent(this.agentName);
    const ref = this.model();
    const controller = new AbortController();
    this.controller = controller;
    this.setStatus({ type: "busy", step: 0 });
    try {
      if (!agent) throw new Error(`unknown agent "${this.agentName}"`);
      if (!ref) throw new Error("No model is chosen: pick a model (and add its provider's key) first.");
      let user: UserMessage | undefined;
      if (input) {
        const written = await this.userMessage(input, agent.name, ref);
        user = written.user;
        session.messages.push(user);
        if (!session.title) session.title = sessionTitleFrom(input.text);
        this.changed();
        await this.saver.flush();
        if (written.attachmentError) {
          const { message, hint } = written.attachmentError;
          this.failedAnswer(user, agent.name, ref, { kind: "attachment", message, hint });
          return;
        }
      }
      let model: ResolvedModel;
      try {
        model = await this.options.resolveModel(ref);
      } catch (error) {
        if (!user) throw error;
        this.failedAnswer(user, agent.name, ref, { kind: "model", message: errorMessage(error) });
        return;
      }
      const compactionAgent = this.findAgent("compaction");
      this.lastEnd = await runLoop({
        tools: this.options.tools,
        agent,
        model,
        system: await this.options.system(agent, model.info),
        signal: controller.signal,
        changed: this.changed,
        status: (status) => this.setStatus(status),
        ended: () => this.saver.flush(),
        ...(compactionAgent ? { compactionAgent } : {}),
        systemFor: (which, info) => this.options.system(which, info),
        resolveModel: (ref) => this.options.resolveModel(ref),
        ...this.options.loop,
      });
      this.followSwitch();
    } finally {
      this.controller = undefined;
      await this.saver.flush();
      this.setStatus({ type: "idle" });
    }
  }

  /** plan_enter and plan_exit handed the session to another agent: the next message goes to it too. */
  private followSwitch(): void {
    const messages = this.options.tools.session.messages;
    const last = messages.findLast((message) => message.role === "user");
    const agent = last ? this.findAgent(last.agent) : undefined;
    if (agent && agent.mode !== "subagent" && !agent.hidden && agent.name !== this.agentName) this.agentName = agent.name;
  }

  /** A run that could not reach a model still answers, with what went wrong. */
  private failedAnswer(user: UserMessage, agent: string, ref: ModelRef, error: MessageError): void {
    const message = newAssistantMessage({ sessionID: this.sessionID, parentID: user.id, agent, model: ref, error });
    this.options.tools.session.messages.push(message);
    this.lastEnd = "error";
    this.changed();
  }

  /**
   * The person's message with its attachments. An attachment that cannot be read leaves every attachment
   * out (the text is kept) and is returned, for the answer to say what went wrong.
   */
  private async userMessage(
    input: SendInput,
    agent: string,
    model: ModelRef,
  ): Promise<{ user: UserMessage; attachmentError?: AttachmentError }> {
    const user = newUserMessage({ sessionID: this.sessionID, agent, model, parts: () => [] });
    // The files as they are before this message: what "Undo from here" goes back to.
    await this.options.tools.runner.checkpoints?.beforeMessage(this.sessionID, user.id);
    if (input.text !== "") user.parts.push({ id: ascendingId("prt"), messageID: user.id, type: "text", text: input.text });
    let attachmentError: AttachmentError | undefined;
    const attached: Part[] = [];
    try {
      for (const attachment of input.attachments ?? [])
        attached.push(...(await attachmentParts(this.options.tools.runtime, attachment, user.id)));
      user.parts.push(...attached);
    } catch (error) {
      if (!(error instanceof AttachmentError)) throw error;
      attachmentError = error;
    }
    return attachmentError ? { user, attachmentError } : { user };
  }
}

/**
 * A subagent's session as the page watches it: its transcript and calls, moving with the parent's run
 * (the child's loop announces its changes through the parent chat), never sent to. Stop stops the parent's
 * run, which is the only run there is.
 */
class ChildChat implements ChatView {
  readonly readOnly = true;

  constructor(
    private readonly parent: Chat,
    private readonly record: SessionRecord,
  ) {}

  get sessionID(): string {
    return this.record.id;
  }

  messages(): readonly Message[] {
    return this.record.messages;
  }

  call(callID: string): ToolCall | undefined {
    return this.record.calls.find((call) => call.id === callID);
  }

  status(): ChatStatus {
    const last = this.record.messages.at(-1);
    const streaming = last?.role === "assistant" && last.time.completed === undefined;
    const running = this.record.calls.some((call) => call.status === "running" || call.status === "pending");
    return this.parent.status().type !== "idle" && (streaming || running)
      ? { type: "busy", step: this.record.messages.filter((m) => m.role === "assistant").length }
      : { type: "idle" };
  }

  agent(): string {
    return this.record.agent;
  }

  model(): ModelRef | undefined {
    const user = this.record.messages.findLast((message) => message.role === "user");
    return user?.role === "user" ? user.model : undefined;
  }

  agents(): AgentChoice[] {
    return [{ name: this.record.agent }];
  }

  models(): ModelChoice[] {
    return [];
  }

  onChange(listener: () => void): () => void {
    return this.parent.onChange(listener);
  }

  send(): Promise<void> {
    return Promise.reject(
      new Error("This is a subagent's session and only shows what it did: go back to the main session to send a message."),
    );
  }

  stop(): void {
    this.parent.stop();
  }

  setAgent(): void {
    throw new Error("A subagent's session keeps its agent.");
  }

  setModel(): void {
    throw new Error("A subagent's session keeps its model.");
  }

  title(): string {
    return this.record.title;
  }

  todos(): readonly TodoItem[] {
    return this.record.todos ?? [];
  }

  question(callID: string): QuestionRequest | undefined {
    return this.parent.question(callID);
  }

  answerQuestion(id: string, answers: string[][]): void {
    this.parent.answerQuestion(id, answers);
  }

  dismissQuestion(id: string): void {
    this.parent.dismissQuestion(id);
  }

  child(sessionID: string): ChatView | undefined {
    return this.parent.child(sessionID);
  }
}
