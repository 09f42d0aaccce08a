/** `source file` and `. file`: the script's path is judged; it runs in this shell, unread, so afterwards the folder is unknown. */
import { union } from "../flow.js";
import { operands } from "./operands.js";
import type { CommandRule } from "./rule.js";

export const sourceRule: CommandRule = {
  names: ["source", "."],
  async run(walker, context, _name, args) {
    const script = operands("source", args).find((o) => o.kind === "operand");
    if (script)
      await walker.paths.argument({ command: context.text, node: script.node, cwds: context.cwds, kind: "file", commandName: "source" });
    walker.exitTrusted = false;
    return { ok: union(context.cwds, [{ unknown: "a sourced script may change folder" }]), fail: context.cwds };
  },
};
