/**
 * WhitespaceNormalized: every run of whitespace counts as one space and the ends are trimmed. A whole line
 * can match; a part of a line can match (found by a regex of oldString's words joined by `\s+`, so the
 * file's own spacing is what gets replaced); and a block of as many lines as oldString can match.
 */
import { indexLines, sliceLines } from "../lines.js";
import type { Replacer } from "../types.js";

function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export const WhitespaceNormalizedReplacer: Replacer = function* whitespaceNormalized(content, find) {
  const wanted = normalizeWhitespace(find);
  if (wanted === "") return;
  const index = indexLines(content);
  const words = find.trim().split(/\s+/);
  // Built once: a sequence of literal words separated by whitespace runs cannot backtrack badly.
  const pattern = new RegExp(words.map(escapeRegExp).join("\\s+"));
  const normalizedLines = index.lines.map(normalizeWhitespace);
  for (const [i, line] of index.lines.entries()) {
    const normalized = normalizedLines[i]!;
    if (normalized === wanted) {
      yield line;
    } else if (normalized.includes(wanted)) {
      const match = pattern.exec(line);
      if (match) yield match[0];
    }
  }
  const size = find.split("\n").length;
  if (size < 2) return;
  // A block normalizes to its lines' normalized texts, the empty ones left out, joined by single spaces.
  for (let i = 0; i + size <= index.lines.length; i++) {
    let joined = "";
    for (let k = i; k < i + size; k++) {
      const part = normalizedLines[k]!;
      if (part !== "") joined = joined === "" ? part : `${joined} ${part}`;
      if (!wanted.startsWith(joined)) break;
    }
    if (joined === wanted) yield sliceLines(content, index, i, i + size - 1);
  }
};
