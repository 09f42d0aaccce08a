/**
 * The errors `replace` throws, one kind each, worded as OpenCode words them where it has words, and each
 * telling the model what to do next: the closest lines when nothing matched, the places when several did,
 * the span when it was too large to trust.
 */
import { closestLines } from "./closest.js";
import type { LineRange, ReplacerName } from "./types.js";

export type EditMatchErrorKind = "identical" | "not-found" | "multiple" | "too-broad" | "empty";

export const IDENTICAL_MESSAGE = "No changes to apply: oldString and newString are identical.";
export const NOT_FOUND_MESSAGE =
  "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.";
export const MULTIPLE_MESSAGE = "Found multiple matches for oldString. Provide more surrounding context to make the match unique.";
export const TOO_BROAD_MESSAGE =
  "Refusing replacement because the matched span is much larger than oldString. Re-read the file and provide the full exact oldString for the intended replacement.";
export const EMPTY_MESSAGE = "oldString is empty, so there is nothing to find. Provide the exact text to replace (an empty oldString only creates a new file).";
export const CLOSEST_HEADING = "The closest lines in the file (line numbers for reference, not part of the text):";

/** Places listed in a "multiple" error at most. */
const LISTED_MATCHES = 10;

export class EditMatchError extends Error {
  override readonly name = "EditMatchError";
  readonly kind: EditMatchErrorKind;
  /** Where oldString matched (for "multiple" and "too-broad"), or the closest lines (for "not-found"). */
  readonly lines: readonly LineRange[];

  constructor(kind: EditMatchErrorKind, message: string, lines: readonly LineRange[] = []) {
    super(message);
    this.kind = kind;
    this.lines = lines;
  }
}

function range({ start, end }: LineRange): string {
  return start === end ? `${start}` : `${start}-${end}`;
}

export function notFoundError(content: string, oldString: string): EditMatchError {
  const closest = closestLines(content, oldString);
  if (!closest) return new EditMatchError("not-found", NOT_FOUND_MESSAGE);
  const last = closest.startLine + closest.lines.length - 1;
  const width = String(last).length + 1;
  const shown = closest.lines.map((line, i) => `${String(closest.startLine + i).padStart(width)}| ${line}`);
  return new EditMatchError("not-found", `${NOT_FOUND_MESSAGE}\n\n${CLOSEST_HEADING}\n${shown.join("\n")}`, [{ start: closest.startLine, end: last }]);
}

/** `capped`: the matches were counted up to a limit, so there may be more than listed. */
export function multipleError(matches: readonly LineRange[], capped = false): EditMatchError {
  const listed = matches.slice(0, LISTED_MATCHES).map(range).join(", ");
  const more = matches.length > LISTED_MATCHES ? ` and ${capped ? "at least " : ""}${matches.length - LISTED_MATCHES} more` : "";
  return new EditMatchError("multiple", `${MULTIPLE_MESSAGE}\n\nIt matches at lines ${listed}${more}.`, matches);
}

export function tooBroadError(strategy: ReplacerName, span: LineRange, oldLines: number): EditMatchError {
  const spanLines = span.end - span.start + 1;
  const detail = `The ${strategy} strategy matched lines ${range(span)} (${spanLines} line${spanLines === 1 ? "" : "s"}) for an oldString of ${oldLines} line${oldLines === 1 ? "" : "s"}.`;
  return new EditMatchError("too-broad", `${TOO_BROAD_MESSAGE}\n\n${detail}`, [span]);
}
