/**
 * IndentationFlexible: oldString and a block of as many file lines match once each has lost its common
 * indentation, so the block may sit deeper or shallower as a whole but its inner structure must agree.
 * (LineTrimmed, tried earlier, already accepts these blocks, so in practice this one rarely decides.)
 */
import { indexLines, isBlank, leadingWhitespace, sliceLines } from "../lines.js";
import type { Replacer } from "../types.js";

/** Removes the smallest indentation of the non-blank lines (counted in characters) from every line. */
function removeCommonIndentation(text: string): string {
  const lines = text.split("\n");
  const indents = lines.filter((line) => !isBlank(line)).map((line) => leadingWhitespace(line).length);
  if (indents.length === 0) return text;
  const common = Math.min(...indents);
  return lines.map((line) => (isBlank(line) ? line : line.slice(common))).join("\n");
}

export const IndentationFlexibleReplacer: Replacer = function* indentationFlexible(content, find) {
  const wanted = removeCommonIndentation(find);
  const index = indexLines(content);
  const findLines = find.split("\n");
  const size = findLines.length;
  // Lines equal once their common indentation is gone are equal without their own indentation: a cheap
  // test that rules out almost every window before the real comparison is built.
  const bare = findLines.map((line) => line.trimStart());
  const fileBare = index.lines.map((line) => line.trimStart());
  for (let i = 0; i + size <= index.lines.length; i++) {
    let possible = true;
    for (let k = 0; k < size && possible; k++) possible = fileBare[i + k] === bare[k];
    if (!possible) continue;
    const block = sliceLines(content, index, i, i + size - 1);
    if (removeCommonIndentation(block) === wanted) yield block;
  }
};
