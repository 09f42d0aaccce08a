/** `eval words...`: literal text is read as shell text run in this shell; anything else asks. */
import { union } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

export const evalRule: CommandRule = {
  names: ["eval"],
  async run(walker, context, _name, args) {
    const words = args.map(literal);
    if (words.some((w) => w === null)) {
      walker.exitTrusted = false;
      const why = "eval runs text that is not known before it runs";
      walker.unjudgeable(context, why);
      return { ok: union(context.cwds, [{ unknown: why }]), fail: context.cwds };
    }
    // eval runs in this shell: its cd counts afterwards.
    return walker.nested(context, words.join(" "), true);
  },
};
