/**
 * What one command's rules are given: the command's place in the line, and the walk itself (`Walker`), so a
 * rule can judge paths, add patterns, read nested shell text or hand the rest of its words to the rule of the
 * command it runs. Each rule lives in a file of its own in this folder; `./index.ts` lists them.
 */
import type { Node } from "web-tree-sitter";
import type { ArgumentContext } from "../arguments.js";
import type { Flow } from "../flow.js";
import type { Cwds, PathJudge } from "../paths.js";

export interface CommandContext {
  /** The statement (with its redirections) the command is part of. */
  statement: Node;
  /** The statement's text, for reasons. */
  text: string;
  cwds: Cwds;
  depth: number;
  /** CDPATH may be set, so a bare `cd name` can land anywhere. */
  cdpath: boolean;
}

/** The part of the walk (src/tools/bash/derive.ts) that a command's rules may use. */
export interface Walker {
  readonly paths: PathJudge;
  /**
   * Whether `exit` still means the builtin, so nothing after it runs. A function of that name, or code we
   * did not read (a sourced script, unknown eval text), may have redefined it.
   */
  exitTrusted: boolean;
  /** The command as written and as the shell will run it, from `from` (an offset in the source) on. */
  addBashPattern(statement: Node, from: number, tokens: Node[]): void;
  /** Another command this one amounts to (`find -delete` is an `rm`): a pattern with no "always". */
  addEquivalent(text: string): void;
  /** A command whose effect cannot be judged before it runs: it asks, whatever a catch-all rule allows. */
  unjudgeable(context: CommandContext, why: string, argument?: string): void;
  /** Shell text run by this command (`eval`, `bash -c`); `leaks`: its cd holds afterwards. */
  nested(context: CommandContext, text: string, leaks: boolean): Promise<Flow>;
  /** A command whose name is not known (`$CMD x`): any of its words may be a path. */
  unknownCommand(context: CommandContext, words: Node[], nameText: string): Promise<Flow>;
  /** The rules of the command `name`, given its arguments: how a wrapper hands on what it runs. */
  effective(context: CommandContext, name: string, args: Node[]): Promise<Flow>;
  argumentContext(context: CommandContext): ArgumentContext;
  /** Whether `interpreter`'s programs run in a sandbox that reaches only the workspace (see DeriveInput). */
  sandboxed(interpreter: string): boolean;
}

export interface CommandRule {
  /** The command names (as bash runs them: base names) these rules are for. */
  names: Iterable<string>;
  run(walker: Walker, context: CommandContext, name: string, args: Node[]): Promise<Flow>;
}
