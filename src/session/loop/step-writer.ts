/**
 * Writes one model step into its assistant message as the stream arrives: step-start, reasoning and text
 * parts growing delta by delta, tool parts, step-finish with tokens and cost. Every change is announced,
 * so the page can show each delta as it comes.
 */
import type { LanguageModelUsage } from "ai";
import { ascendingId } from "../record/ids.js";
import { emptyTokens, type AssistantMessage, type ReasoningPart, type TextPart, type Tokens } from "../record/message.js";
import type { ModelInfo } from "../provider/types.js";

function tokensOf(usage: LanguageModelUsage): Tokens {
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  return {
    // Input without the cached part, as OpenCode counts it, so the cost of each kind is counted once.
    input: Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite),
    output: usage.outputTokens ?? 0,
    reasoning: usage.outputTokenDetails?.reasoningTokens ?? 0,
    cache: { read: cacheRead, write: cacheWrite },
  };
}

/** US dollars for a step, from the model's prices per million tokens. */
function costOf(tokens: Tokens, cost: ModelInfo["cost"]): number {
  return (
    (tokens.input * cost.input + tokens.output * cost.output + tokens.cache.read * cost.cacheRead + tokens.cache.write * cost.cacheWrite) /
    1_000_000
  );
}

/** All the tokens a step's prompt and answer took: what counts against the context window. */
export function contextTokens(tokens: Tokens): number {
  return tokens.input + tokens.cache.read + tokens.cache.write + tokens.output;
}

export class StepWriter {
  private readonly open = new Map<string, TextPart | ReasoningPart>();

  constructor(
    readonly message: AssistantMessage,
    private readonly info: ModelInfo,
    private readonly changed: () => void,
  ) {}

  private newID(): string {
    return ascendingId("prt");
  }

  startStep(): void {
    this.message.parts.push({ id: this.newID(), messageID: this.message.id, type: "step-start" });
    this.changed();
  }

  start(kind: "text" | "reasoning", streamID: string): void {
    const part = { id: this.newID(), messageID: this.message.id, type: kind, text: "", time: { start: Date.now() } } as
      | TextPart
      | ReasoningPart;
    this.open.set(`${kind}:${streamID}`, part);
    this.message.parts.push(part);
    this.changed();
  }

  delta(kind: "text" | "reasoning", streamID: string, text: string): void {
    let part = this.open.get(`${kind}:${streamID}`);
    if (!part) {
      this.start(kind, streamID);
      part = this.open.get(`${kind}:${streamID}`)!;
    }
    // Replaced, not mutated, so a view that compares parts by identity sees the change.
    const index = this.message.parts.indexOf(part);
    const next = { ...part, text: part.text + text };
    this.message.parts[index] = next;
    this.open.set(`${kind}:${streamID}`, next);
    this.changed();
  }

  end(kind: "text" | "reasoning", streamID: string): void {
    const part = this.open.get(`${kind}:${streamID}`);
    if (!part) return;
    this.open.delete(`${kind}:${streamID}`);
    const index = this.message.parts.indexOf(part);
    this.message.parts[index] = { ...part, time: { start: part.time?.start ?? Date.now(), end: Date.now() } };
    this.changed();
  }

  tool(providerCallID: string, tool: string, callID: string): void {
    this.message.parts.push({ id: this.newID(), messageID: this.message.id, type: "tool", providerCallID, callID, tool });
    this.changed();
  }

  /** Appends workbench-written text (not the model's). */
  synthetic(text: string): void {
    this.message.parts.push({ id: this.newID(), messageID: this.message.id, type: "text", text, synthetic: true });
    this.changed();
  }

  finishStep(reason: string, usage: LanguageModelUsage): void {
    const tokens = tokensOf(usage);
    const cost = costOf(tokens, this.info.cost);
    this.message.parts.push({ id: this.newID(), messageID: this.message.id, type: "step-finish", reason, tokens, cost });
    this.message.finish = reason;
    this.message.tokens = tokens;
    this.message.cost = cost;
    this.changed();
  }

  /** Closes any text still streaming (an abort or an error cut it short). */
  closeOpen(): void {
    for (const key of [...this.open.keys()]) {
      const [kind, id] = key.split(/:(.*)/s) as ["text" | "reasoning", string];
      this.end(kind, id);
    }
  }

  /** Starts the message over (a retry): what a failed attempt wrote is not the answer. */
  reset(): void {
    this.open.clear();
    this.message.parts.length = 0;
    this.message.tokens = emptyTokens();
    this.message.cost = 0;
    delete this.message.finish;
    this.changed();
  }
}
