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
  if (inline) walker.unjudgeable(context, inline);
  await judgeArguments(walker.paths, walker.argumentContext(context), name, args);
  return steady(context.cwds);
}

/** Whether a command's standard input comes from a pipe, a heredoc, a here-string or a `<` redirection. */
function stdinFed(statement: Node): boolean {
  const inPipeline = statement.parent?.type === "pipeline" && statement.parent.namedChildren[0]?.id !== statement.id;
  if (inPipeline) return true;
  const redirects = [...statement.namedChildren, ...(statement.childForFieldName("body")?.namedChildren ?? [])];
  return redirects.some((r) => {
    if (!r) return false;
    if (r.type === "heredoc_redirect" || r.type === "herestring_redirect") return true;
    if (r.type !== "file_redirect") return false;
    const operator = r.children.find((c) => c && !c.isNamed)?.type ?? "";
    const descriptor = r.childForFieldName("descriptor")?.text;
    return (operator === "<" || operator === "<>" || operator === "<&") && (descriptor === undefined || descriptor === "0");
  });
}
