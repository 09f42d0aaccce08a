/**
 * The arguments of a command the derivation has no table for (`head`, `grep -r`, `dd`, `base64`, `install`,
 * a compiler...): any of them may be a path, so every one is judged as a path from the shell's folder. A word
 * that is not a path (`-n`, `5`, `"fix the bug"`, `https://x/y`) resolves inside the workspace and asks
 * nothing; one that leads out (`../x`, `/etc/passwd`, `link-out/x`, a name that is a link out) asks. Values
 * glued to options are judged too (`--output=../x`, `if=../x`, `-o/tmp/x`, `-I../inc`).
 *
 * A word whose value is only known when it runs (`"$f"`, `$(cmd)`) may be any path, so it asks, except the
 * `"$(cat <<'EOF' ... EOF)"` idiom, whose value is the heredoc's text.
 *
 * A few commands never take paths (echo, printf...): only a glob in their words is judged (the shell reads
 * the folder to expand it). `test`/`[` judge only the operands of file tests. For grep, sed and awk the first
 * operand is a pattern or program, not a path; sed and awk programs that write, read other files or run
 * commands ask (./programs.ts).
 */
import type { Node } from "web-tree-sitter";
import { awkIsPlain, sedIsPlain } from "./programs.js";
import type { Cwds, PathJudge } from "./paths.js";
import { evaluateWord, hasGlob, literal, textOf } from "./words.js";

export interface ArgumentContext {
  text: string;
  cwds: Cwds;
  /** Whether `cat` still is the cat program (no function or alias of that name), for the heredoc idiom. */
  catTrusted: boolean;
  /** Asks for a command that cannot be judged (see Derivation.unjudgeable). */
  unjudgeable(why: string, argument?: string): void;
}

/** Commands whose arguments are never opened as files. */
const NEVER_PATHS: ReadonlySet<string> = new Set([
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "exit",
  "return",
  "break",
  "continue",
  "shift",
  "sleep",
  "kill",
  "wait",
  "unset",
  "set",
  "let",
  "basename",
  "dirname",
  "seq",
  "expr",
  "type",
  "which",
  "jobs",
  "read",
  "getopts",
  "umask",
  "local",
  "export",
  "declare",
  "typeset",
  "readonly",
  "alias",
  "unalias",
  "shopt",
  "help",
  "times",
  "disown",
  "fg",
  "bg",
]);

export const FILE_TESTS = new Set([
  "-a",
  "-b",
  "-c",
  "-d",
  "-e",
  "-f",
  "-g",
  "-h",
  "-k",
  "-p",
  "-r",
  "-s",
  "-u",
  "-w",
  "-x",
  "-G",
  "-L",
  "-N",
  "-O",
  "-S",
]);
export const FILE_COMPARISONS = new Set(["-nt", "-ot", "-ef"]);

interface ProgramFirst {
  /** Options whose value replaces the first operand as the pattern/program (`grep -e`, `sed -e`, `awk -f`). */
  replacedBy: readonly string[];
  /** Which of those carry inline program text to check, and how. */
  inline?: { options: readonly string[]; plain(program: string): boolean };
  /** Options whose value is neither a path nor a program (`awk -v x=1`, `grep -A 3`). */
  valued: readonly string[];
  plain?(program: string): boolean;
  /** Options after which there is no pattern at all (`rg --files`). */
  noPattern?: readonly string[];
}

const GREP: ProgramFirst = {
  replacedBy: ["-e", "--regexp", "-f", "--file"],
  valued: ["-e", "--regexp", "-A", "-B", "-C", "-m", "--max-count", "-d", "-D"],
};
const SED: ProgramFirst = {
  replacedBy: ["-e", "--expression", "-f", "--file"],
  inline: { options: ["-e", "--expression"], plain: sedIsPlain },
  valued: ["-e", "--expression", "-l", "--line-length"],
  plain: sedIsPlain,
};
const AWK: ProgramFirst = {
  replacedBy: ["-f", "--file", "-e", "--source"],
  inline: { options: ["-e", "--source"], plain: awkIsPlain },
  valued: ["-v", "-F", "-e", "--source"],
  plain: awkIsPlain,
};

const PROGRAM_FIRST: Readonly<Record<string, ProgramFirst>> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  ag: GREP,
  ack: GREP,
  rg: {
    ...GREP,
    noPattern: ["--files", "--type-list"],
    valued: [...GREP.valued, "-g", "--glob", "-t", "--type", "-T", "--type-not", "-j", "--threads", "-M"],
  },
  sed: SED,
  gsed: SED,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
};

