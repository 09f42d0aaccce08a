/** `watch words...` joins its arguments and hands them to `sh -c`: read as shell text in a child shell. */
import { steady } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

export const watchRule: CommandRule = {
  names: ["watch"],
  async run(walker, context, _name, args) {
    let i = 0;
    // watch's options: -n and -d take values (`-n 2`, `-d=permanent`); the rest are flags.
    while (i < args.length && (literal(args[i]!) ?? "").startsWith("-")) i += literal(args[i]!) === "-n" ? 2 : 1;
    const words = args.slice(i).map(literal);
    if (words.length === 0) return steady(context.cwds);
    if (words.some((w) => w === null)) {
      walker.unjudgeable(context, "a command built from text that is not known before it runs");
      return steady(context.cwds);
    }
    await walker.nested(context, words.join(" "), false);
    return steady(context.cwds);
  },
};
