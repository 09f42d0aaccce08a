/**
 * Output per command from just-bash, which itself only returns whole strings when a command line ends (it
 * has no output hook, no stream option, and `exec` returns only when everything ended: just-bash 3.4's
 * `BashExecResult` is `{ stdout, stderr, exitCode, env }`): each command of a top-level `;`/`&&`/`||` list
 * hands its output over as it ends (`make && sleep 9` shows make's output at once), and so does each
 * command inside a top-level loop, `if`, `case`, group or subshell (`for i in 1 2 3; do echo $i; sleep 1;
 * done` shows each number as it is echoed). A pipeline's last command streams the same way. Not entered:
 * a function's body (where its output goes depends on each call), a compound whose output is redirected or
 * piped on, and one that changes shell options inside or whose header could fail (see streamCompound);
 * those hand their output over as a whole when they end.
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
 *
 * A command that can write while it runs (`node`, `python3`) is also marked when its output reaches the
 * devices untouched, so it writes there as it goes rather than when it ends (live-output.ts).
 */
import type { ScriptNode, SimpleCommandNode, StatementNode, TransformPlugin, WordNode } from "just-bash";
import type { OutputStream } from "../types.js";

export const STREAM_DEVICES = { stdout: "/dev/workbench/stdout", stderr: "/dev/workbench/stderr" } as const;

type Redirection = SimpleCommandNode["redirections"][number];

const literalWord = (value: string): WordNode => ({ type: "Word", parts: [{ type: "Literal", value }] });
const appendTo = (fd: 1 | 2, path: string): Redirection => ({ type: "Redirection", fd, operator: ">>", target: literalWord(path) });

function literal(word: WordNode | null): string | undefined {
  const part = word?.parts.length === 1 ? word.parts[0] : undefined;
  // The parser reads the test command `[` as a glob; a lone bracket matches nothing and stays itself.
  if (part?.type === "Glob" && part.pattern === "[") return "[";
  return part?.type === "Literal" ? part.value : undefined;
}

/** Expansions whose errors just-bash writes to the statement, past any redirection. */
const UNREDIRECTABLE = /"type":"(ProcessSubstitution|ArithmeticExpansion|ArithCommandSubst)"/;
/** ...and, inside a `$( )`, these too: their errors leave the body through the substitution. */
const UNREDIRECTABLE_IN_BODY =
  /"type":"(ProcessSubstitution|ArithmeticExpansion|ArithCommandSubst|ErrorIfUnset|BadSubstitution|LengthSliceError|Substring)"/;
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
  /** `set -x`: the trace would print the live-output mark, so none is given from there on. */
  xtrace: boolean;
  /** The commands that may write while they run (live-output.ts); none without it. */
  live?: LiveCommands;
}

/** What the plugin needs to mark a command that may write its output while it runs (live-output.ts). */
export interface LiveCommands {
  commands: ReadonlySet<string>;
  assignment(streams: OutputStream[]): SimpleCommandNode["assignments"][number];
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
    if (words.some((w) => /^-[a-zA-Z]*x/.test(w) || w === "xtrace")) seen.xtrace = true;
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
  /** Inside a compound command's body (see streamCompound). */
  inCompound?: boolean;
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
    // In a loop's body `i=$((i+1))` is everywhere; an arithmetic error in a bare assignment ends the
    // whole compound, so its message comes last either way and nothing is reordered.
    const bareArithmetic =
      routes.inCompound === true &&
      command.name === null &&
      command.redirections.length === 0 &&
      !/"type":"(ProcessSubstitution|CommandSubstitution)"/.test(text);
    if (!bareArithmetic && (routes.inBody ? UNREDIRECTABLE_IN_BODY : UNREDIRECTABLE).test(text)) return undefined;
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
    command = withLiveMark(command, name, routes, seen);
  } else if (!routes.inBody && routes.stdout && routes.stderr) {
    // Inside, each command hands its output over as it ends; what the compound writes itself (a limit's
    // message) still goes through its own redirections below, after all that.
    command = streamCompound(command, seen) ?? command;
  }
  const added: Redirection[] = [];
  if (routes.stdout) added.push(appendTo(1, STREAM_DEVICES.stdout));
  if (routes.stderr) added.push(appendTo(2, STREAM_DEVICES.stderr));
  return { ...command, redirections: [...added, ...command.redirections] };
}

/**
 * A command that may write while it runs, marked with the streams that reach the devices as they are: its
 * own redirections (the user's) may only read, and the stream must go to the terminal here (the last of a
 * pipeline for stdout, outside a `$( )` body).
 */
