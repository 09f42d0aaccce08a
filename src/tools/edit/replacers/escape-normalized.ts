/**
 * EscapeNormalized: the model wrote escape sequences where the file has the characters (`\n` for a line
 * break, `\"` for a quote: text copied out of a JSON or string-literal view). oldString is unescaped and
 * looked for as is, then compared with blocks of the file unescaped the same way.
 */
import { indexLines, sliceLines } from "../lines.js";
import type { Replacer } from "../types.js";

const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "'": "'",
  '"': '"',
  "`": "`",
  "\\": "\\",
  "\n": "\n",
  $: "$",
};

/** One pass, left to right, so `\\n` is a backslash followed by "n", not a line break. */
export function unescapeString(text: string): string {
  return text.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (match, escaped: string) => ESCAPES[escaped] ?? match);
}

export const EscapeNormalizedReplacer: Replacer = function* escapeNormalized(content, find) {
  const wanted = unescapeString(find);
  if (wanted !== "" && content.includes(wanted)) yield wanted;
  const index = indexLines(content);
  const size = wanted.split("\n").length;
  for (let i = 0; i + size <= index.lines.length; i++) {
    const block = sliceLines(content, index, i, i + size - 1);
    if (unescapeString(block) === wanted) yield block;
  }
};
