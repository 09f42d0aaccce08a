/**
 * What the loop needs from a provider: a language model (the AI SDK's interface, so a real provider
 * package, the scripted provider and a test mock are interchangeable) and what is known of it.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelRef } from "../message.js";

export interface ModelInfo extends ModelRef {
  name: string;
  /** Tokens: the context window and the most the model writes in one step (0: unknown). */
  limit: { context: number; output: number };
  /** US dollars per million tokens. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** Takes images (and other files) in user messages. */
  attachment: boolean;
  /** Streams reasoning. */
  reasoning: boolean;
}

export interface ResolvedModel {
  info: ModelInfo;
  language: LanguageModelV4;
}
