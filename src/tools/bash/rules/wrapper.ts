/**
 * Wrappers (`sudo`, `env`, `nice`, `timeout`, `command`, `time`...; the table is WRAPPERS in ../commands.ts):
 * their own options are skipped, their own words judged, and the command they run gets its own rules and
 * its own pattern, so `sudo rm -rf x` meets the rules written for `rm`.
 */
import { IN_THIS_SHELL, PATH_COMMANDS, SHELLS, WRAPPERS } from "../commands.js";
import { judgeArguments } from "../arguments.js";
import { steady } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

/** Words that open a compound command (bash reserved words). */
const RESERVED_WORDS: ReadonlySet<string> = new Set(["{", "!", "[[", "if", "for", "while", "until", "case", "select", "function"]);

export const wrapperRule: CommandRule = {
  names: Object.keys(WRAPPERS),
  async run(walker, context, name, args) {
    const wrapper = WRAPPERS[name]!;
    let i = 0;
    let positional = wrapper.positional ?? 0;
    let chdir = false;
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word === null) {
        // `sudo $OPTS rm ...` or `env $CMD`: the unknown word may be the command itself.
        return walker.unknownCommand(context, args.slice(i), args[i]!.text);
      }
      if (word === "--") {
        i++;
        break;
      }
      if (word.startsWith("--")) {
        const [option] = word.split("=", 1) as [string];
        if (wrapper.chdir?.long.includes(option)) chdir = true;
        if (wrapper.splitsString?.long.includes(option)) return walker.unknownCommand(context, args.slice(i), args[i]!.text);
        if (!word.includes("=") && wrapper.valuedLong?.includes(option)) i++;
        continue;
      }
      if (word.startsWith("-") && word.length > 1) {
        const letters = word.slice(1);
        for (let j = 0; j < letters.length; j++) {
          const letter = letters[j]!;
          // `command -v x` only says what x is; it runs nothing.
          if (name === "command" && (letter === "v" || letter === "V")) return steady(context.cwds);
          if (wrapper.chdir?.short.includes(letter)) chdir = true;
          if (wrapper.splitsString?.short.includes(letter)) return walker.unknownCommand(context, args.slice(i), args[i]!.text);
          if (wrapper.valued.includes(letter)) {
            if (j === letters.length - 1) i++;
            break;
          }
        }
        continue;
      }
      if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
      if (positional > 0) {
        positional--;
        continue;
      }
      break;
    }
    // The wrapper's own words may name files too (`flock /tmp/lock cmd`, `strace -o ../log cmd`); an
    // environment assignment (`env PATH=/bin`) opens nothing.
    const own = args.slice(0, i).filter((a) => !(wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(literal(a) ?? "")));
    await judgeArguments(walker.paths, walker.argumentContext(context), name, own);
    const rest = args.slice(i);
    const inner = rest[0];
    if (!inner) return steady(context.cwds);
    // `time` and `coproc` are reserved words that tree-sitter reads as commands, so `time { rm x; }` comes out
    // as the command `time {` ... and a command `}`. Bash runs the compound command: read it again from there.
    const innerWord = literal(inner);
    if ((name === "time" || name === "coproc") && innerWord !== null && RESERVED_WORDS.has(innerWord)) {
      return walker.nested(context, inner.tree.rootNode.text.slice(inner.startIndex), name === "time");
    }
    // The wrapped command alone is also a pattern, so `sudo rm -rf x` meets the rules written for `rm`.
    walker.addBashPattern(context.statement, inner.startIndex, rest);
    const innerContext = chdir ? { ...context, cwds: [{ unknown: `${name} runs the command in another folder` }] } : context;
    const innerName = literal(inner);
    if (innerName === null) return walker.unknownCommand(innerContext, rest, inner.text);
    const flow = await walker.effective(innerContext, innerName, rest.slice(1));
    // Options we misread could hide the real command further on: any word naming a command that touches
    // paths is also read as the start of the command.
    for (let k = 1; k < rest.length; k++) {
      const word = literal(rest[k]!);
      if (word !== null && (PATH_COMMANDS.has(word) || SHELLS.has(word) || word === "eval" || word === "xargs" || word === "find")) {
        await walker.effective(innerContext, word, rest.slice(k + 1));
      }
    }
    // Only `command cd`, `builtin cd` and `time cd` change this shell's folder. Through any other wrapper `cd`
    // is a separate program (or fails), so what follows still runs where it was: following that cd would
    // judge later paths from the wrong folder.
    return IN_THIS_SHELL.has(name) && !chdir ? flow : steady(context.cwds);
  },
};
