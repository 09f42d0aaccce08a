/**
 * The session side of the session tools (src/tools/session/services.ts): todos on the record, subagents
 * in child sessions run by the same loop, questions through the session's Questions, agent switches as
 * synthetic user messages the loop follows, and nested calls (batch) through the runner.
 */
import type { Agent } from "./agent/types.js";
import type { SessionRecord, ToolCall } from "./calls.js";
import { assertSubagentDepth } from "./loop/subagent-depth.js";
import { ascendingId } from "./ids.js";
import type { LoopEnd } from "./loop.js";
import type { ModelRef, UserMessage } from "./message.js";
import type { ResolvedModel, ModelInfo } from "./provider/types.js";
import type { ToolSession } from "./tool-session.js";
import { disabledTools, permissionKeyOf } from "../tools/permission/disabled.js";
import { evaluate } from "../tools/permission/evaluate.js";
import type { Ruleset } from "../tools/permission/types.js";
import type {
  BatchCallResult,
  QuestionItem,
  SessionServices,
  SubagentInfo,
  TaskProgress,
  TaskRequest,
  TaskResult,
  TodoItem,
} from "../tools/session/services.js";

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
  /** Runs the loop for a child session (loop.ts passes itself, which keeps this file free of a cycle). */
  runChild(options: { tools: ToolSession; agent: Agent; model: ResolvedModel; system: string[]; signal: AbortSignal }): Promise<LoopEnd>;
}

/**
 * The rules a subagent's session adds after its agent's: no todo list of its own (it would clobber its
 * parent's), and no further tasks unless its own rules speak of `task`.
 */
export function childSessionRules(agent: Agent): Ruleset {
  const rules: Ruleset = [
    { permission: "todowrite", pattern: "*", action: "deny", source: "session" },
    { permission: "todoread", pattern: "*", action: "deny", source: "session" },
  ];
  const ownTask = agent.permission.some((rule) => rule.permission === "task" && rule.source !== "default");
  if (!ownTask) rules.push({ permission: "task", pattern: "*", action: "deny", source: "session" });
  return rules;
}

