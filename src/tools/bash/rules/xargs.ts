/** `xargs cmd...`: the command it runs is a command of its own; its extra arguments come from input, unknown. */
import { PATH_COMMANDS, SHELLS, WRAPPERS } from "../commands.js";
import { steady } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

export const xargsRule: CommandRule = {
  names: ["xargs"],
  async run(walker, context, _name, args) {
    let i = 0;
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word === null) return walker.unknownCommand(context, args.slice(i), args[i]!.text);
      if (word === "--") {
        i++;
        break;
      }
      if (word.startsWith("--arg-file=")) await walker.paths.text(context, word.slice("--arg-file=".length), args[i]!.text, "file");
      if (word.startsWith("--")) continue;
      if (!word.startsWith("-") || word.length === 1) break;
      const letter = word[1]!;
      // These take a value, glued (`-n1`) or as the next word (`-n 1`); `-a` names the file to read.
      if (!"aEILnPsd".includes(letter)) continue;
      const value = word.length > 2 ? word.slice(2) : args[++i] ? literal(args[i]!) : null;
      if (letter === "a" && value !== null) await walker.paths.text(context, value, word, "file");
    }
    const rest = args.slice(i);
    const first = rest[0];
    if (!first) return steady(context.cwds);
    const inner = literal(first);
    if (
      inner === null ||
      PATH_COMMANDS.has(inner) ||
      SHELLS.has(inner) ||
      inner === "eval" ||
      inner === "source" ||
      inner === "find" ||
      Object.hasOwn(WRAPPERS, inner)
    ) {
      walker.paths.unresolved({
        command: context.text,
        argument: context.text,
        why: "xargs adds arguments from its input, which are not known before it runs",
      });
    }
    // The command xargs runs is a pattern too, so `xargs git commit` meets the rules for `git commit`.
    walker.addBashPattern(context.statement, first.startIndex, rest);
    if (inner !== null) await walker.effective(context, inner, rest.slice(1));
    return steady(context.cwds);
  },
};
