/**
 * Whether the command line sets one of some environment variables a program reads its configuration or
 * helper commands from (`HOME=. curl`, `export GIT_SSH_COMMAND=...; git fetch`, `env WGETRC=x wget`): the
 * program then follows what the line chose, which the rules do not read. Judged on the whole line's text,
 * so an assignment anywhere counts (more asking, never less). Not seen: a variable set by an earlier call
 * or a sourced file, like the CDPATH and BASH_ENV limits in ../index.ts.
 */
import type { CommandContext } from "./rule.js";

const DECLARERS = "export|declare|typeset|local|readonly|read|unset|mapfile|readarray|printf";

export function lineSets(context: CommandContext, names: readonly string[]): string | null {
  const text = context.statement.tree.rootNode.text;
  const alternatives = names.map((name) => name.replace(/[^\w]/g, "")).join("|");
  const assigned = new RegExp(`(?:^|[^\\w$])(${alternatives})\\+?=`);
  const declared = new RegExp(`\\b(?:${DECLARERS})\\b[^;&|\\n]*?\\b(${alternatives})\\b`);
  return assigned.exec(text)?.[1] ?? declared.exec(text)?.[1] ?? null;
}
