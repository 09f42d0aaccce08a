/**
 * Provider errors as the person should see them: what happened (bad key, no credit, model not found,
 * context too long, network down, CORS refused, rate limited, server error) and what to do, and
 * whether the loop may retry. CONTRACT (the loop calls this; the provider work fills it in).
 */
import type { MessageError } from "../message.js";

export interface ClassifiedError extends MessageError {
  /** 429 and 5xx: the loop waits and tries again. Never a 401. */
  retryable: boolean;
  /** From retry-after-ms / retry-after, when the provider sent them. */
  retryAfterMs?: number;
  /** The conversation is longer than the model's window: compact, do not retry. */
  contextOverflow: boolean;
}

export function classifyProviderError(error: unknown): ClassifiedError {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "unknown", message, retryable: false, contextOverflow: false };
}
