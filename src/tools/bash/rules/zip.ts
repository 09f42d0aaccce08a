/** zip: `-@` takes the paths from its input and `-TT`/`--unzip-command` runs a command, so both ask. */
import { literal } from "../words.js";
import { findOption } from "./options.js";
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

export const zipRule: CommandRule = {
  names: ["zip"],
  async run(walker, context, name, args) {
    const words = args.map(literal);
    const at = findOption(words, "@", ["--names-stdin", "-TT", "--unzip-command"]);
    if (at >= 0) walker.unjudgeable(context, "zip reads its paths from its input or runs a command", args[at]!.text);
    return otherProgram(walker, context, name, args);
  },
};