/** The subagents `caller` may start: not primary-only, not hidden, not denied by its task rules. */
export function subagentsFor(agents: readonly Agent[], caller: Agent): SubagentInfo[] {
  return agents
    .filter((agent) => agent.mode !== "primary" && !agent.hidden && evaluate("task", agent.name, caller.permission).action !== "deny")
    .map((agent) => ({ name: agent.name, ...(agent.description !== undefined ? { description: agent.description } : {}) }));
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

/** A subagent session of `record`, at any depth. */
export function findChild(record: SessionRecord, id: string): SessionRecord | undefined {
  for (const child of record.children ?? []) {
    if (child.id === id) return child;
    const deeper = findChild(child, id);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * A batch may run only what its agent is offered: a tool the rules deny outright is hidden from the model,
 * and one that asks no permission of its own (a custom tool) would otherwise run unchecked through batch.
 * The call is still made, so its card shows the refusal.
 */
function refusal(agent: Agent, tool: string): { refuse: { permission: string; reason: string } } | Record<string, never> {
  if (!disabledTools([tool], agent.permission).has(tool)) return {};
  const reason = `Tool '${tool}' is not available to the ${agent.name} agent: its rules deny it, so it cannot be called, in a batch or otherwise.`;
  return { refuse: { permission: permissionKeyOf(tool), reason } };
}

export const SUBAGENT_CANNOT_SWITCH =
  "A subagent cannot switch its session to the plan or build agent: finish the task you were given and answer with your result instead.";

/** Said by the tools that need a model or a person when a call is run by hand (the palette, a test). */
const NEEDS_CONVERSATION = "works only in a conversation with an agent: ask the agent in the chat to use it";

/**
 * Services for a call run by hand, outside any run of the loop: the todo list, skills and nested calls
 * work; starting a subagent, asking the person and switching agents need a run, and say so.
 */
export function manualServices(tools: ToolSession, agent: Agent, call: ToolCall, signal: AbortSignal): SessionServices {
  const refuse = (what: string) => () => Promise.reject(new Error(`${what} ${NEEDS_CONVERSATION}`));
  const host: LoopHost = {
    tools,
    agent,
    get model(): ResolvedModel {
      throw new Error(`A task ${NEEDS_CONVERSATION}`);
    },
    systemFor: refuse("A task"),
    changed: () => tools.bus.publish("call.updated", { sessionID: call.sessionID, callID: call.id }),
    runChild: refuse("A task"),
  };
  const services = sessionServices(host, call, signal);
  return {
    ...services,
    task: refuse("The task tool"),
    ask: refuse("The question tool"),
    switchAgent() {
      throw new Error(`Switching agents ${NEEDS_CONVERSATION}`);
    },
    runTool: (tool, parameters, onStart) => {
      const callID = ascendingId("call");
      onStart?.(callID);
      return tools.runner
        .run(tools.session, agent, tool, parameters, {
          ...refusal(agent, tool),
          signal,
          callID,
          messageID: call.messageID,
          services: (inner, innerSignal) => manualServices(tools, agent, inner, innerSignal),
        })
        .then((done) => ({
          callID: done.id,
          status: done.status === "completed" ? ("completed" as const) : ("error" as const),
          ...(done.output !== undefined ? { output: done.output } : {}),
          ...(done.error !== undefined ? { error: done.error } : {}),
        }));
    },
  };
}

export function sessionServices(host: LoopHost, call: ToolCall, signal: AbortSignal): SessionServices {
  const { tools } = host;
  const record = tools.session;
  const services: SessionServices = {
    subagents: () => subagentsFor(tools.agents, host.agent),
    skills: () => tools.skills,
    todos: () => (record.todos ?? []).map((todo) => ({ ...todo })),
    setTodos(todos: TodoItem[]) {
      record.todos = todos.map((todo) => ({ ...todo }));
      host.changed();
    },
    task: (request, progress) => runTask(host, call, request, progress, signal),
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
    isSubagent: () => record.parentID !== undefined,
    switchAgent(agent, text) {
      // A subagent turned primary would shed its session's limits (no tasks, no todo list) and its task.
      if (record.parentID !== undefined) throw new Error(SUBAGENT_CANNOT_SWITCH);
      const id = ascendingId("msg");
      const message: UserMessage = {
        id,
        sessionID: record.id,
        role: "user",
        time: { created: Date.now() },
        agent,
        model: { providerID: host.model.info.providerID, modelID: host.model.info.modelID },
        parts: [{ id: ascendingId("prt"), messageID: id, type: "text", text, synthetic: true }],
      };
      record.messages.push(message);
      host.changed();
    },
    planPath: () => `.opencode/plans/${tools.root.id}.md`,
    toolIds: () => tools.registry.ids(),
    async runTool(tool, parameters, onStart): Promise<BatchCallResult> {
      const callID = ascendingId("call");
      onStart?.(callID);
      const done = await tools.runner.run(record, host.agent, tool, parameters, {
        ...refusal(host.agent, tool),
        signal,
        callID,
        messageID: call.messageID,
        services: (inner, innerSignal) => sessionServices(host, inner, innerSignal),
      });
      return {
        callID: done.id,
        status: done.status === "completed" ? "completed" : "error",
        ...(done.output !== undefined ? { output: done.output } : {}),
        ...(done.error !== undefined ? { error: done.error } : {}),
      };
    },
  };
  return services;
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
  const id = ascendingId("msg");
  child.messages.push({
    id,
    sessionID: child.id,
    role: "user",
    time: { created: Date.now() },
    agent: agent.name,
    model: { providerID: model.info.providerID, modelID: model.info.modelID },
    parts: [{ id: ascendingId("prt"), messageID: id, type: "text", text: request.prompt }],
  });
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
