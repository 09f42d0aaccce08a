/**
 * LineTrimmed: the file's lines equal oldString's lines once both sides are trimmed, so indentation and
 * trailing spaces may differ. Yields the file's own lines (their real whitespace), without the newline
 * after the last one, for every window that matches.
 */
import { indexLines, searchLines, sliceLines } from "../lines.js";
import type { Replacer } from "../types.js";

export const LineTrimmedReplacer: Replacer = function* lineTrimmed(content, find) {
  const index = indexLines(content);
  const trimmed = index.lines.map((line) => line.trim());
  const wanted = searchLines(find).map((line) => line.trim());
  for (let i = 0; i + wanted.length <= trimmed.length; i++) {
    let matches = true;
    for (let j = 0; j < wanted.length && matches; j++) matches = trimmed[i + j] === wanted[j];
    if (matches) yield sliceLines(content, index, i, i + wanted.length - 1);
  }
};
