/**
 * MultiOccurrence: oldString once per exact occurrence, for replaceAll. (Simple, tried first, finds the
 * same text, so this strategy never decides; it is kept for OpenCode's order.) An empty oldString would
 * occur everywhere, forever: it yields nothing.
 */
import type { Replacer } from "../types.js";

export const MultiOccurrenceReplacer: Replacer = function* multiOccurrence(content, find) {
  if (find === "") return;
  for (let at = content.indexOf(find); at !== -1; at = content.indexOf(find, at + find.length)) yield find;
};
