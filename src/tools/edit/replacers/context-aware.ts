/**
 * ContextAware: first and last lines (trimmed) as anchors, a block of exactly oldString's line count, and
 * at least half of the non-empty middle lines equal after trimming. One block per first-line anchor: the
 * one closed by the first last-line anchor at least two lines below.
 */
import { indexLines, searchLines, sliceLines } from "../lines.js";
import type { Replacer } from "../types.js";

/** OpenCode's bar: half of the middle lines must be right. */
const CONTEXT_AWARE_MIN_EQUAL_SHARE = 0.5;

export const ContextAwareReplacer: Replacer = function* contextAware(content, find) {
  if (find.split("\n").length < 3) return;
  const search = searchLines(find).map((line) => line.trim());
  const index = indexLines(content);
  const trimmed = index.lines.map((line) => line.trim());
  const first = search[0]!;
  const last = search[search.length - 1]!;
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed[i] !== first) continue;
    for (let j = i + 2; j < trimmed.length; j++) {
      if (trimmed[j] !== last) continue;
      if (j - i + 1 === search.length) {
        let equal = 0;
        let nonEmpty = 0;
        for (let k = 1; k < search.length - 1; k++) {
          const fileLine = trimmed[i + k]!;
          const searchLine = search[k]!;
          if (fileLine.length === 0 && searchLine.length === 0) continue;
          nonEmpty++;
          if (fileLine === searchLine) equal++;
        }
        if (nonEmpty === 0 || equal / nonEmpty >= CONTEXT_AWARE_MIN_EQUAL_SHARE) yield sliceLines(content, index, i, j);
      }
      break;
    }
  }
};
