/**
 * PunctuationNormalized (ours, not OpenCode's): the file's lines equal oldString's once both are trimmed
 * and typographic punctuation is made ASCII, so a file with ’ “ ” — where the model typed ' " - still
 * matches line for line. Yields the file's own lines. Only the safe policy uses it, after LineTrimmed:
 * the change is then made on the file's lines, so the file keeps its punctuation where the model did not
 * edit.
 */
import { indexLines, searchLines, sliceLines } from "../lines.js";
import { normalizePunctuation } from "../punctuation.js";
import type { Replacer } from "../types.js";

const NON_ASCII = /[^\u0000-\u007f]/;

export const PunctuationNormalizedReplacer: Replacer = function* punctuationNormalized(content, find) {
  const wanted = searchLines(find).map((line) => normalizePunctuation(line.trim()));
  // Nothing beyond ASCII on either side: LineTrimmed, tried before, already decided.
  if (!NON_ASCII.test(content) && !NON_ASCII.test(find)) return;
  const index = indexLines(content);
  const keys = index.lines.map((line) => normalizePunctuation(line.trim()));
  for (let i = 0; i + wanted.length <= keys.length; i++) {
    let matches = true;
    for (let j = 0; j < wanted.length && matches; j++) matches = keys[i + j] === wanted[j];
    if (matches) yield sliceLines(content, index, i, i + wanted.length - 1);
  }
};
