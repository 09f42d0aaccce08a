/** `trap 'text' EXIT`: the text runs later, in this shell; it is read as eval text (its cd is not followed). */
import { same, steady, union } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

export const trapRule: CommandRule = {
  names: ["trap"],
  async run(walker, context, _name, args) {
    // `trap - INT` resets, `trap -p` and `trap -l` print: no text to run.
    if (args.length < 2 || literal(args[0]!) === "-") return steady(context.cwds);
    const first = args.find((a) => !(literal(a) ?? "").startsWith("-"));
    if (!first) return steady(context.cwds);
    const text = literal(first);
    if (text === null) {
      walker.unjudgeable(context, "a trap runs text that is not known before it runs", first.text);
      return steady(context.cwds);
    }
    const after = await walker.nested(context, text, true);
    // Only a trap that itself changes folder (`trap 'cd x' DEBUG`) makes the folder afterwards unknown.
    return same(union(after.ok, after.fail), context.cwds)
      ? steady(context.cwds)
      : steady(union(context.cwds, [{ unknown: "a trap may change folder" }]));
  },
};
