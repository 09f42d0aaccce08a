/**
 * The errors a search can end with. Kept apart from the engine so code that only needs to recognise
 * them (the page side of the search worker) does not load the regex engine with them.
 */

/** A pattern ripgrep's regex dialect cannot parse (or does not support). */
export class SearchPatternError extends Error {
  constructor(
    message: string,
    /** The short reason, e.g. "unclosed group" or "look-around, ... is not supported". */
    readonly reason: string,
    readonly pattern: string,
  ) {
    super(message);
    this.name = "SearchPatternError";
  }
}

/** A --glob that does not parse. */
export class GlobError extends Error {
  constructor(
    readonly glob: string,
    readonly reason: string,
  ) {
    super(`error parsing glob '${glob}': ${reason}`);
    this.name = "GlobError";
  }
}

/** What a search throws once its signal is aborted: the signal's own reason when it is an Error. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error("The search was aborted");
  error.name = "AbortError";
  return error;
}

/** A search that ran past its deadline (SEARCH_DEADLINE_MS, or the caller's own). */
export class SearchDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(
      `The search was stopped after ${Math.round(deadlineMs / 1000)} s. Its pattern is too costly for these files: search for a shorter or simpler pattern (fewer counted repetitions like {1000}), or in fewer files.`,
    );
    this.name = "SearchDeadlineError";
  }
}
