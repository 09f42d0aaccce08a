/** Simple: oldString exactly as given. `replace` then finds it, or finds it more than once. */
import type { Replacer } from "../types.js";

export const SimpleReplacer: Replacer = function* simple(_content, find) {
  if (find !== "") yield find;
};
