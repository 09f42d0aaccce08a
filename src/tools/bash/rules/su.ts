/** `su [-] [user] -c 'text'`: the text is shell text, wherever -c stands; without it, a shell reads its input. */
import { steady } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

export const suRule: CommandRule = {
  names: ["su"],
  async run(walker, context, _name, args) {
    const words = args.map(literal);
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (word === null || word === undefined) break;
      const glued = word.startsWith("--command=") ? word.slice("--command=".length) : null;
      if (glued === null && word !== "-c" && word !== "--command") continue;
      const text = glued ?? words[i + 1] ?? null;
      if (text === null) break;
      await walker.nested(context, text, false);
      return steady(context.cwds);
    }
    walker.unjudgeable(context, "su runs a shell whose commands are not known before it runs");
    return steady(context.cwds);
  },
};
