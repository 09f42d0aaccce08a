/**
 * Output per top-level command from just-bash, which itself only returns whole strings when a command line
 * ends (it has no output hook): each command of a top-level `;`/`&&`/`||` list hands its output over as it
 * ends (`make && sleep 9` shows make's output at once); a top-level loop, group or pipeline does so as a
 * whole when it ends.
 *
 * How: a transform plugin (just-bash's public AST hook) prepends `>>/dev/workbench/stdout` and
 * `2>>/dev/workbench/stderr` to each command of each top-level statement, and the shell's file system hands
 * whatever is written to those two paths straight to the caller. Redirections act left to right, so the
 * user's own (`>file`, `2>&1`, `|&`) still win; just-bash flushes a command's redirected output when that
 * command ends, and it also moves the output of an `exit` or an error into the redirection before passing it
 * on, so nothing is lost or doubled. Variables, functions, cwd, `set -e` and exit statuses are untouched:
 * the statements are the same statements, only their commands gained two redirections.
 *
 * Where that could change what the user sees, streaming stops for the rest of the line (the output then
 * comes when the line ends, in order after what was streamed):
 * - a top-level simple command with `$( )`, `<( )` or `$(( ))` in it: just-bash writes the stderr of that
 *   expansion to the statement, past any redirection, so it would arrive out of order;
 * - `exec` (it would make our redirections permanent), `set` that may turn on verbose mode (the echoed
 *   statement text is written past redirections), `time`, a command name not written literally, and a
 *   statement holding a syntax error.
 * Function definitions and bare assignments get no redirections (they print nothing of their own).
 */
import type { ScriptNode, SimpleCommandNode, StatementNode, TransformPlugin, WordNode } from "just-bash";

export const STREAM_DEVICES = { stdout: "/dev/workbench/stdout", stderr: "/dev/workbench/stderr" } as const;

type Redirection = SimpleCommandNode["redirections"][number];

const literalWord = (value: string): WordNode => ({ type: "Word", parts: [{ type: "Literal", value }] });
const appendTo = (fd: 1 | 2, path: string): Redirection => ({ type: "Redirection", fd, operator: ">>", target: literalWord(path) });

function literal(word: WordNode | null): string | undefined {
  const part = word?.parts.length === 1 ? word.parts[0] : undefined;
  return part?.type === "Literal" ? part.value : undefined;
}

const EXPANSIONS_WITH_OUTPUT = /"type":"(CommandSubstitution|ProcessSubstitution|ArithmeticExpansion|ArithCommandSubst)"/;

function mayTurnOnVerbose(args: WordNode[]): boolean {
  return args.some((arg) => {
    const value = literal(arg);
    return value === undefined || /^[-+][a-zA-Z]*v/.test(value) || value === "verbose";
  });
}

/** Whether this statement's output can be streamed without changing it (see the file comment). */
function streamable(statement: StatementNode): boolean {
  if (statement.deferredError) return false;
  for (const pipeline of statement.pipelines) {
    if (pipeline.timed) return false;
    for (const command of pipeline.commands) {
      if (command.type !== "SimpleCommand") continue;
      if (EXPANSIONS_WITH_OUTPUT.test(JSON.stringify(command))) return false;
      if (command.name === null) continue;
      const name = literal(command.name);
      if (name === undefined || name === "exec") return false;
      if (name === "set" && mayTurnOnVerbose(command.args)) return false;
    }
  }
  return true;
}

function streamStatement(statement: StatementNode): StatementNode {
  return {
    ...statement,
    pipelines: statement.pipelines.map((pipeline) => ({
      ...pipeline,
      commands: pipeline.commands.map((command, index) => {
        if (command.type === "FunctionDef" || (command.type === "SimpleCommand" && command.name === null)) return command;
        const added: Redirection[] = [];
        // Only the last command of a pipeline writes to the terminal; the others write into the pipe.
        if (index === pipeline.commands.length - 1) added.push(appendTo(1, STREAM_DEVICES.stdout));
        // `a |& b` sends a's stderr into the pipe too.
        if (pipeline.pipeStderr?.[index] !== true) added.push(appendTo(2, STREAM_DEVICES.stderr));
        return { ...command, redirections: [...added, ...command.redirections] };
      }),
    })),
  };
}

export function streamStatements(script: ScriptNode): ScriptNode {
  let streaming = true;
  const statements = script.statements.map((statement) => {
    streaming &&= streamable(statement);
    return streaming ? streamStatement(statement) : statement;
  });
  return { ...script, statements };
}

/**
 * The plugin. `armed()` is asked on every transform and says yes once per command line: just-bash runs its
 * plugins again for nested scripts (`bash -c`, `source`), whose output must stay where it is captured.
 */
export function statementStreamPlugin(armed: () => boolean): TransformPlugin {
  return {
    name: "workbench-statement-stream",
    transform: ({ ast }) => ({ ast: armed() ? streamStatements(ast) : ast }),
  };
}
