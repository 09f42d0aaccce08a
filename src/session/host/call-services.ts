/**
 * The session side of the session tools (src/tools/ports/session-services.ts) that every call gets, whoever runs
 * it: todos on the record, the skills and subagents on offer, and nested calls (batch) through the runner.
 * Starting a subagent, asking the person and switching agents need a running loop: the loop adds them
 * (src/session/loop/loop-services.ts); a call run by hand gets `manualServices`, which says so.
 */
import type { Agent } from "../agent/types.js";
import { ascendingId } from "../record/ids.js";
import type { SessionRecord, ToolCall } from "../record/session-record.js";
import type { Bus } from "../../tools/bus.js";
import { disabledTools, permissionKeyOf } from "../../tools/permission/disabled.js";
import { evaluate } from "../../tools/permission/evaluate.js";
import type { BatchCallResult, SessionServices, SkillInfo, SubagentInfo, TodoItem } from "../../tools/ports/session-services.js";
import type { ToolRunner } from "./tool-runner.js";

/** What a call's services need of the tool session that runs it (`ToolSession` is one). */
export interface CallHost {
  readonly session: SessionRecord;
  /** The outermost session: plan files are named after it. */
  readonly root: { readonly id: string };
  readonly agents: readonly Agent[];
  readonly skills: SkillInfo[];
  readonly registry: { ids(): string[] };
  readonly runner: ToolRunner;
  readonly bus: Bus;
}

/** The services of the calls a call starts (batch's inner calls get the same kind as their batch). */
export type NestedServices = (call: ToolCall, signal: AbortSignal) => SessionServices;

/** The services that need a running loop; `manualServices` refuses them, the loop supplies them. */
export type LoopOnlyServices = Pick<SessionServices, "task" | "ask" | "switchAgent">;

/** The subagents `caller` may start: not primary-only, not hidden, not denied by its task rules. */
export function subagentsFor(agents: readonly Agent[], caller: Agent): SubagentInfo[] {
  return agents
    .filter((agent) => agent.mode !== "primary" && !agent.hidden && evaluate("task", agent.name, caller.permission).action !== "deny")
    .map((agent) => ({ name: agent.name, ...(agent.description !== undefined ? { description: agent.description } : {}) }));
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

/**
 * Every service but the loop's own: `agent` is the agent the call runs as, `changed` tells whoever shows
 * the session that the record changed, `nested` gives the services of the calls this one starts.
 */
export function callServices(
  host: CallHost,
  agent: Agent,
  call: ToolCall,
  signal: AbortSignal,
  changed: () => void,
  nested: NestedServices,
  loopOnly: LoopOnlyServices,
): SessionServices {
  const record = host.session;
  return {
    ...loopOnly,
    subagents: () => subagentsFor(host.agents, agent),
    skills: () => host.skills,
    todos: () => (record.todos ?? []).map((todo) => ({ ...todo })),
    setTodos(todos: TodoItem[]) {
      record.todos = todos.map((todo) => ({ ...todo }));
      changed();
    },
    isSubagent: () => record.parentID !== undefined,
    planPath: () => `.opencode/plans/${host.root.id}.md`,
    toolIds: () => host.registry.ids(),
    async runTool(tool, parameters, onStart, stop): Promise<BatchCallResult> {
      const callID = ascendingId("call");
      onStart?.(callID);
      const done = await host.runner.run(record, agent, tool, parameters, {
        ...refusal(agent, tool),
        signal: stop ? AbortSignal.any([signal, stop]) : signal,
        callID,
        messageID: call.messageID,
        services: nested,
      });
      return {
        callID: done.id,
        status: done.status === "completed" ? "completed" : "error",
        ...(done.output !== undefined ? { output: done.output } : {}),
        ...(done.error !== undefined ? { error: done.error } : {}),
      };
    },
  };
}

/** Said by the tools that need a model or a person when a call is run by hand (the palette, a test). */
const NEEDS_CONVERSATION = "works only in a conversation with an agent: ask the agent in the chat to use it";

/**
 * Services for a call run by hand, outside any run of the loop: the todo list, skills and nested calls
 * work; starting a subagent, asking the person and switching agents need a run, and say so.
 */
export function manualServices(host: CallHost, agent: Agent, call: ToolCall, signal: AbortSignal): SessionServices {
  const refuse = (what: string) => () => Promise.reject(new Error(`${what} ${NEEDS_CONVERSATION}`));
  return callServices(
    host,
    agent,
    call,
    signal,
    () => host.bus.publish("call.updated", { sessionID: call.sessionID, callID: call.id }),
    (inner, innerSignal) => manualServices(host, agent, inner, innerSignal),
    {
      task: refuse("The task tool"),
      ask: refuse("The question tool"),
      switchAgent() {
        throw new Error(`Switching agents ${NEEDS_CONVERSATION}`);
      },
    },
  );
}
