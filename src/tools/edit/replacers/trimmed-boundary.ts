/**
 * TrimmedBoundary: oldString carries whitespace at its ends that the file does not have there (a stray
 * leading space, an extra newline). Only when trimming changes oldString: the trimmed text as is, then
 * blocks of as many lines whose trimmed text equals it.
 */
import { indexLines, sliceLines } from "../lines.js";
import type { Replacer } from "../types.js";

export const TrimmedBoundaryReplacer: Replacer = function* trimmedBoundary(content, find) {
  const wanted = find.trim();
  if (wanted === find || wanted === "") return;
  if (content.includes(wanted)) yield wanted;
  const index = indexLines(content);
  const size = find.split("\n").length;
  for (let i = 0; i + size <= index.lines.length; i++) {
    const block = sliceLines(content, index, i, i + size - 1);
    if (block.trim() === wanted) yield block;
  }
};
