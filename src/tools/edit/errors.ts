/**
 * The errors `replace` throws, one kind each, worded as OpenCode words them where it has words, and each
 * telling the model what to do next: the closest lines when nothing matched, the places when several did,
 * the span when it was too large to trust.
 */
import { closestLines } from "./closest.js";
import type { LineRange, ReplacerName } from "./types.js";

export type EditMatchErrorKind = "identical" | "not-found" | "multiple" | "too-broad" | "empty" | "misremembered";

export const IDENTICAL_MESSAGE = "No changes to apply: oldString and newString are identical.";
export const NOT_FOUND_MESSAGE =
  "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.";
export const MULTIPLE_MESSAGE = "Found multiple matches for oldString. Provide more surrounding context to make the match unique.";
export const TOO_BROAD_MESSAGE =
  "Refusing replacement because the matched span is much larger than oldString. Re-read the file and provide the full exact oldString for the intended replacement.";
export const EMPTY_MESSAGE =
  "oldString is empty, so there is nothing to find. Provide the exact text to replace (an empty oldString only creates a new file).";
const MISREMEMBERED_MESSAGE =
  "Refusing the edit: oldString matched only loosely, and the change rewrites lines of oldString that are not in the file as written, so it cannot be made without guessing.";
const FILE_LINES_HEADING = "The file's lines (line numbers for reference, not part of the text):";
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
  return new EditMatchError("not-found", `${NOT_FOUND_MESSAGE}\n\n${CLOSEST_HEADING}\n${shown.join("\n")}`, [
    { start: closest.startLine, end: last },
  ]);
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

/** Lines of the matched span shown in a "misremembered" error at most. */
const SHOWN_SPAN_LINES = 30;

function numbered(firstLine: number, lines: readonly string[]): string {
  const width = String(firstLine + lines.length - 1).length + 1;
  return lines.map((line, i) => `${String(firstLine + i).padStart(width)}| ${line}`).join("\n");
}

/**
 * The change touches lines of oldString (`wrong`: 1-based in oldString, with their file line when paired)
 * that differ from the file. Shows the span's real lines so the next oldString can be copied exactly.
 */
export function misrememberedError(
  strategy: ReplacerName,
  startLine: number,
  spanLines: readonly string[],
  wrong: ReadonlyArray<{ readonly model: number; readonly file: number | undefined }>,
): EditMatchError {
  const which = wrong
    .map(({ model, file }) =>
      file === undefined
        ? `oldString line ${model} has no counterpart in the file`
        : `oldString line ${model} differs from file line ${file}`,
    )
    .join("; ");
  const endLine = startLine + spanLines.length - 1;
  // Long spans: the lines from a little before the first wrong line.
  const firstWrong = wrong.find((w) => w.file !== undefined)?.file ?? startLine;
  const from =
    spanLines.length <= SHOWN_SPAN_LINES ? 0 : Math.max(0, Math.min(firstWrong - startLine - 3, spanLines.length - SHOWN_SPAN_LINES));
  const shown = spanLines.slice(from, from + SHOWN_SPAN_LINES).map((line) => (line.length > 200 ? `${line.slice(0, 200)}…` : line));
  const message = [
    `${MISREMEMBERED_MESSAGE} (The ${strategy} strategy matched lines ${range({ start: startLine, end: endLine })}.)`,
    `${which}.`,
    "",
    FILE_LINES_HEADING,
    numbered(startLine + from, shown),
    "",
    "Copy oldString exactly from these lines and send the edit again.",
  ].join("\n");
  return new EditMatchError("misremembered", message, [{ start: startLine, end: endLine }]);
}
