/**
 * `find`: its starting points are folders to judge; `-exec` and friends run a command of their own on what
 * it finds (through symlinks too), `-delete` is an `rm`, `-fprint` writes a file, `-L`/`-follow` lead anywhere.
 */
import { basename } from "pathe";
import { LINK_SAFE } from "../commands.js";
import { steady } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

const RUNS_A_COMMAND: ReadonlySet<string> = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const WRITES_A_FILE: ReadonlySet<string> = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"]);

export const findRule: CommandRule = {
  names: ["find"],
  async run(walker, context, _name, args) {
    let i = 0;
    // find's own options come before the starting points.
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word === null) break;
      if (word === "-H" || word === "-L" || word === "-P") {
        if (word !== "-P")
          walker.paths.unresolved({ command: context.text, argument: word, why: "find follows symlinks, which may lead anywhere" });
        continue;
      }
      if (word === "-D") {
        i++;
        continue;
      }
      if (/^-O\d*$/.test(word)) continue;
      break;
    }
    const starts: string[] = [];
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word !== null && (word.startsWith("-") || word === "(" || word === "!" || word === ",")) break;
      starts.push(word ?? args[i]!.text);
      await walker.paths.argument({ command: context.text, node: args[i]!, cwds: context.cwds, kind: "directory", commandName: "find" });
    }
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      // `-delete` removes what it finds, as `rm -rf` would: rules for rm hold for it.
      if (word === "-delete") {
        const where = starts.length > 0 ? starts.join(" ") : ".";
        walker.addEquivalent(`rm ${where}`);
        walker.addEquivalent(`rm -rf ${where}`);
      }
      // The command of -exec (up to `;` or `+`) runs as its own command: its rules and paths hold.
      if (word !== null && RUNS_A_COMMAND.has(word)) {
        let end = i + 1;
        while (end < args.length && !(literal(args[end]!) === ";" || (literal(args[end]!) === "+" && literal(args[end - 1]!) === "{}")))
          end++;
        const run = args.slice(i + 1, end);
        if (run.length > 0) {
          walker.addBashPattern(context.statement, run[0]!.startIndex, run);
          const runName = literal(run[0]!);
          if (runName !== null) await walker.effective(context, basename(runName), run.slice(1));
        }
      }
      if (word === "-follow")
        walker.paths.unresolved({ command: context.text, argument: word, why: "find follows symlinks, which may lead anywhere" });
      if (word !== null && WRITES_A_FILE.has(word)) {
        const file = args[i + 1];
        if (file) await walker.paths.argument({ command: context.text, node: file, cwds: context.cwds, kind: "file", commandName: null });
      }
      if (word !== null && RUNS_A_COMMAND.has(word)) {
        const run = args[i + 1] ? literal(args[i + 1]!) : null;
        if (run === null || !LINK_SAFE.has(basename(run))) {
          walker.paths.unresolved({
            command: context.text,
            argument: args[i + 1]?.text ?? word,
            why: "find runs a command on every path it finds, through symlinks too",
          });
        }
      }
    }
    return steady(context.cwds);
  },
};