function withLiveMark(command: SimpleCommandNode, name: string, routes: Routes, seen: Seen): SimpleCommandNode {
  if (!seen.live?.commands.has(name) || seen.xtrace) return command;
  const onlyReads = command.redirections.every(
    (redirection) => redirection.operator.startsWith("<") && redirection.operator !== "<>" && (redirection.fd ?? 0) === 0,
  );
  if (!onlyReads) return command;
  const streams: OutputStream[] = [];
  if (routes.stdout) streams.push("stdout");
  if (routes.stderr) streams.push("stderr");
  if (streams.length === 0) return command;
  return { ...command, assignments: [seen.live.assignment(streams), ...command.assignments] };
}

/** Compound commands whose inner commands can hand their output over one by one. */
const COMPOUND_BODIES = new Set(["If", "For", "CStyleFor", "While", "Until", "Case", "Subshell", "Group"]);
/** A `set` or `shopt` anywhere inside: a loop runs its body again, so an option set late applies early too. */
const OPTION_CHANGE = /"name":\{"type":"Word","parts":\[\{"type":"Literal","value":"(set|shopt)"\}\]\}/;

type Compound = Exclude<Command, { type: "SimpleCommand" } | { type: "FunctionDef" }>;

/** Statements of a compound's body, each streaming, or undefined when one cannot. */
function streamList(statements: StatementNode[], seen: Seen): StatementNode[] | undefined {
  const streamed = [];
  for (const statement of statements) {
    const next = streamStatement(statement, false, { ...seen }, true);
    if (!next) return undefined;
    streamed.push(next);
  }
  return streamed;
}

/**
 * A loop, conditional, `case`, group or subshell whose inner commands stream as each ends, rather than
 * the whole at its end; undefined when that could reorder output: the compound sends its output
 * elsewhere (any redirection but input), its header expands a `$( )` or arithmetic (their messages would
 * come at its end), or it changes shell options inside. Functions are not entered: a function's output
 * goes wherever each call sends it, which its definition cannot know.
 */
function streamCompound(command: Compound, seen: Seen): Compound | undefined {
  if (!COMPOUND_BODIES.has(command.type)) return undefined;
  if (
    command.redirections.some((redirection) => !redirection.operator.startsWith("<") || (redirection.fd !== null && redirection.fd !== 0))
  )
    return undefined;
  const text = JSON.stringify(command);
  if (OPTION_CHANGE.test(text)) return undefined;
  const list = (statements: StatementNode[]) => streamList(statements, seen);
  switch (command.type) {
    case "For": {
      if (command.words && (SUBSTITUTION.test(JSON.stringify(command.words)) || UNREDIRECTABLE.test(JSON.stringify(command.words))))
        return undefined;
      const body = list(command.body);
      return body && { ...command, body };
    }
    case "CStyleFor": {
      // Its own arithmetic's errors (division by 0, an unset name under `set -u`) come at its end.
      const header = JSON.stringify([command.init, command.condition, command.update]);
      if (seen.nounset || /"operator":"(\/|%|\/=|%=|\*\*)"/.test(header)) return undefined;
      const body = list(command.body);
      return body && { ...command, body };
    }
    case "Subshell":
    case "Group": {
      const body = list(command.body);
      return body && { ...command, body };
    }
    case "While":
    case "Until": {
      const condition = list(command.condition);
      const body = condition && list(command.body);
      return body && { ...command, condition: condition!, body };
    }
    case "If": {
      const clauses = [];
      for (const clause of command.clauses) {
        const condition = list(clause.condition);
        const body = condition && list(clause.body);
        if (!body) return undefined;
        clauses.push({ condition: condition!, body });
      }
      const elseBody = command.elseBody === null ? null : list(command.elseBody);
      return elseBody === undefined ? undefined : { ...command, clauses, elseBody };
    }
    case "Case": {
      const header = JSON.stringify([command.word, command.items.map((item) => item.patterns)]);
      if (SUBSTITUTION.test(header) || UNREDIRECTABLE.test(header)) return undefined;
      const items = [];
      for (const item of command.items) {
        const body = list(item.body);
        if (!body) return undefined;
        items.push({ ...item, body });
      }
      return { ...command, items };
    }
    default:
      return undefined;
  }
}

function streamStatement(statement: StatementNode, inBody: boolean, seen: Seen, inCompound = false): StatementNode | undefined {
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
        inCompound,
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
function streamStatements(script: ScriptNode, live: LiveCommands | undefined): ScriptNode {
  const seen: Seen = { nounset: false, failglob: false, xtrace: false, live };
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
export function statementStreamPlugin(armed: () => boolean, live?: LiveCommands): TransformPlugin {
  return {
    name: "workbench-statement-stream",
    transform: ({ ast }) => ({ ast: armed() ? streamStatements(ast, live) : ast }),
  };
}
