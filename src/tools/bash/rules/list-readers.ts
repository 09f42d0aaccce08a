/**
 * Other programs that take the paths they copy from a list (`rsync --files-from`, cpio from its input) or
 * run a command of their choosing (`rsync -e`): what they touch is not known before they run, so they ask.
 */
import { literal } from "../words.js";
import { findOption } from "./options.js";
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

export const rsyncRule: CommandRule = {
  names: ["rsync"],
  async run(walker, context, name, args) {
    const at = findOption(args.map(literal), "e", ["--files-from", "--rsh", "--rsync-path"]);
    if (at >= 0) walker.unjudgeable(context, "rsync reads its paths from a list or runs a command", args[at]!.text);
    return otherProgram(walker, context, name, args);
  },
};

export const cpioRule: CommandRule = {
  names: ["cpio"],
  async run(walker, context, name, args) {
    // In every mode cpio takes names from its input (-o, -p) or from an archive (-i), whose members may be absolute.
    walker.unjudgeable(context, "cpio takes the paths it reads or writes from its input");
    return otherProgram(walker, context, name, args);
  },
};
