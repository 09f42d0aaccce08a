/** What a caller may ask of truncation, and the checked, defaulted form the algorithms work with. */
import { MAX_BYTES, MAX_LINES } from "./constants.js";

/** head keeps the beginning (most tools); tail keeps the end (where a log's error usually is). */
export type TruncationDirection = "head" | "tail";

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
  direction?: TruncationDirection;
}

/**
 * What the hint may suggest. OpenCode offers the Task tool when the calling agent may use it (its
 * permission for `task` is not "deny"); the session knows that, truncation does not, so it is passed in.
 */
export interface TruncationHint {
  taskAvailable: boolean;
}

export interface TruncationLimits {
  maxLines: number;
  maxBytes: number;
  direction: TruncationDirection;
}

function checkLimit(name: string, value: number): number {
  // NaN or a negative limit would make every comparison false and quietly keep everything or nothing.
  if (!(value >= 0) || (!Number.isInteger(value) && value !== Number.POSITIVE_INFINITY)) {
    throw new RangeError(`truncation ${name} must be a whole number of 0 or more, got ${value}`);
  }
  return value;
}

export function resolveLimits(options: TruncationOptions = {}): TruncationLimits {
  const direction = options.direction ?? "head";
  if (direction !== "head" && direction !== "tail") {
    throw new RangeError(`truncation direction must be "head" or "tail", got ${String(direction)}`);
  }
  return {
    maxLines: checkLimit("maxLines", options.maxLines ?? MAX_LINES),
    maxBytes: checkLimit("maxBytes", options.maxBytes ?? MAX_BYTES),
    direction,
  };
}
