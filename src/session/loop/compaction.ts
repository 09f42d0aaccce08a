/**
 * Keeping a long session inside the model's context window, as OpenCode does. When the last step's
 * tokens near the limit (the window less a reserve for the answer):
 *  1. prune: old tool outputs, beyond the most recent ~40,000 tokens of them, are marked compacted
 *     (`call.time.compacted`), and replay as "[Old tool result content cleared]"; the output stays in the
 *     record for the person;
 *  2. if that is not enough, compact: a user message with a compaction part, then an assistant message
 *     (`summary: true`) in which the model summarises the work so far; the model sees that summary instead
 *     of everything before it, and the loop carries on from a synthetic "continue".
 */
import { streamText } from "ai";
import type { SessionRecord, ToolCall } from "../record/session-record.js";
import { ascendingId } from "../record/ids.js";
import { newAssistantMessage, newUserMessage } from "../record/new-message.js";
import { type AssistantMessage, type Message, type ModelRef, type Tokens } from "../record/message.js";
import { processStream } from "./process-stream.js";
import type { ModelInfo, ResolvedModel } from "../provider/types.js";
import { contextTokens, StepWriter } from "./step-writer.js";
import { activeMessages, toModelMessages } from "./to-model-messages.js";

/** The most tokens reserved for the model's answer when deciding whether the prompt is too long. */
const OUTPUT_RESERVE_MAX = 32_000;

export interface PruneOptions {
  /** Tokens of the most recent tool output that are never pruned. */
  protect: number;
  /** Prune only when it frees at least this many tokens (a small saving is not worth the lost detail). */
  minimum: number;
  /** The last N turns (a user message and its answers) are never pruned. */
  protectTurns: number;
}

export const defaultPruneOptions: PruneOptions = { protect: 40_000, minimum: 20_000, protectTurns: 2 };

export const SUMMARY_PROMPT = [
  "Write a summary of this conversation that another assistant could pick the work up from, as if it were a prompt.",
  "Say what the person asked for, what has been done so far, which files were read or changed and why, what is",
  "under way right now, and what should happen next. Keep names, paths, commands and decisions exact; leave out",
  "anything that does not matter for carrying on.",
].join(" ");

export const CONTINUE_TEXT = "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.";

/** Tokens counted the way prompts are: about four characters each. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** How many tokens a prompt may take before it must shrink: the window less the answer's reserve. */
export function usableContext(info: ModelInfo): number | undefined {
  if (info.limit.context <= 0) return undefined;
  const reserve = Math.min(info.limit.output > 0 ? info.limit.output : OUTPUT_RESERVE_MAX, OUTPUT_RESERVE_MAX);
  return info.limit.context - reserve;
}

export function isOverflow(tokens: Tokens, info: ModelInfo): boolean {
  const usable = usableContext(info);
  return usable !== undefined && contextTokens(tokens) > usable;
}

/** Marks old tool outputs compacted; returns about how many tokens the next prompt saves. */
export function prune(session: SessionRecord, options: PruneOptions = defaultPruneOptions, now = Date.now()): number {
  const calls = new Map(session.calls.map((call) => [call.id, call]));
  const messages = activeMessages(session.messages);
  let turns = 0;
  let seen = 0;
  const doomed: ToolCall[] = [];
  let freed = 0;
  outer: for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") turns++;
    if (turns < options.protectTurns) continue;
    for (let p = message.parts.length - 1; p >= 0; p--) {
      const part = message.parts[p]!;
      if (part.type !== "tool") continue;
      const call = calls.get(part.callID);
      if (!call || call.status !== "completed") continue;
      // Everything older was pruned the last time.
      if (call.time.compacted !== undefined) break outer;
      const tokens = estimateTokens(call.output ?? "");
      seen += tokens;
      if (seen > options.protect) {
        doomed.push(call);
        freed += tokens;
      }
    }
  }
  if (freed < options.minimum) return 0;
  for (const call of doomed) call.time.compacted = now;
  return freed;
}

export interface CompactOptions {
  session: SessionRecord;
  model: ResolvedModel;
  /** The compaction agent's prompt (or the provider's default). */
  system: string[];
  /** The agent the person was talking to (the request and the continue message are theirs). */
  agent: string;
  temperature?: number;
  signal: AbortSignal;
  changed(): void;
  /** Made automatically (the window filled), so the loop continues after the summary. */
  auto: boolean;
}

/** Writes a summary message the model sees instead of everything before it. Throws what the provider threw. */
export async function compact(options: CompactOptions): Promise<AssistantMessage> {
  const { session, model, changed } = options;
  const ref: ModelRef = { providerID: model.info.providerID, modelID: model.info.modelID };
  const history: Message[] = [...session.messages];
  const request = newUserMessage({
    sessionID: session.id,
    agent: options.agent,
    model: ref,
    parts: (id) => [{ id: ascendingId("prt"), messageID: id, type: "compaction", auto: options.auto }],
  });
  const summary = newAssistantMessage({ sessionID: session.id, parentID: request.id, agent: "compaction", model: ref, summary: true });
  session.messages.push(request, summary);
  changed();
  const writer = new StepWriter(summary, model.info, changed);
  try {
    const result = streamText({
      model: model.language,
      instructions: options.system.map((content) => ({ role: "system" as const, content })),
      messages: [
        ...toModelMessages(history, session.calls, { attachments: model.info.attachment }),
        { role: "user", content: SUMMARY_PROMPT },
      ],
      maxRetries: 0,
      // The stream's error part reaches us; the SDK's default handler would only log it again.
      onError: () => undefined,
      abortSignal: options.signal,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    });
    await processStream(result.stream, writer);
  } finally {
    summary.time.completed = Date.now();
    changed();
  }
  if (options.auto) {
    session.messages.push(
      newUserMessage({ sessionID: session.id, agent: options.agent, model: ref, text: CONTINUE_TEXT, synthetic: true }),
    );
    changed();
  }
  return summary;
}
