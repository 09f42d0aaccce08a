/**
 * How long to wait before retry `attempt` (1-based) of a retryable provider error: 2 s doubling, at most
 * 30 s, or what the provider asked for (retry-after). CONTRACT (the loop calls this; the provider work
 * fills it in).
 */
import type { ClassifiedError } from "./errors.js";

export function retryDelayMs(attempt: number, error: ClassifiedError): number {
  return error.retryAfterMs ?? Math.min(2000 * 2 ** (attempt - 1), 30_000);
}