/** Judges every argument of `name` that may be a path. */
export async function judgeArguments(paths: PathJudge, context: ArgumentContext, name: string, args: readonly Node[]): Promise<void> {
  if (NEVER_PATHS.has(name)) {
    for (const arg of args) if (globbed(arg)) await operand(paths, context, arg);
    return;
  }
  if (name === "test" || name === "[") return fileTests(paths, context, args);
  const program = PROGRAM_FIRST[name];
  const words = args.map(literal);
  const patternGiven =
    program !== undefined && words.some((w) => w !== null && program.replacedBy.some((o) => w === o || w.startsWith(`${o}=`)));
  const noPattern = program?.noPattern !== undefined && words.some((w) => w !== null && program.noPattern!.includes(w));
  let needsPattern = program !== undefined && !patternGiven && !noPattern;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const word = words[i];
    if (options && word === "--") {
      options = false;
      continue;
    }
    if (options && word !== null && word !== undefined && word.startsWith("-") && word.length > 1) {
      if (program) {
        const [option, glued] = splitOption(word);
        if (program.inline?.options.includes(option)) {
          const text = glued ?? (args[i + 1] ? literal(args[i + 1]!) : null);
          if (text === null || !program.inline.plain(text))
            context.unjudgeable(
              `${name} runs a program that may write files or run commands`,
              glued === undefined ? args[i + 1]?.text : word,
            );
        }
        if (program.valued.includes(option) && glued === undefined) {
          i++;
          continue;
        }
        if (program.valued.includes(option)) continue;
      }
      await optionValue(paths, context, word);
      continue;
    }
    if (needsPattern) {
      needsPattern = false;
      if (program?.plain) {
        if (word === null || word === undefined || !program.plain(word))
          context.unjudgeable(`${name} runs a program that may write files or run commands`, arg.text);
      } else if (word === null) context.unjudgeable(`${name} reads a pattern that is not known before it runs`, arg.text);
      continue;
    }
    await operand(paths, context, arg);
    // `dd if=../x`, `make DESTDIR=/x`: the value after `=` may be a path of its own.
    const eq = word ? word.indexOf("=") : -1;
    if (word && eq > 0) await paths.text(context, word.slice(eq + 1), arg.text, "file");
  }
}

function splitOption(word: string): [string, string | undefined] {
  if (word.startsWith("--")) {
    const eq = word.indexOf("=");
    return eq < 0 ? [word, undefined] : [word.slice(0, eq), word.slice(eq + 1)];
  }
  return word.length > 2 ? [word.slice(0, 2), word.slice(2)] : [word, undefined];
}

/** `--output=../x`, `-o/tmp/x`, `-I../inc`, `-xf../a.tar`: whatever is glued to an option may be a path. */
async function optionValue(paths: PathJudge, context: ArgumentContext, word: string): Promise<void> {
  if (word.startsWith("--")) {
    const eq = word.indexOf("=");
    if (eq > 0) await paths.text(context, word.slice(eq + 1), word, "file");
    return;
  }
  const candidates = new Set<string>();
  if (word.length > 2) candidates.add(word.slice(2));
  const from = word.slice(2).search(/[./]/);
  if (from >= 0) candidates.add(word.slice(2 + from));
  for (const candidate of candidates) await paths.text(context, candidate, word, "file");
}

async function operand(paths: PathJudge, context: ArgumentContext, arg: Node): Promise<void> {
  // `<(cmd)` is a pipe's name in /dev/fd; the command inside is judged as a command.
  if (arg.type === "process_substitution") return;
  const value = evaluateWord(arg);
  if (!value.known && context.catTrusted) {
    const text = heredocIdiom(arg);
    if (text !== null) return paths.text(context, text, arg.text, "file");
  }
  await paths.argument({ command: context.text, node: arg, cwds: context.cwds, kind: "file", commandName: null });
}

function globbed(arg: Node): boolean {
  const value = evaluateWord(arg);
  return value.known && hasGlob(value.chars);
}

async function fileTests(paths: PathJudge, context: ArgumentContext, args: readonly Node[]): Promise<void> {
  const words = args.map(literal);
  for (let i = 0; i < args.length; i++) {
    const word = words[i];
    if (word === null || word === undefined) continue;
    if (FILE_TESTS.has(word) && args[i + 1]) await operand(paths, context, args[i + 1]!);
    if (FILE_COMPARISONS.has(word)) {
      if (args[i - 1]) await operand(paths, context, args[i - 1]!);
      if (args[i + 1]) await operand(paths, context, args[i + 1]!);
    }
  }
}

/**
 * The text of `"$(cat <<'EOF' ... EOF)"` (quoted delimiter: no expansion inside), as command substitution
 * gives it, without trailing newlines; null for anything else.
 */
function heredocIdiom(arg: Node): string | null {
  let node: Node | null = arg;
  if (node.type === "string") {
    const parts = node.namedChildren.filter((c): c is Node => c !== null);
    if (parts.length !== 1 || node.text !== `"${parts[0]!.text}"`) return null;
    node = parts[0]!;
  }
  if (node?.type !== "command_substitution") return null;
  const statements = node.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
  const only = statements[0];
  if (statements.length !== 1 || only?.type !== "redirected_statement") return null;
  const body = only.childForFieldName("body");
  const redirects = only.childrenForFieldName("redirect");
  if (body?.type !== "command" || body.namedChildren.length !== 1 || literal(body.namedChildren[0]!) !== "cat" || redirects.length !== 1)
    return null;
  const heredoc = redirects[0]!;
  if (heredoc.type !== "heredoc_redirect") return null;
  const start = heredoc.namedChildren.find((c) => c?.type === "heredoc_start");
  const content = heredoc.namedChildren.find((c) => c?.type === "heredoc_body");
  if (!start || !/^(['"]).*\1$|^\\/.test(start.text)) return null;
  if (heredoc.namedChildren.some((c) => c !== null && !["heredoc_start", "heredoc_body", "heredoc_end"].includes(c.type))) return null;
  let text = content ? textOf(Array.from(content.text, (ch) => ({ ch, quoted: true }))) : "";
  // `<<-` strips leading tabs from every line.
  if (heredoc.children.some((c) => c?.type === "<<-")) text = text.replace(/^\t+/gm, "");
  return text.replace(/\n+$/, "");
}
