/**
 * The services only a running loop gives a call, on top of those every call gets (host/call-services.ts):
 * subagents in child sessions run by the same loop, questions through the session's Questions, and agent
 * switches as synthetic user messages the loop follows.
 */
import type { Agent } from "../agent/types.js";
import type { ResolvedModel, ModelInfo } from "../provider/types.js";
import { ascendingId } from "../record/ids.js";
import { newUserMessage } from "../record/new-message.js";
import type { ModelRef } from "../record/message.js";
import { findChild, type SessionRecord, type ToolCall } from "../record/session-record.js";
import { callServices } from "../host/call-services.js";
import type { ToolSession } from "../host/tool-session.js";
import type { LoopEnd } from "./loop-state.js";
import { assertSubagentDepth } from "../config/subagent-depth.js";
import type { Ruleset } from "../../tools/permission/types.js";
import type { QuestionItem, SessionServices, TaskProgress, TaskRequest, TaskResult } from "../../tools/ports/session-services.js";

/** What the running loop lends its calls' services. */
export interface LoopHost {
  tools: ToolSession;
  agent: Agent;
  model: ResolvedModel;
  /** The system prompt for another agent on a model (a subagent's). */
  systemFor(agent: Agent, model: ModelInfo): Promise<string[]>;
  /** A subagent's own model. */
  resolveModel?(ref: ModelRef): Promise<ResolvedModel>;
  changed(): void;
  ended?(): Promise<void>;
  /** Runs the loop for a child session (loop.ts passes itself, so this file need not import it). */
  runChild(options: { tools: ToolSession; agent: Agent; model: ResolvedModel; system: string[]; signal: AbortSignal }): Promise<LoopEnd>;
}

/**
 * The rules a subagent's session adds after its agent's: no todo list of its own (it would clobber its
 * parent's), and no further tasks unless its own rules speak of `task`.
 */
function childSessionRules(agent: Agent): Ruleset {
  const rules: Ruleset = [
    { permission: "todowrite", pattern: "*", action: "deny", source: "session" },
    { permission: "todoread", pattern: "*", action: "deny", source: "session" },
  ];
  const ownTask = agent.permission.some((rule) => rule.permission === "task" && rule.source !== "default");
  if (!ownTask) rules.push({ permission: "task", pattern: "*", action: "deny", source: "session" });
  return rules;
}

function lastText(record: SessionRecord): string {
  for (let i = record.messages.length - 1; i >= 0; i--) {
    const message = record.messages[i]!;
    if (message.role !== "assistant") continue;
    const text = message.parts.findLast((part) => part.type === "text" && !part.synthetic);
    if (text?.type === "text") return text.text;
  }
  return "";
}

const SUBAGENT_CANNOT_SWITCH =
  "A subagent cannot switch its session to the plan or build agent: finish the task you were given and answer with your result instead.";

export function sessionServices(host: LoopHost, call: ToolCall, signal: AbortSignal): SessionServices {
  const { tools } = host;
  const record = tools.session;
  return callServices(
    tools,
    host.agent,
    call,
    signal,
    () => host.changed(),
    (inner, innerSignal) => sessionServices(host, inner, innerSignal),
    {
      task: (request, progress, own) => runTask(host, call, request, progress, own ?? signal),
      async ask(questions: QuestionItem[]) {
        // Recorded like a permission, so a dismissal stops the run as a rejected permission does.
        const asked = {
          permission: "question",
          patterns: [] as string[],
          always: [] as string[],
          answer: "pending" as "pending" | "once" | "reject",
        };
        call.permissions.push(asked);
        try {
          const answers = await tools.questions.ask({ sessionID: record.id, callID: call.id, questions }, signal);
          asked.answer = "once";
          return answers;
        } catch (error) {
          asked.answer = "reject";
          throw error;
        }
      },
      switchAgent(agent, text) {
        // A subagent turned primary would shed its session's limits (no tasks, no todo list) and its task.
        if (record.parentID !== undefined) throw new Error(SUBAGENT_CANNOT_SWITCH);
        const model = { providerID: host.model.info.providerID, modelID: host.model.info.modelID };
        record.messages.push(newUserMessage({ sessionID: record.id, agent, model, text, synthetic: true }));
        host.changed();
      },
    },
  );
}

