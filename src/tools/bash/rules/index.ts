/**
 * The commands with rules of their own, in one list. A name is looked up here first; anything not listed is
 * an ordinary program (./program.ts). Names must not repeat across entries (checked when the table is built).
 */
import type { Node } from "web-tree-sitter";
import type { Flow } from "../flow.js";
import { cdRule } from "./cd.js";
import { curlRule } from "./curl.js";
import { evalRule } from "./eval.js";
import { exitRule } from "./exit.js";
import { findRule } from "./find.js";
import { gitRule } from "./git.js";
import { cpioRule, rsyncRule } from "./list-readers.js";
import { pathCommandsRule } from "./path-commands.js";
import { popdRule } from "./popd.js";
import { otherProgram } from "./program.js";
import type { CommandContext, CommandRule, Walker } from "./rule.js";
import { shellRule } from "./shell.js";
import { sourceRule } from "./source.js";
import { sqlShellRule } from "./sql-shells.js";
import { suRule } from "./su.js";
import { tarRule } from "./tar.js";
import { trapRule } from "./trap.js";
import { unlinkRule } from "./unlink.js";
import { watchRule } from "./watch.js";
import { wgetRule } from "./wget.js";
import { wrapperRule } from "./wrapper.js";
import { xargsRule } from "./xargs.js";
import { zipRule } from "./zip.js";

const COMMAND_RULES: readonly CommandRule[] = [
  wrapperRule,
  cdRule,
  popdRule,
  evalRule,
  trapRule,
  exitRule,
  sourceRule,
  shellRule,
  suRule,
  watchRule,
  xargsRule,
  findRule,
  unlinkRule,
  pathCommandsRule,
  curlRule,
  tarRule,
  zipRule,
  rsyncRule,
  cpioRule,
  sqlShellRule,
  gitRule,
  wgetRule,
];

const BY_NAME: ReadonlyMap<string, CommandRule> = (() => {
  const table = new Map<string, CommandRule>();
  for (const rule of COMMAND_RULES) {
    for (const name of rule.names) {
      if (table.has(name)) throw new Error(`bash command rules: "${name}" is listed twice; keep one entry per command`);
      table.set(name, rule);
    }
  }
  return table;
})();

/** Runs the rules for `name` (a base name as bash runs it), or those of an ordinary program. */
export function runCommandRules(walker: Walker, context: CommandContext, name: string, args: Node[]): Promise<Flow> {
  const rule = BY_NAME.get(name);
  return rule ? rule.run(walker, context, name, args) : otherProgram(walker, context, name, args);
}
