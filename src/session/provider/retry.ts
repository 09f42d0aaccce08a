/**
 * How long to wait before retry `attempt` (1-based) of a retryable provider error. CONTRACT (the loop
 * calls this; the provider work fills it in).
 *
 * Without a retry-after: 2 s, doubling each attempt, at most 30 s (OpenCode's backoff). With one
 * (retry-after-ms or retry-after, in seconds or as an HTTP date), exactly what the provider asked for,
 * even beyond 30 s: retrying sooner only earns another 429. OpenCode also lifts the 30 s cap whenever an
 * error carries any response headers; here the cap always holds unless the provider named a time.
 *
 * A provider asking for more than RETRY_MAX_WAIT_MS (10 minutes) is not waited for: the run fails and
 * says how long the provider asked for, so nobody watches a countdown of hours (and a timer never gets
 * a delay past what setTimeout can hold, TIMER_MAX_MS, which it would turn into an immediate retry).
 */
import type { ClassifiedError } from "./errors.js";

const RETRY_INITIAL_MS = 2_000;
const RETRY_MAX_MS = 30_000;
export const RETRY_MAX_WAIT_MS = 10 * 60_000;
/** The longest delay setTimeout takes; anything longer fires at once. */
export const TIMER_MAX_MS = 2 ** 31 - 1;

export function retryDelayMs(attempt: number, error: ClassifiedError): number {
  if (error.retryAfterMs !== undefined) return Math.max(0, error.retryAfterMs);
  const step = Math.max(1, Math.floor(attempt));
  return Math.min(RETRY_INITIAL_MS * 2 ** (step - 1), RETRY_MAX_MS);
}

/**
 * Retries of one step for this error: a rate limit is the provider asking for patience, so it gets the
 * whole `maxRetries`; a server error, a stalled answer or a dropped connection rarely mends itself within
 * a minute, so they stop after SERVER_MAX_RETRIES (2 + 4 + 8 s of waiting) and the person hears of it.
 */
const SERVER_MAX_RETRIES = 3;

export function retryLimit(error: ClassifiedError, maxRetries: number): number {
  return error.kind === "rate" ? maxRetries : Math.min(maxRetries, SERVER_MAX_RETRIES);
}

/** "90 s", "45 min", "27.8 h", "1157 days": how long a provider asked to wait, for a person. */
function waitLabel(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 120) return `${Math.ceil(seconds)} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

/** Why the loop stopped retrying a retryable error, as the hint the person reads instead of "Waiting and retrying". */
export function gaveUpHint(reason: { tooLong: number } | { attempts: number }): string {
  if ("tooLong" in reason)
    return `The provider asked to wait ${waitLabel(reason.tooLong)} before retrying (more than ${waitLabel(RETRY_MAX_WAIT_MS)}); try again later.`;
  return `Gave up after ${reason.attempts} attempts; try again later, or check the provider's status page.`;
}