/**
 * Child sessions whose loop is running now. Two loops on one record would interleave their messages and
 * calls (two task calls resuming the same task_id in one step, or in one batch), so the second is refused.
 */
const runningChildren = new WeakSet<SessionRecord>();

async function runTask(
  host: LoopHost,
  call: ToolCall,
  request: TaskRequest,
  progress: (progress: TaskProgress) => void,
  signal: AbortSignal,
): Promise<TaskResult> {
  const { tools } = host;
  const parent = tools.session;
  assertSubagentDepth(tools.config, tools.root, parent.id);
  const agent = tools.agents.find((candidate) => candidate.name === request.subagent && candidate.mode !== "primary" && !candidate.hidden);
  if (!agent) throw new Error(`Unknown agent type: ${request.subagent} is not a valid agent type`);
  let child: SessionRecord | undefined;
  if (request.taskID !== undefined) {
    child = findChild(parent, request.taskID);
    if (!child) {
      const known = (parent.children ?? []).map((one) => one.id);
      throw new Error(
        `No task "${request.taskID}" in this session (${known.length > 0 ? `its tasks: ${known.join(", ")}` : "it has started none"}): leave task_id out to start a new task.`,
      );
    }
    if (runningChildren.has(child)) {
      throw new Error(
        `The task ${request.taskID} is already running (another call resumed it): wait for that call's result, or leave task_id out to start a new task.`,
      );
    }
  } else {
    child = {
      id: ascendingId("ses"),
      title: `${request.description} (@${agent.name} subagent)`,
      agent: agent.name,
      createdAt: Date.now(),
      calls: [],
      messages: [],
      parentID: parent.id,
    };
    (parent.children ??= []).push(child);
  }
  runningChildren.add(child);
  try {
    return await runChildTask(host, child, agent, request, progress, signal);
  } finally {
    runningChildren.delete(child);
  }
}

async function runChildTask(
  host: LoopHost,
  child: SessionRecord,
  agent: Agent,
  request: TaskRequest,
  progress: (progress: TaskProgress) => void,
  signal: AbortSignal,
): Promise<TaskResult> {
  const { tools } = host;
  const childAgent: Agent = { ...agent, permission: [...agent.permission, ...childSessionRules(agent)] };
  const model = agent.model && host.resolveModel ? await host.resolveModel(agent.model) : host.model;
  const childTools = tools.child(child, childAgent, [], host.agent);
  const modelRef = { providerID: model.info.providerID, modelID: model.info.modelID };
  child.messages.push(newUserMessage({ sessionID: child.id, agent: agent.name, model: modelRef, text: request.prompt }));
  const sessionID = child.id;
  const report = () => {
    const running = child!.calls.findLast((one) => one.status === "running" || one.status === "pending");
    // "asking" changes the card's metadata when a question starts or stops waiting, so the page redraws it.
    const asking = running !== undefined && tools.questions.forCall(running.id) !== undefined;
    progress({
      sessionID,
      calls: child!.calls.length,
      ...(running ? { tool: running.tool, callID: running.id } : {}),
      ...(asking ? { asking } : {}),
    });
  };
  report();
  const off = tools.bus.subscribe("call.updated", (event) => {
    if (event.sessionID === sessionID) report();
  });
  let end: LoopEnd;
  try {
    end = await host.runChild({
      tools: childTools,
      agent: childAgent,
      model,
      system: await host.systemFor(childAgent, model.info),
      signal,
    });
  } finally {
    off();
  }
  if (signal.aborted || end === "aborted")
    throw new Error(`The task was stopped before the ${agent.name} subagent finished (task_id: ${sessionID}).`);
  const failed = child.messages.findLast((message) => message.role === "assistant");
  if (end === "error" && failed?.role === "assistant" && failed.error)
    throw new Error(`The ${agent.name} subagent failed: ${failed.error.message} (task_id: ${sessionID})`);
  return { sessionID, text: lastText(child), model: { providerID: model.info.providerID, modelID: model.info.modelID } };
}
