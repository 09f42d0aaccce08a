/** `unlink x` is `rm x`, so rules for rm hold for it; its operand is judged as any program's. */
import { literal } from "../words.js";
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

export const unlinkRule: CommandRule = {
  names: ["unlink"],
  async run(walker, context, name, args) {
    walker.addEquivalent(`rm ${args.map((a) => literal(a) ?? a.text).join(" ")}`);
    return otherProgram(walker, context, name, args);
  },
};
