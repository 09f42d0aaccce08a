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

export type Reading =
  | { known: true; text: string; prefix: string[]; also: { text: string; prefix: string[] }[] }
  | { known: false; why: string };

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
  const written = words.map((w, i) => w ?? tokens[i]!.text);
  const main = readingOf(words, written);
  if (!main) return { known: false, why: "a word naming the command is made when it runs" };
  const also: { text: string; prefix: string[] }[] = [];
  if (words[0] === "git") {
    const kept = gitWithoutGlobals(words);
    if (kept === "unresolved") return { known: false, why: "a git -c option may rename the command" };
    if (kept) {
      const stripped = readingOf(
        kept.map((i) => words[i]!),
        kept.map((i) => written[i]!),
      );
      if (!stripped) return { known: false, why: "a word naming the command is made when it runs" };
      also.push(stripped);
    }
  }
  return { known: true, ...main, also };
}

function readingOf(words: readonly (string | null)[], written: readonly string[]): { text: string; prefix: string[] } | null {
  const prefix = bashArityPrefix(words.map((w) => w ?? NEVER_A_COMMAND));
  return prefix.includes(NEVER_A_COMMAND) ? null : { text: written.join(" "), prefix };
}

const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"]);

/**
 * Settings a `git -c` may give without changing which command runs. Any other (`alias.*`, `core.pager`,
 * `core.sshCommand`, `credential.helper`, a filter or diff driver...) can make git run arbitrary text.
 */
const HARMLESS_GIT_SETTING =
  /^(user|author|committer|color|advice|init|pull|push|log|format|status|fetch|i18n|column|branch|help)\.|^(safe\.directory|gc\.auto|maintenance\.auto|core\.(autocrlf|quotepath|filemode|ignorecase|longpaths|safecrlf|eol|abbrev|precomposeunicode)|commit\.(gpgsign|verbose|cleanup|status)|merge\.(ff|conflictstyle)|rebase\.(autosquash|autostash|updaterefs)|diff\.(renames|algorithm|noprefix|mnemonicprefix))=/i;

/**
 * `git -C dir -c k=v --no-pager commit` is `git commit` to a rule: the indexes of the words left once git's
 * own options before the subcommand are dropped, or null when there are none. A `-c` that may make git run
 * other text (an alias, a pager, a helper; or one not known before running) cannot be read: "unresolved".
 */
function gitWithoutGlobals(words: readonly (string | null)[]): number[] | "unresolved" | null {
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word === null || word === undefined || !word.startsWith("-")) break;
    const option = word.split("=", 1)[0]!;
    const value =
      word.includes("=") && option.startsWith("--") ? word.slice(option.length + 1) : GIT_VALUED.has(word) ? words[++i] : undefined;
    if (option === "-c" || option === "--config-env") {
      if (value === null || value === undefined || !HARMLESS_GIT_SETTING.test(value)) return "unresolved";
    }
  }
  return i === 1 ? null : [0, ...words.slice(i).map((_, k) => i + k)];
}
