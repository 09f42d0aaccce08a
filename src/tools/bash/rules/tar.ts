/**
 * tar: options that take the paths from a list file (`-T`, `--files-from`), keep absolute and `..` member
 * names (`-P`, `--absolute-names`), rename members on the way (`--transform 's,^,/outside/,'`), or run
 * commands (`-I`, `--to-command`, `--checkpoint-action`, `-F`, `--info-script`...) make what it touches
 * unknown before it runs, so they ask. The first word may be an old-style cluster without a dash (`tar cPf`).
 */
import { literal } from "../words.js";
import { findOption } from "./options.js";
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

const UNJUDGEABLE_SHORT = "TPIF";
const UNJUDGEABLE_LONG = [
  "--files-from",
  "--absolute-names",
  "--transform",
  "--xform",
  "--use-compress-program",
  "--to-command",
  "--checkpoint-action",
  "--info-script",
  "--new-volume-script",
  "--rsh-command",
  "--rmt-command",
];

export const tarRule: CommandRule = {
  names: ["tar", "bsdtar", "gtar"],
  async run(walker, context, name, args) {
    const words = args.map(literal);
    const first = words[0];
    // `tar cPf a.tar x`: the traditional first word is a cluster of letters without its dash.
    if (first && /^[A-Za-z]+$/.test(first)) words[0] = `-${first}`;
    const at = findOption(words, UNJUDGEABLE_SHORT, UNJUDGEABLE_LONG);
    if (at >= 0)
      walker.unjudgeable(
        context,
        "tar reads its paths from a list, keeps absolute names, renames members or runs a command",
        args[at]!.text,
      );
    return otherProgram(walker, context, name, args);
  },
};
