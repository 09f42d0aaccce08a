/** `popd` returns to a folder pushed earlier, possibly before this line: afterwards the folder is not known. */
import { union } from "../flow.js";
import type { CommandRule } from "./rule.js";

export const popdRule: CommandRule = {
  names: ["popd"],
  async run(_walker, context) {
    return { ok: union(context.cwds, [{ unknown: "popd returns to an earlier folder" }]), fail: context.cwds };
  },
};
