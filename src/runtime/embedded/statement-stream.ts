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
 * A top-level command's `$( )` runs before the command and its stderr is not the command's: the body of
 * each `$( )` gets the stderr redirection itself (its stdout stays the value).
 *
 * Where that could change what the user sees, streaming stops for the rest of the line (the output then
 * comes when the line ends, in order after what was streamed). Each case is an error or echo that just-bash
 * writes to the statement itself, past any redirection, so it would arrive out of order:
 * - `<( )` or `$(( ))` in a top-level simple command; in a `$( )` body also `${x:?}`, `${x:off}` and bad
 *   substitutions, any `$x` once `set -u` was seen, and any glob once `shopt -s failglob` was seen
 *   (anywhere, for globs); a `$( )` in a redirection target or in a bare assignment with redirections;
 * - `set` that may turn on verbose mode (the echoed statement text) or whose arguments are not literal,
 *   `shopt` whose arguments are not literal, `exec` (it would make our redirections permanent), `time`, a
 *   command name not written literally, and a statement holding a syntax error.
 * Known gap: `set -u` or `shopt -s failglob` hidden in a function, `eval` or a sourced file is not seen, so
 * an error message they cause in a `$( )` may come after output printed later.
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

/** Expansions whose errors just-bash writes to the statement, past any redirection. */
const UNREDIRECTABLE = /"type":"(ProcessSubstitution|ArithmeticExpansion|ArithCommandSubst)"/;
/** ...and, inside a `$( )`, these too: their errors leave the body through the substitution. */
const UNREDIRECTABLE_IN_BODY = /"type":"(ProcessSubstitution|ArithmeticExpansion|ArithCommandSubst|ErrorIfUnset|BadSubstitution|LengthSliceError|Substring)"/;
const SUBSTITUTION = /"type":"CommandSubstitution"/;
const PARAMETER = /"type":"ParameterExpansion"/;
const GLOB = /"type":"Glob"/;

type Command = StatementNode["pipelines"][number]["commands"][number];

/**
 * Shell options seen so far on the line that make expansions fail: `set -u` (an unset variable is then an
 * error) and `shopt -s failglob` (a glob that matches nothing is).
 */
interface Seen {
  nounset: boolean;
  failglob: boolean;
}

/**
 * Reads a `set` or `shopt` for the options that matter here; false when it may turn on verbose mode (the
 * echoed statement text is written past redirections) or cannot be read (arguments not literal).
 */
function noteOptions(name: string, args: WordNode[], seen: Seen): boolean {
  const values = args.map(literal);
  if (values.includes(undefined)) return false;
  const words = values as string[];
  if (name === "set") {
    if (words.some((w) => /^[-+][a-zA-Z]*v/.test(w) || w === "verbose")) return false;
    if (words.some((w) => /^-[a-zA-Z]*u/.test(w) || w === "nounset")) seen.nounset = true;
  }
  if (name === "shopt" && words.includes("failglob")) seen.failglob = true;
  return true;
}

/**
 * A copy of a node in which the body of every `$( )` sends its stderr to the stream (its stdout stays the
 * value); undefined when a body cannot be treated so. Expansion happens before a command's own
 * redirections, so in bash as in just-bash that stderr goes to the shell's stderr, which at the top level
 * is the stream.
 */
function withSubstitutionStderr<T>(node: T, seen: Seen): T | undefined {
  if (Array.isArray(node)) {
    const items = node.map((item: unknown) => withSubstitutionStderr(item, seen));
    return items.includes(undefined) ? undefined : (items as T);
  }
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, unknown>;
  if (record.type === "CommandSubstitution") {
    const body = streamBody(record.body as ScriptNode, seen);
    return body && ({ ...record, body } as T);
  }
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const next = withSubstitutionStderr(value, seen);
    if (next === undefined && value !== undefined) return undefined;
    copy[key] = next;
  }
  return copy as T;
}

interface Routes {
  stdout: boolean;
  stderr: boolean;
  /** Inside a `$( )` body. */
  inBody: boolean;
}

/**
 * The command with the stream redirections prepended (the user's own, after them, win); undefined when
 * that could change what the user sees (see the file comment).
 */
function streamCommand(command: Command, routes: Routes, seen: Seen): Command | undefined {
  // A function definition prints nothing; redirections on it would be part of the function.
  if (command.type === "FunctionDef") return command;
  if (command.type === "SimpleCommand") {
    const text = JSON.stringify(command);
    if ((routes.inBody ? UNREDIRECTABLE_IN_BODY : UNREDIRECTABLE).test(text)) return undefined;
    if (seen.failglob && GLOB.test(text)) return undefined;
    if (routes.inBody && seen.nounset && PARAMETER.test(text)) return undefined;
    const name = command.name === null ? null : literal(command.name);
    if (name === undefined || name === "exec") return undefined;
    if ((name === "set" || name === "shopt") && !noteOptions(name, command.args, seen)) return undefined;
    if (SUBSTITUTION.test(text)) {
      // A redirection's target is expanded as the redirection is made: its `$( )` is not before the command.
      if (SUBSTITUTION.test(JSON.stringify(command.redirections))) return undefined;
      // A bare assignment's own redirections apply before its `$( )` runs, so that stderr is theirs to route.
      if (name === null && command.redirections.length > 0) return undefined;
      const expanded = withSubstitutionStderr(command, seen);
      if (expanded === undefined) return undefined;
      command = expanded;
    }
    // A bare assignment prints nothing of its own.
    if (name === null) return command;
  }
  const added: Redirection[] = [];
  if (routes.stdout) added.push(appendTo(1, STREAM_DEVICES.stdout));
  if (routes.stderr) added.push(appendTo(2, STREAM_DEVICES.stderr));
  return { ...command, redirections: [...added, ...command.redirections] };
}

function streamStatement(statement: StatementNode, inBody: boolean, seen: Seen): StatementNode | undefined {
  if (statement.deferredError) return undefined;
  const pipelines = [];
  for (const pipeline of statement.pipelines) {
    if (pipeline.timed) return undefined;
    const commands = [];
    for (const [index, command] of pipeline.commands.entries()) {
      const routes: Routes = {
        // Only the last command of a pipeline writes to the terminal; the others write into the pipe.
        // A body's stdout is the substitution's value.
        stdout: !inBody && index === pipeline.commands.length - 1,
        // `a |& b` sends a's stderr into the pipe too.
        stderr: pipeline.pipeStderr?.[index] !== true,
        inBody,
      };
      const streamed = streamCommand(command, routes, seen);
      if (!streamed) return undefined;
      commands.push(streamed);
    }
    pipelines.push({ ...pipeline, commands });
  }
  return { ...statement, pipelines };
}

/**
 * A `$( )` body: all its statements send their stderr to the stream, or the body is left as it is. It runs
 * in a subshell, so options it sets do not outlive it.
 */
function streamBody(script: ScriptNode, outer: Seen): ScriptNode | undefined {
  const seen = { ...outer };
  const statements = [];
  for (const statement of script.statements) {
    const streamed = streamStatement(statement, true, seen);
    if (!streamed) return undefined;
    statements.push(streamed);
  }
  return { ...script, statements };
}

/** The top level: statements stream up to the first that cannot; from there on they are left as they are. */
export function streamStatements(script: ScriptNode): ScriptNode {
  const seen: Seen = { nounset: false, failglob: false };
  let streaming = true;
  const statements = script.statements.map((statement) => {
    const streamed = streaming ? streamStatement(statement, false, seen) : undefined;
    streaming = streamed !== undefined;
    return streamed ?? statement;
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
