/**
 * What the loop needs from a provider: a language model (the AI SDK's interface, so a real provider
 * package, the scripted provider and a test mock are interchangeable) and what is known of it.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelRef } from "../record/message.js";

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
  /**
   * How a call to this model is made, from the provider config (resolveModel fills them in; a test model
   * may leave them out). The key under which `providerOptions` go: the package's own name ("openai" for
   * @ai-sdk/openai whatever the provider id), else the provider id.
   */
  providerOptionsKey?: string;
  /** `models.<id>.options`, sent as provider options (the agent's options go over them). */
  options?: Record<string, unknown>;
  /** False: the model takes no temperature, so none is sent. */
  temperature?: boolean;
  /** False: the model takes no tools, so none are offered. */
  toolCall?: boolean;
}
