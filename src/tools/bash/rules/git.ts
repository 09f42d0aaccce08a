/**
 * git: options and variables that make it run a command of the line's choosing ask. Before the
 * subcommand, `-c key=value` and `--config-env` for any key but a few that only change output or
 * identity (a key may name a program: core.sshCommand, core.fsmonitor, core.pager, `alias.x=!cmd`,
 * credential.helper, protocol.ext.allow, diff.external, filters, hooks...), and `--exec-path`. After it,
 * the remote programs: clone's `-u`/`--upload-pack`, fetch, pull and ls-remote's `--upload-pack`, push's
 * `--receive-pack`/`--exec`, archive's `--exec`. And `GIT_SSH_COMMAND` and the other variables naming a
 * program or a config when the line sets them. What git then touches is not known before it runs.
 */
import type { Node } from "web-tree-sitter";
import { literal } from "../words.js";
import { lineSets } from "./assigned.js";
import { findOption, isLong } from "./options.js";
import { otherProgram } from "./program.js";
import type { CommandContext, CommandRule, Walker } from "./rule.js";

// Keys that change what git prints or who commits, and run nothing.
const HARMLESS_KEY =
  /^(user\.(name|email)|author\.(name|email)|committer\.(name|email)|color\.[\w.-]+|advice\.[\w-]+|core\.(quotepath|autocrlf|safecrlf|filemode|ignorecase|precomposeunicode|abbrev)|init\.defaultbranch|commit\.gpgsign|tag\.gpgsign|log\.[\w-]+|column\.ui|pull\.(rebase|ff)|merge\.conflictstyle|diff\.(noprefix|renames|algorithm|mnemonicprefix)|status\.[\w-]+|i18n\.[\w-]+)$/i;

const PROGRAM_VARIABLES = [
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_PROXY_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "GIT_EXEC_PATH",
  "GIT_TEMPLATE_DIR",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_PARAMETERS",
  "GIT_DIR",
];

// Global options that take the next word as their value when not written `--name=value`.
const GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"]);

const REMOTE_PROGRAM: Record<string, { letters: string; long: string[] }> = {
  clone: { letters: "u", long: ["--upload-pack"] },
  fetch: { letters: "", long: ["--upload-pack"] },
  pull: { letters: "", long: ["--upload-pack"] },
  "ls-remote": { letters: "", long: ["--upload-pack"] },
  push: { letters: "", long: ["--receive-pack", "--exec"] },
  archive: { letters: "", long: ["--exec"] },
};

export const gitRule: CommandRule = {
  names: ["git"],
  async run(walker, context, name, args) {
    judgeGit(walker, context, args);
    return otherProgram(walker, context, name, args);
  },
};

function judgeGit(walker: Walker, context: CommandContext, args: Node[]): void {
  const words = args.map(literal);
  let i = 0;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word === null || word === undefined)
      return walker.unjudgeable(context, "git is given an option not known before it runs", args[i]!.text);
    if (!word.startsWith("-")) break;
    if (word === "-c" || word.startsWith("--config-env")) {
      const setting = word === "-c" || word === "--config-env" ? words[i + 1] : word.slice("--config-env=".length);
      const key = setting?.split("=")[0] ?? null;
      const shown = setting === undefined || setting === null ? word : `${word} ${setting}`;
      if (word.startsWith("--config-env") || key === null || !HARMLESS_KEY.test(key)) {
        return walker.unjudgeable(
          context,
          "git -c can make git run a command (core.sshCommand, core.fsmonitor, an alias, a helper)",
          shown,
        );
      }
    }
    if (isLong(word, ["--exec-path"]) && word.includes("=")) {
      return walker.unjudgeable(context, "git --exec-path runs its subcommands from that folder", word);
    }
    if (GLOBAL_WITH_VALUE.has(word)) i++;
  }
  const subcommand = words[i];
  const remote = typeof subcommand === "string" ? REMOTE_PROGRAM[subcommand] : undefined;
  if (remote) {
    const at = findOption(words.slice(i + 1), remote.letters, remote.long);
    if (at >= 0) {
      return walker.unjudgeable(context, `git ${subcommand} runs the program this option names`, args[i + 1 + at]!.text);
    }
  }
  const set = lineSets(context, PROGRAM_VARIABLES);
  if (set) walker.unjudgeable(context, `git runs a program or reads a config named by $${set}, which this line sets`);
}
