/**
 * Runs the tool calls of one step through the runner as the model makes them, concurrently (as the AI
 * SDK would), each named in a tool part before it starts. Knows afterwards whether the person rejected
 * a permission, which stops the loop.
 */
import type { SessionServices } from "../../tools/ports/session-services.js";
import type { AgentInfo } from "../../tools/tool.js";
import type { ToolCall } from "../record/session-record.js";
import { DOOM_LOOP_PERMISSION, doomLoopAsk } from "./doom-loop.js";
import { ascendingId } from "../record/ids.js";
import { INVALID_TOOL, invalidCallError } from "./model-tools.js";
import type { StepWriter } from "./step-writer.js";
import type { ToolSession } from "../host/tool-session.js";

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/**
 * A call stopped by a person's plain "reject" (no feedback): the model should not carry on. A rejected
 * `doom_loop` always stops, feedback or not: the model was already repeating itself, and carrying on
 * would let it ask again forever.
 */
function rejectedByPerson(call: ToolCall): boolean {
  return (
    call.status === "error" &&
    call.permissions.some(
      (permission) =>
        permission.answer === "reject" && (permission.message === undefined || permission.permission === DOOM_LOOP_PERMISSION),
    )
  );
}

export class StepTools {
  private readonly running: Array<Promise<ToolCall>> = [];

  constructor(
    private readonly tools: ToolSession,
    private readonly agent: AgentInfo,
    private readonly writer: StepWriter,
    private readonly signal: AbortSignal,
    /** The tools the model was offered, to name them when it called another. */
    private readonly available: readonly string[] = [],
    /** Each call's session services (todos, tasks, questions...). */
    private readonly services?: (call: ToolCall, signal: AbortSignal) => SessionServices,
  ) {}

  start(modelCall: ModelToolCall): void {
    const { session } = this.tools;
    const input = (modelCall.input && typeof modelCall.input === "object" ? modelCall.input : {}) as Record<string, unknown>;
    const doom = doomLoopAsk(session.messages, session.calls, modelCall.toolName, input);
    const callID = ascendingId("call");
    this.writer.tool(modelCall.toolCallId, modelCall.toolName, callID);
    this.running.push(
      this.tools.runner.run(session, this.agent, modelCall.toolName, input, {
        signal: this.signal,
        messageID: this.writer.message.id,
        callID,
        ...(doom ? { ask: [doom] } : {}),
        ...(this.services ? { services: this.services } : {}),
      }),
    );
  }

  /** A call the model could not make (unknown tool, invalid arguments), run as `invalid` so the model learns why. */
  startInvalid(toolCallId: string, toolName: string, error: unknown): void {
    const message = invalidCallError(toolName, error, this.available);
    this.start({ toolCallId, toolName: INVALID_TOOL, input: { tool: toolName, error: message } });
  }

  /** Waits for every call; true when the person rejected one (the loop stops after this step). */
  async settle(): Promise<{ blocked: boolean }> {
    const calls = await Promise.all(this.running);
    return { blocked: calls.some(rejectedByPerson) };
  }
}
