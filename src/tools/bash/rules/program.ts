/**
 * Any program without rules of its own: its arguments are judged as paths (./arguments.ts), and an
 * interpreter given inline code or reading its program from its input asks (../programs.ts).
 */
import type { Node } from "web-tree-sitter";
import { judgeArguments } from "../arguments.js";
import { type Flow, steady } from "../flow.js";
import { inlineCode, interpreterOf } from "../programs.js";
import { literal } from "../words.js";
import type { CommandContext, Walker } from "./rule.js";

export async function otherProgram(walker: Walker, context: CommandContext, name: string, args: Node[]): Promise<Flow> {
  const interpreter = interpreterOf(name);
  const inline = interpreter ? inlineCode(interpreter, args.map(literal), stdinFed(context.statement)) : null;
  if (inline && !walker.sandboxed(name)) walker.unjudgeable(context, inline);
  await judgeArguments(walker.paths, walker.argumentContext(context), name, args);
  return steady(context.cwds);
}

/** Whether a command's standard input comes from a pipe, a heredoc, a here-string or a `<` redirection. */
export function stdinFed(statement: Node): boolean {
  const inPipeline = statement.parent?.type === "pipeline" && statement.parent.namedChildren[0]?.id !== statement.id;
  if (inPipeline) return true;
  if (readsRedirectedInput([...statement.namedChildren, ...(statement.childForFieldName("body")?.namedChildren ?? [])])) return true;
  // tree-sitter reads `a && b < file` as `(a && b) < file`; bash gives the redirection to `b` alone, the
  // last command of the list, so a redirection on a list whose last command this is feeds it.
  let node = statement;
  while (node.parent?.type === "list" && node.parent.lastNamedChild?.id === node.id) node = node.parent;
  const outer = node.parent;
  return (
    node !== statement &&
    outer?.type === "redirected_statement" &&
    outer.childForFieldName("body")?.id === node.id &&
    readsRedirectedInput(outer.childrenForFieldName("redirect"))
  );
}

function readsRedirectedInput(redirects: readonly (Node | null)[]): boolean {
  return redirects.some((r) => {
    if (!r) return false;
    if (r.type === "heredoc_redirect" || r.type === "herestring_redirect") return true;
    if (r.type !== "file_redirect") return false;
    const operator = r.children.find((c) => c && !c.isNamed)?.type ?? "";
    const descriptor = r.childForFieldName("descriptor")?.text;
    return (operator === "<" || operator === "<>" || operator === "<&") && (descriptor === undefined || descriptor === "0");
  });
}
