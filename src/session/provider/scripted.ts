/**
 * The scripted provider: a language model that replays the model's side of a recorded conversation
 * (reasoning, text, tool calls per step) through the real loop, so demos, share links, embeds and tests
 * run offline with real tool execution. Each model call takes the next step of the script; when the
 * script runs out, the model ends with an empty stop.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { z } from "zod";
import type { SessionRecord } from "../record/session-record.js";
import { ascendingId } from "../record/ids.js";

const ScriptToolCall = z.object({ tool: z.string(), input: z.record(z.string(), z.unknown()) });
export const ScriptStep = z.object({
  reasoning: z.string().optional(),
  text: z.string().optional(),
  toolCalls: z.array(ScriptToolCall).optional(),
  /** Defaults to tool-calls when the step calls tools, stop otherwise. */
  finish: z.enum(["stop", "length", "content-filter", "tool-calls", "error", "other"]).optional(),
  /** Tokens reported for the step; estimated from the prompt and the answer (4 characters a token) when absent. */
  usage: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).optional(),
});
export const Script = z.object({ version: z.literal(1), steps: z.array(ScriptStep) });
export type ScriptStep = z.infer<typeof ScriptStep>;
export type Script = z.infer<typeof Script>;

export interface ScriptedOptions {
  /** How fast text streams: 1 is a natural pace, 2 twice as fast, 0 instant. */
  speed?: number;
  modelId?: string;
}

/** Milliseconds between chunks at speed 1. */
const CHUNK_MS = 15;

/** Text as a model streams it: a few words at a time. */
export function chunkText(text: string): string[] {
  return (
    text.match(/\S+\s*|\s+/g)?.reduce<string[]>((chunks, word, index) => {
      if (index % 3 === 0) chunks.push(word);
      else chunks[chunks.length - 1] += word;
      return chunks;
    }, []) ?? []
  );
}

const estimate = (text: string) => Math.ceil(text.length / 4);

function usage(step: ScriptStep, options: LanguageModelV4CallOptions): LanguageModelV4Usage {
  const input = step.usage?.input ?? estimate(JSON.stringify(options.prompt));
  const output = step.usage?.output ?? estimate((step.reasoning ?? "") + (step.text ?? "") + JSON.stringify(step.toolCalls ?? []));
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function finishOf(step: ScriptStep) {
  return step.finish ?? ((step.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop");
}

export class ScriptedLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "scripted";
  readonly modelId: string;
  readonly supportedUrls = {};
  private next = 0;
  private readonly script: Script;

  constructor(
    script: Script,
    private readonly options: ScriptedOptions = {},
  ) {
    this.script = Script.parse(script);
    this.modelId = options.modelId ?? "script";
  }

  /** Model calls answered so far. */
  get calls(): number {
    return this.next;
  }

  private take(): ScriptStep {
    return this.script.steps[this.next++] ?? {};
  }

  private parts(step: ScriptStep, options: LanguageModelV4CallOptions): LanguageModelV4StreamPart[] {
    const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
    if (step.reasoning) {
      parts.push({ type: "reasoning-start", id: "r" });
      for (const delta of chunkText(step.reasoning)) parts.push({ type: "reasoning-delta", id: "r", delta });
      parts.push({ type: "reasoning-end", id: "r" });
    }
    if (step.text) {
      parts.push({ type: "text-start", id: "t" });
      for (const delta of chunkText(step.text)) parts.push({ type: "text-delta", id: "t", delta });
      parts.push({ type: "text-end", id: "t" });
    }
    for (const call of step.toolCalls ?? []) {
      const toolCallId = ascendingId("script");
      const input = JSON.stringify(call.input);
      parts.push({ type: "tool-input-start", id: toolCallId, toolName: call.tool });
      parts.push({ type: "tool-input-delta", id: toolCallId, delta: input });
      parts.push({ type: "tool-input-end", id: toolCallId });
      parts.push({ type: "tool-call", toolCallId, toolName: call.tool, input });
    }
    parts.push({ type: "finish", finishReason: { unified: finishOf(step), raw: finishOf(step) }, usage: usage(step, options) });
    return parts;
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const parts = this.parts(this.take(), options);
    const delay = this.options.speed ? CHUNK_MS / this.options.speed : 0;
    const signal = options.abortSignal;
    let index = 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async pull(controller) {
        if (signal?.aborted) return controller.error(signal.reason);
        if (delay > 0 && index > 0) await sleep(delay, signal).catch(() => undefined);
        if (signal?.aborted) return controller.error(signal.reason);
        const part = parts[index++];
        if (part) controller.enqueue(part);
        else controller.close();
      },
    });
    return { stream };
  }

  async doGenerate(options: LanguageModelV4CallOptions) {
    const step = this.take();
    const content: LanguageModelV4Content[] = [];
    if (step.reasoning) content.push({ type: "reasoning", text: step.reasoning });
    if (step.text) content.push({ type: "text", text: step.text });
    for (const call of step.toolCalls ?? []) {
      content.push({ type: "tool-call", toolCallId: ascendingId("script"), toolName: call.tool, input: JSON.stringify(call.input) });
    }
    return { content, finishReason: { unified: finishOf(step), raw: finishOf(step) }, usage: usage(step, options), warnings: [] };
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** Any session as a script: the model's side of each assistant message, one step each (summaries left out). */
export function scriptFromSession(record: SessionRecord): Script {
  const calls = new Map(record.calls.map((call) => [call.id, call]));
  const steps: ScriptStep[] = [];
  for (const message of record.messages) {
    if (message.role !== "assistant" || message.summary) continue;
    const step: ScriptStep = {};
    const join = (parts: string[]) => (parts.length > 0 ? parts.join("\n\n") : undefined);
    const reasoning = join(message.parts.flatMap((part) => (part.type === "reasoning" && part.text ? [part.text] : [])));
    const text = join(message.parts.flatMap((part) => (part.type === "text" && part.text && !part.synthetic ? [part.text] : [])));
    const toolCalls = message.parts.flatMap((part) =>
      part.type === "tool" ? [{ tool: part.tool, input: calls.get(part.callID)?.input ?? {} }] : [],
    );
    if (reasoning) step.reasoning = reasoning;
    if (text) step.text = text;
    if (toolCalls.length > 0) step.toolCalls = toolCalls;
    if (message.finish && message.finish !== "unknown") {
      const finish = ScriptStep.shape.finish.safeParse(message.finish);
      if (finish.success) step.finish = finish.data;
    }
    if (message.tokens.input > 0 || message.tokens.output > 0) step.usage = { input: message.tokens.input, output: message.tokens.output };
    steps.push(step);
  }
  return { version: 1, steps };
}
