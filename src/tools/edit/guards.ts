/**
 * The safe policy's judgement of a fuzzy candidate before it is applied. Normalizing strategies match text
 * that equals oldString up to whitespace or escapes, so they can only fail the size backstop. Anchored
 * strategies (BlockAnchor, ContextAware) choose a span by its first and last lines alone: the span must
 * hold as many non-blank lines as oldString (every extra line is one the model never quoted and would be
 * deleted), and each middle line must resemble the line the model wrote for it.
 */
import { inkLength, isBlank, searchLines } from "./lines.js";
import { lineSimilarity } from "./levenshtein.js";
import { SAFE_BLOCK_ANCHOR_THRESHOLD, SAFE_INK_SLACK, SAFE_MAX_INK_RATIO, SAFE_MIDDLE_LINE_SIMILARITY } from "./policy.js";
import type { ReplacerName } from "./types.js";

export type SpanVerdict =
  | { readonly ok: true }
  /** "too-broad": larger than oldString; "mismatch": does not look like it (treated as not found). */
  | { readonly ok: false; readonly reason: "too-broad" | "mismatch" };

const ANCHORED: ReadonlySet<ReplacerName> = new Set<ReplacerName>(["BlockAnchor", "ContextAware"]);

export function judgeSpan(strategy: ReplacerName, span: string, oldString: string): SpanVerdict {
  if (inkLength(span) > inkLength(oldString) * SAFE_MAX_INK_RATIO + SAFE_INK_SLACK) return { ok: false, reason: "too-broad" };
  if (!ANCHORED.has(strategy)) return { ok: true };
  const wanted = searchLines(oldString)
    .filter((line) => !isBlank(line))
    .map((line) => line.trim());
  const found = span
    .split("\n")
    .filter((line) => !isBlank(line))
    .map((line) => line.trim());
  if (found.length > wanted.length) return { ok: false, reason: "too-broad" };
  if (found.length < wanted.length) return { ok: false, reason: "mismatch" };
  // Every line must resemble its counterpart; the middle ones (the anchors match by construction) must
  // also reach the BlockAnchor threshold on average, as ContextAware's half-equal rule alone would not.
  let middle = 0;
  for (let k = 0; k < wanted.length; k++) {
    const score = lineSimilarity(found[k]!, wanted[k]!);
    if (score < SAFE_MIDDLE_LINE_SIMILARITY) return { ok: false, reason: "mismatch" };
    if (k > 0 && k < wanted.length - 1) middle += score;
  }
  const middleLines = wanted.length - 2;
  if (middleLines > 0 && middle / middleLines < SAFE_BLOCK_ANCHOR_THRESHOLD) return { ok: false, reason: "mismatch" };
  return { ok: true };
}
