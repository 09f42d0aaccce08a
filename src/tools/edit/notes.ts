/**
 * The line or two the edit tools add to their output after a fuzzy match, so the model learns where its
 * picture of the file was off and copies exactly next time.
 */
import type { ReplaceResult } from "./types.js";

/** Line numbers listed at most. */
const LISTED = 6;

function list(numbers: ReadonlyArray<number | string>): string {
  const shown = numbers.slice(0, LISTED).join(", ");
  return numbers.length > LISTED ? `${shown} and ${numbers.length - LISTED} more` : shown;
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** Empty for an exact match. `subject` names the edit ("oldString", "edit 2's oldString"). */
export function describeMatch(result: ReplaceResult, subject = "oldString"): string {
  if (!result.fuzzy) return "";
  const where = result.startLine === result.endLine ? `line ${result.startLine}` : `lines ${result.startLine}-${result.endLine}`;
  const head = `(${subject} did not match exactly; matched ${where} with the ${result.strategy} strategy, and the change was made on the file's own lines.`;
  const wrong = result.differing.filter((line) => !line.cosmetic);
  const cosmetic = result.differing.filter((line) => line.cosmetic);
  const parts: string[] = [];
  if (wrong.length > 0) {
    const pairs = wrong.map((line) =>
      line.file === undefined ? `${line.model} (not in the file)` : `${line.model} (file line ${line.file})`,
    );
    parts.push(
      `Your ${plural(wrong.length, "line", "lines")} ${list(pairs)} ${plural(wrong.length, "is", "are")} not what the file has; the file's text was kept.`,
    );
  }
  if (cosmetic.length > 0) {
    const numbers = cosmetic.map((line) => line.model);
    parts.push(
      `Your ${plural(numbers.length, "line", "lines")} ${list(numbers)} differ${numbers.length === 1 ? "s" : ""} only in whitespace, escapes or punctuation.`,
    );
  }
  return parts.length === 0 ? `${head})` : `${head}\n${parts.join(" ")})`;
}
