/**
 * How long to wait before retry `attempt` (1-based) of a retryable provider error. CONTRACT (the loop
 * calls this; the provider work fills it in).
 *
 * Without a retry-after: 2 s, doubling each attempt, at most 30 s (OpenCode's backoff). With one
 * (retry-after-ms or retry-after, in seconds or as an HTTP date), exactly what the provider asked for,
 * even beyond 30 s: retrying sooner only earns another 429. OpenCode also lifts the 30 s cap whenever an
 * error carries any response headers; here the cap always holds unless the provider named a time.
 */
import type { ClassifiedError } from "./errors.js";

export const RETRY_INITIAL_MS = 2_000;
export const RETRY_MAX_MS = 30_000;

export function retryDelayMs(attempt: number, error: ClassifiedError): number {
  if (error.retryAfterMs !== undefined) return Math.max(0, error.retryAfterMs);
  const step = Math.max(1, Math.floor(attempt));
  return Math.min(RETRY_INITIAL_MS * 2 ** (step - 1), RETRY_MAX_MS);
}
