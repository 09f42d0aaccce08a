/**
 * A command as the shell will run it, for matching rules: the words after quote removal and escapes (`"git"
 * co''mmit`, `g\it commit`, `git $'commit'` are all `git commit`), one space between words however they were
 * spaced or continued over lines, and the command name by its base name (`/bin/rm` is `rm`). A rule written
 * for `rm *` then meets every spelling of rm, not only the one it was typed with.
 *
 * When the words that name the command (its arity prefix: `git commit`, `npm run dev`) are not known before
 * running (`$CMD x`, `$(echo rm) x`, `${R:-rm} x`, `git "$SUB"`, a glob or brace expansion as the name),
 * there is no reading to match: the command is "unresolved" and asks (see permission/unresolved.ts).
 */
import type { Node } from "web-tree-sitter";
import { bashArityPrefix } from "./arity.js";
import { evaluateWord, hasGlob, pathExpansion, textOf } from "./words.js";

export type Reading = { known: true; text: string; prefix: string[] } | { known: false; why: string };

const NEVER_A_COMMAND = "\u0000";

export function shellReading(tokens: readonly Node[]): Reading {
  const words: (string | null)[] = tokens.map((token, i) => {
    const value = evaluateWord(token);
    if (!value.known) return null;
    // Only the name is looked up as a command; an argument's glob is just passed on (to the rule, as written).
    if (i === 0 && (hasGlob(value.chars) || pathExpansion(value.chars) === "a brace expansion")) return null;
    return textOf(value.chars);
  });
  const name = words[0];
  if (name === null || name === undefined) return { known: false, why: "the command name is made when it runs" };
  words[0] = name.includes("/") ? name.slice(name.lastIndexOf("/") + 1) : name;
  if (words[0] === "") return { known: false, why: "the command name is made when it runs" };
  const lookup = words.map((w) => w ?? NEVER_A_COMMAND);
  const prefix = bashArityPrefix(lookup);
  if (prefix.includes(NEVER_A_COMMAND)) return { known: false, why: "a word naming the command is made when it runs" };
  return { known: true, text: words.map((w, i) => w ?? tokens[i]!.text).join(" "), prefix };
}
