/**
 * `cd src || exit 1; rm ../x`: past an exit the shell is nowhere, so nothing later is judged from there.
 * (`return` is not one: outside a function bash reports an error and carries on.) Once `exit` may have been
 * redefined, it is an ordinary program.
 */
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

export const exitRule: CommandRule = {
  names: ["exit"],
  async run(walker, context, name, args) {
    if (walker.exitTrusted) return { ok: [], fail: [] };
    return otherProgram(walker, context, name, args);
  },
};
