/** `cd` and `pushd`: where the shell lands is judged (logically and physically) and followed for what comes next. */
import { resolve } from "pathe";
import { CD_COMMANDS } from "../commands.js";
import { union } from "../flow.js";
import type { Cwds } from "../paths.js";
import { evaluateWord, hasGlob, pathExpansion, textOf } from "../words.js";
import { operands } from "./operands.js";
import type { CommandRule } from "./rule.js";

export const cdRule: CommandRule = {
  names: CD_COMMANDS,
  async run(walker, context, name, args) {
    const target = operands(name, args, true).find((o) => o.kind === "operand");
    if (!target) {
      const why = name === "cd" ? "cd with no folder goes to $HOME" : `${name} with no folder swaps the folder stack`;
      walker.paths.unresolved({ command: context.text, argument: context.text, why });
      return { ok: [{ unknown: why }], fail: context.cwds };
    }
    const value = evaluateWord(target.node);
    const text = value.known ? textOf(value.chars) : null;
    let unknownWhy: string | null = null;
    if (!value.known) unknownWhy = value.why;
    else if (text === "-") unknownWhy = `${name} - returns to $OLDPWD`;
    else if (name === "pushd" && /^[+-]\d+$/.test(text!)) unknownWhy = "pushd +N rotates the folder stack";
    else unknownWhy = pathExpansion(value.chars) ?? (hasGlob(value.chars) ? "a glob in a folder name" : null);
    if (unknownWhy) {
      walker.paths.unresolved({ command: context.text, argument: target.node.text, why: unknownWhy });
      return { ok: [{ unknown: `${target.node.text}: ${unknownWhy}` }], fail: context.cwds };
    }
    const path = text!;
    // With CDPATH set, a bare name may be found in any folder it lists.
    if (context.cdpath && !/^(\/|\.\/|\.\.\/|\.$|\.\.$)/.test(path)) {
      const why = "CDPATH is set, so cd may pick a folder anywhere";
      walker.paths.unresolved({ command: context.text, argument: path, why });
      return { ok: [{ unknown: why }], fail: context.cwds };
    }
    const landed: Cwds = [];
    for (const cwd of context.cwds) {
      if (!path.startsWith("/") && "unknown" in cwd) {
        walker.paths.unresolved({
          command: context.text,
          argument: path,
          why: `a relative path from a folder not known before running (${cwd.unknown})`,
        });
        landed.push({ unknown: cwd.unknown });
        continue;
      }
      const base = "path" in cwd ? cwd.path : "/";
      const physical = path.startsWith("/") ? path : `${base}/${path}`;
      // Bash's cd is logical: `link/..` is the folder holding the link, not the parent of its target. Both
      // readings are judged (and followed), so neither can lead out unasked.
      const logical = resolve(base, path);
      for (const absolute of new Set([physical, logical])) {
        await walker.paths.path({
          command: context.text,
          argument: path,
          absolute,
          kind: "directory",
          why: `${name} leaves the workspace`,
        });
        landed.push({ path: await walker.paths.physical(absolute) });
      }
    }
    return { ok: union(landed), fail: context.cwds };
  },
};
