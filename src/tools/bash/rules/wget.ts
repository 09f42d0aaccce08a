/**
 * wget: besides its URLs it takes them from a list (`-i`, `--input-file`), runs wgetrc commands given
 * inline (`-e`, `--execute`: `output_document=/anywhere`) or from a config (`--config`, `$WGETRC` when the
 * line sets it), and may run a helper (`--use-askpass`). None of that is read here, so each asks.
 */
import { literal } from "../words.js";
import { lineSets } from "./assigned.js";
import { findOption } from "./options.js";
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

export const wgetRule: CommandRule = {
  names: ["wget"],
  async run(walker, context, name, args) {
    const at = findOption(args.map(literal), "ie", ["--input-file", "--execute", "--config", "--use-askpass"]);
    if (at >= 0)
      walker.unjudgeable(
        context,
        "wget reads URLs, commands or settings from a file or a wgetrc line, which are not read here",
        args[at]!.text,
      );
    else if (lineSets(context, ["WGETRC", "HOME", "XDG_CONFIG_HOME"]))
      walker.unjudgeable(context, "wget reads a wgetrc this line points to");
    return otherProgram(walker, context, name, args);
  },
};
