/**
 * The walk behind `deriveBashPermissions`: every statement of the parsed command line is visited in the
 * order bash would run it, carrying the set of folders the shell may be in at that point.
 *
 * Why a set: `cd sub || true; cat x` may read `x` in either folder, so both are judged. `&&` and `||`
 * narrow it (after `cd a && ...` only `a` is possible), subshells, pipelines and `$( )` keep their `cd` to
 * themselves, loops are walked until the set stops growing. A folder that cannot be known (`cd "$X"`,
 * `cd -`, a `source`d script) is an "unknown" member: a relative path taken from it is unresolved and asks.
 */
import { basename, dirname, resolve } from "pathe";
import type { Node } from "web-tree-sitter";
import { bashArityPrefix } from "./arity.js";
import {
  CD_COMMANDS,
  FOLLOWS_LINKS_WHEN_RECURSING,
  GLUED_PATH_OPTIONS,
  IN_THIS_SHELL,
  LINK_SAFE,
  PATH_COMMANDS,
  recursesThroughLinks,
  SHELLS,
  WRAPPERS,
} from "./commands.js";
import { BashParseError, parseBash } from "./parser.js";
import { PathJudge, UNRESOLVED, type Cwd, type Cwds, type DeriveFs, type ExternalReason } from "./paths.js";
import { FILE_COMPARISONS, FILE_TESTS, judgeArguments, type ArgumentContext } from "./arguments.js";
import { inlineCode, interpreterOf } from "./programs.js";
import { shellReading } from "./readings.js";
import { evaluateWord, hasGlob, joinContinuations, literal, pathExpansion, textOf } from "./words.js";

export interface DeriveInput {
  /** The workspace root. */
  root: string;
  /** Where the command starts (absolute, or relative to the root). */
  workdir: string;
  fs: DeriveFs;
  /**
   * Interpreters whose programs run in a sandbox that reaches only the workspace (the embedded runtime's
   * node): their inline code is judged as any command is, not asked about as code that cannot be read.
   */
  sandboxed?: readonly string[];
}

export interface BashPermissions {
  /** The `bash` ask: one pattern per command (and per stricter reading of it), with what "always" stores. */
  bash: { patterns: string[]; always: string[] };
  /** The `external_directory` ask: folder globs, or `(unresolved) <text>` for what cannot be judged. */
  externalDirectory: { patterns: string[]; always: string[]; reasons: ExternalReason[] };
}

interface Flow {
  /** Where the shell may be when the statement succeeded. */
  ok: Cwds;
  /** ... and when it failed. */
  fail: Cwds;
}

/** Words that open a compound command (bash reserved words). */
const RESERVED_WORDS: ReadonlySet<string> = new Set(["{", "!", "[[", "if", "for", "while", "until", "case", "select", "function"]);

const MAX_CWDS = 16;
const MAX_NESTING = 8;

const key = (cwd: Cwd) => ("path" in cwd ? `p:${cwd.path}` : `u:${cwd.unknown}`);

function union(...sets: Cwds[]): Cwds {
  const seen = new Map<string, Cwd>();
  for (const set of sets) for (const cwd of set) seen.set(key(cwd), cwd);
  const all = [...seen.values()];
  // A script that keeps changing folder (`cd a && x` line after line) multiplies the possibilities; past the
  // cap the folder is simply not known, so relative paths ask rather than being judged from dozens of places.
  return all.length > MAX_CWDS ? [{ unknown: "too many possible folders to follow" }] : all;
}

const same = (a: Cwds, b: Cwds) => a.length === b.length && a.every((cwd, i) => key(cwd) === key(b[i]!));
const steady = (cwds: Cwds): Flow => ({ ok: cwds, fail: cwds });

export class Derivation {
  private readonly bashPatterns = new Set<string>();
  private readonly bashAlways = new Set<string>();
  private cdpath = false;
  /** Aliases may be expanded, or `hash -p`/`enable -f` gave a name another program: no name means itself. */
  private aliases = false;
  /** Functions defined so far in the line: their names no longer mean the programs. */
  private readonly functions = new Set<string>();
  /**
   * Whether `exit` still means the builtin, so nothing after them runs. A function of that
   * name, or code we did not read (a sourced script, unknown eval text), may have redefined them.
   */
  private exitTrusted = true;

  private readonly paths: PathJudge;

  constructor(private readonly input: DeriveInput) {
    this.paths = new PathJudge(input.root, input.fs);
  }

  result(): BashPermissions {
    return { bash: { patterns: [...this.bashPatterns], always: [...this.bashAlways] }, externalDirectory: this.paths.result() };
  }

  /** Walks a whole command line from the workdir. */
  async run(command: string): Promise<void> {
    const root = this.input.root;
    const workdir = this.input.workdir.startsWith("/") ? this.input.workdir : `${root}/${this.input.workdir}`;
    await this.paths.path({
      command: "(workdir)",
      argument: this.input.workdir,
      absolute: workdir,
      kind: "directory",
      why: "the workdir is outside the workspace",
    });
    const start = await this.paths.physical(workdir);
    await this.script(command, [{ path: start }], 0);
  }

  private async script(text: string, cwds: Cwds, depth: number): Promise<Flow> {
    const tree = await parseBash(text);
    try {
      return await this.flow(tree.rootNode, cwds, depth);
    } finally {
      tree.delete();
    }
  }

  private async flow(node: Node, cwds: Cwds, depth: number): Promise<Flow> {
    switch (node.type) {
      case "program":
      case "compound_statement":
      case "do_group":
        return steady(await this.sequence(node.namedChildren, cwds, depth));
      case "subshell":
      case "command_substitution":
      case "process_substitution":
        await this.sequence(node.namedChildren, cwds, depth);
        return steady(cwds);
      case "pipeline":
        // Every part of a pipeline runs in its own subshell: a cd there changes nothing after it.
        for (const part of node.namedChildren) if (part) await this.flow(part, cwds, depth);
        return steady(cwds);
      case "list": {
        const [left, right] = node.namedChildren;
        const operator = node.child(1)?.type;
        if (!left || !right) return steady(await this.sequence(node.namedChildren, cwds, depth));
        const l = await this.flow(left, cwds, depth);
        if (operator === "&&") {
          const r = await this.flow(right, l.ok, depth);
          return { ok: r.ok, fail: union(l.fail, r.fail) };
        }
        if (operator === "||") {
          const r = await this.flow(right, l.fail, depth);
          return { ok: union(l.ok, r.ok), fail: r.fail };
        }
        const r = await this.flow(right, union(l.ok, l.fail), depth);
        return r;
      }
      case "negated_command": {
        const inner = node.namedChildren[0];
        if (!inner) return steady(cwds);
        const r = await this.flow(inner, cwds, depth);
        return { ok: r.fail, fail: r.ok };
      }
      case "redirected_statement":
        return this.redirected(node, cwds, depth);
      case "command":
        return this.command(node, cwds, depth);
      case "file_redirect":
        await this.redirect(node, cwds, depth);
        return steady(cwds);
      case "function_definition": {
        const fname = node.childForFieldName("name")?.text;
        if (fname === "exit") this.exitTrusted = false;
        if (fname !== undefined) this.functions.add(fname);
        // The body runs whenever the function is called, so whatever it may do to the folder may hold after.
        const body = await this.sequence(node.namedChildren, cwds, depth);
        return steady(union(cwds, body));
      }
      case "variable_assignment":
      case "declaration_command":
        if (this.setsCdpath(node)) this.cdpath = true;
        return steady(await this.visitAll(node, cwds, depth));
      case "test_command":
        await this.fileTests(node, cwds);
        return steady(await this.visitAll(node, cwds, depth));
      case "while_statement":
      case "for_statement":
      case "c_style_for_statement":
        return steady(await this.loop(node, cwds, depth));
      case "comment":
      case "heredoc_body":
      case "heredoc_content":
        // Heredoc text is data, but `$( )` inside an unquoted heredoc still runs.
        await this.visitAll(node, cwds, depth);
        return steady(cwds);
      default:
        // if, case, test commands, words...: anything inside may or may not run, so every outcome is kept.
        return steady(await this.visitAll(node, cwds, depth));
    }
  }

  /** `[ -f ../x ]`, `[[ a -nt ../y ]]`: the operands of file tests are paths (existence and times leak too). */
  private async fileTests(node: Node, cwds: Cwds): Promise<void> {
    for (const child of node.descendantsOfType(["unary_expression", "binary_expression"])) {
      if (!child) continue;
      const operator = child.children.find((c) => c?.type === "test_operator")?.text ?? "";
      const operands = child.namedChildren.filter((c): c is Node => c !== null && c.type !== "test_operator");
      const judged = child.type === "unary_expression" ? FILE_TESTS.has(operator) : FILE_COMPARISONS.has(operator);
      if (!judged) continue;
      for (const operand of operands)
        await this.paths.argument({ command: node.text, node: operand, cwds, kind: "file", commandName: null });
    }
  }

  /** Statements one after another; `&` sends one to the background, where its cd stays. */
  private async sequence(nodes: readonly (Node | null)[], cwds: Cwds, depth: number): Promise<Cwds> {
    let current = cwds;
    for (const node of nodes) {
      if (!node) continue;
      const r = await this.flow(node, current, depth);
      if (node.nextSibling?.type !== "&") current = union(r.ok, r.fail);
    }
    return current;
  }

  /** Children whose effect may or may not happen: the result keeps every folder reached on the way. */
  private async visitAll(node: Node, cwds: Cwds, depth: number): Promise<Cwds> {
    let current = cwds;
    let seen = cwds;
    for (const child of node.namedChildren) {
      if (!child) continue;
      const r = await this.flow(child, current, depth);
      current = union(r.ok, r.fail);
      seen = union(seen, current);
    }
    return seen;
  }

  /** A loop body may run again from wherever its last run left the shell: walk it until nothing new appears. */
  private async loop(node: Node, cwds: Cwds, depth: number): Promise<Cwds> {
    let current = cwds;
    for (let pass = 0; pass < 3; pass++) {
      const next = union(current, await this.visitAll(node, current, depth));
      if (same(next, current)) return current;
      current = next;
    }
    return union(current, [{ unknown: "a folder change inside a loop" }]);
  }

  private async redirected(node: Node, cwds: Cwds, depth: number): Promise<Flow> {
    // Redirections are opened before the body runs, in the folder the statement starts in.
    for (const redirect of node.childrenForFieldName("redirect")) await this.redirect(redirect, cwds, depth);
    const body = node.childForFieldName("body");
    return body ? this.flow(body, cwds, depth) : steady(cwds);
  }

  private async redirect(node: Node, cwds: Cwds, depth: number): Promise<void> {
    if (node.type !== "file_redirect") {
      // Heredocs and here-strings: no file, but a nested `> file` or `$( )` may sit inside.
      for (const child of node.namedChildren) if (child) await this.flow(child, cwds, depth);
      return;
    }
    const operator = node.children.find((c) => c && !c.isNamed)?.type ?? "";
    const text = this.statementText(node);
    // tree-sitter gives `> .\<newline>./x` two destinations; bash reads one word. Any word it lists is judged.
    for (const destination of joinContinuations(node.childrenForFieldName("destination"))) {
      await this.flow(destination, cwds, depth);
      // `>&2`, `<&0` and `>&-` copy or close descriptors; every other target (even `> 2`) is a file.
      if ((operator === ">&" || operator === "<&" || operator === ">&-") && (destination.type === "number" || destination.text === "-"))
        continue;
      await this.paths.argument({ command: text, node: destination, cwds, kind: "file", commandName: null });
    }
  }

  private statementText(node: Node): string {
    let top = node;
    while (
      top.parent &&
      top.parent.type !== "program" &&
      !["list", "pipeline", "subshell", "compound_statement", "do_group"].includes(top.parent.type)
    )
      top = top.parent;
    return top.text;
  }

  private setsCdpath(node: Node): boolean {
    if (node.type === "variable_assignment") return node.childForFieldName("name")?.text === "CDPATH";
    return node.namedChildren.some((c) => c !== null && (c.text === "CDPATH" || c.text.startsWith("CDPATH=") || this.setsCdpath(c)));
  }

  // ---- simple commands ----

  private async command(node: Node, cwds: Cwds, depth: number): Promise<Flow> {
    const named = node.childForFieldName("name");
    // `c\<newline>at` is `cat`: the name takes part in joining too.
    const words = named ? joinContinuations([named, ...node.childrenForFieldName("argument")]) : [];
    const nameNode = words[0] ?? null;
    const args = words.slice(1);
    const assignments = node.namedChildren.filter((c): c is Node => c?.type === "variable_assignment");
    const statement =
      node.parent?.type === "redirected_statement" && node.parent.childForFieldName("body")?.id === node.id ? node.parent : node;
    const tokens = nameNode ? [nameNode, ...args] : [];
    if (nameNode) {
      this.addBashPattern(statement, statement.startIndex, tokens);
      // The stricter reading: the same command without its `VAR=value` prefix, so `CI=true git commit` meets
      // the rules written for `git commit`. Both patterns go into one ask; the engine denies if either is denied.
      if (assignments.length > 0) this.addBashPattern(statement, nameNode.startIndex, tokens);
    }

    // Expansions in assignments, the name and the arguments run first, in the current folder.
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "file_redirect" || child.type === "herestring_redirect") await this.redirect(child, cwds, depth);
      else if (child.type !== "word" && child.type !== "number" && child.type !== "raw_string") await this.flow(child, cwds, depth);
    }
    if (!nameNode) return steady(cwds);
    const localCdpath = assignments.some((a) => this.setsCdpath(a));

    // `/bin/rm` and `./rm` are rm as far as paths go.
    const written = literal(nameNode);
    const name = written === null ? null : written.includes("/") ? written.slice(written.lastIndexOf("/") + 1) : written;
    const context: CommandContext = { statement, text: statement.text, cwds, depth, cdpath: this.cdpath || localCdpath };
    if (name === null || this.aliases) {
      this.exitTrusted = false;
      return this.unknownCommand(context, name === null ? tokens : args, nameNode.text);
    }
    // With aliases on, any later word may be an alias for anything.
    if (name === "shopt" && args.some((a) => literal(a) === "expand_aliases")) this.aliases = true;
    // `hash -p /bin/rm ls` makes `ls` run rm; `enable -f lib.so ls` loads a builtin named ls.
    if ((name === "hash" || name === "enable") && args.some((a) => /^-[A-Za-z]*[pf]/.test(literal(a) ?? "-p"))) this.aliases = true;
    // `enable -n exit` turns the builtin off: exit then no longer ends anything.
    if (name === "enable") this.exitTrusted = false;
    return this.effective(context, name, args);
  }

  /**
   * The command as written (OpenCode's pattern, redirections included) and as the shell will run it (see
   * ./readings.ts); a command whose name is only made when it runs gives an unresolved pattern instead.
   */
  private addBashPattern(statement: Node, from: number, tokens: Node[]): void {
    const text = statement.text.slice(from - statement.startIndex);
    const words = tokens.map((t) => literal(t) ?? t.text);
    if (words[0] === "cd") return;
    this.bashPatterns.add(text);
    const lead = statement.text.slice(0, tokens[0]!.startIndex - statement.startIndex).slice(from - statement.startIndex);
    this.bashAlways.add(`${lead}${bashArityPrefix(words).join(" ")} *`);
    const reading = shellReading(tokens);
    if (!reading.known) {
      this.bashPatterns.add(`${UNRESOLVED}${text}`);
      return;
    }
    if (reading.prefix[0] === "cd") return;
    // Redirections after the words stay as written, so a rule about `* > /etc/*` still sees them.
    const last = tokens[tokens.length - 1]!;
    const tail = statement.text.slice(last.endIndex - statement.startIndex).trimStart();
    for (const { text: words, prefix } of [reading, ...reading.also]) {
      this.bashPatterns.add(tail ? `${words} ${tail}` : words);
      this.bashAlways.add(`${prefix.join(" ")} *`);
    }
  }

  /**
   * Another command that this one amounts to (`find -delete` is an `rm`, `unlink x` is `rm x`), so rules
   * written for that one hold. It brings no "always" pattern: approving `find . -name '*.o' -delete` for
   * good must not approve `rm *`.
   */
  private addEquivalent(text: string): void {
    this.bashPatterns.add(text);
  }

  /** A command whose effect cannot be judged before it runs: it asks, whatever a catch-all rule allows. */
  private unjudgeable(context: CommandContext, why: string, argument = context.text): void {
    this.bashPatterns.add(`${UNRESOLVED}${context.text}`);
    this.paths.unresolved({ command: context.text, argument, why });
  }

  /** The command as bash will run it, once wrappers like `sudo`, `env` and `command` are looked through. */
  private async effective(context: CommandContext, name: string, args: Node[]): Promise<Flow> {
    const wrapper = WRAPPERS[name];
    if (wrapper) return this.wrapped(context, name, wrapper, args);
    if (CD_COMMANDS.has(name)) return this.cd(context, name, args);
    if (name === "popd") return { ok: union(context.cwds, [{ unknown: "popd returns to an earlier folder" }]), fail: context.cwds };
    if (name === "eval") return this.evalCommand(context, args);
    if (name === "trap") return this.trap(context, args);
    // `cd src || exit 1; rm ../x`: past an exit the shell is nowhere, so nothing later is judged from there.
    // (`return` is not one: outside a function bash reports an error and carries on.)
    if (name === "exit" && this.exitTrusted) return { ok: [], fail: [] };
    if (name === "source" || name === ".") return this.source(context, args);
    if (SHELLS.has(name)) return this.shell(context, args);
    if (name === "su") return this.su(context, args);
    // watch joins its arguments and hands them to `sh -c`.
    if (name === "watch") return this.joinedText(context, args);
    if (name === "xargs") return this.xargs(context, args);
    if (name === "find") return this.find(context, args);
    if (name === "unlink") this.addEquivalent(`rm ${args.map((a) => literal(a) ?? a.text).join(" ")}`);
    if (PATH_COMMANDS.has(name)) {
      await this.pathOperands(context, name, args);
      return steady(context.cwds);
    }
    const interpreter = interpreterOf(name);
    const inline = interpreter ? inlineCode(interpreter, args.map(literal), stdinFed(context.statement)) : null;
    if (inline && !this.input.sandboxed?.includes(name)) this.unjudgeable(context, inline);
    await judgeArguments(this.paths, this.argumentContext(context), name, args);
    return steady(context.cwds);
  }

  private argumentContext(context: CommandContext): ArgumentContext {
    return {
      text: context.text,
      cwds: context.cwds,
      catTrusted: !this.aliases && !this.functions.has("cat"),
      unjudgeable: (why, argument) => this.unjudgeable(context, why, argument),
    };
  }

  private async joinedText(context: CommandContext, args: Node[]): Promise<Flow> {
    let i = 0;
    // watch's options: -n and -d take values (`-n 2`, `-d=permanent`); the rest are flags.
    while (i < args.length && (literal(args[i]!) ?? "").startsWith("-")) i += literal(args[i]!) === "-n" ? 2 : 1;
    const words = args.slice(i).map(literal);
    if (words.length === 0) return steady(context.cwds);
    if (words.some((w) => w === null)) {
      this.unjudgeable(context, "a command built from text that is not known before it runs");
      return steady(context.cwds);
    }
    await this.nested(context, words.join(" "), false);
    return steady(context.cwds);
  }

  private async wrapped(context: CommandContext, name: string, wrapper: (typeof WRAPPERS)[string], args: Node[]): Promise<Flow> {
    let i = 0;
    let positional = wrapper.positional ?? 0;
    let chdir = false;
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word === null) {
        // `sudo $OPTS rm ...` or `env $CMD`: the unknown word may be the command itself.
        return this.unknownCommand(context, args.slice(i), args[i]!.text);
      }
      if (word === "--") {
        i++;
        break;
      }
      if (word.startsWith("--")) {
        const [option] = word.split("=", 1) as [string];
        if (wrapper.chdir?.long.includes(option)) chdir = true;
        if (wrapper.splitsString?.long.includes(option)) return this.unknownCommand(context, args.slice(i), args[i]!.text);
        if (!word.includes("=") && wrapper.valuedLong?.includes(option)) i++;
        continue;
      }
      if (word.startsWith("-") && word.length > 1) {
        const letters = word.slice(1);
        for (let j = 0; j < letters.length; j++) {
          const letter = letters[j]!;
          // `command -v x` only says what x is; it runs nothing.
          if (name === "command" && (letter === "v" || letter === "V")) return steady(context.cwds);
          if (wrapper.chdir?.short.includes(letter)) chdir = true;
          if (wrapper.splitsString?.short.includes(letter)) return this.unknownCommand(context, args.slice(i), args[i]!.text);
          if (wrapper.valued.includes(letter)) {
            if (j === letters.length - 1) i++;
            break;
          }
        }
        continue;
      }
      if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
      if (positional > 0) {
        positional--;
        continue;
      }
      break;
    }
    // The wrapper's own words may name files too (`flock /tmp/lock cmd`, `strace -o ../log cmd`); an
    // environment assignment (`env PATH=/bin`) opens nothing.
    const own = args.slice(0, i).filter((a) => !(wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(literal(a) ?? "")));
    await judgeArguments(this.paths, this.argumentContext(context), name, own);
    const rest = args.slice(i);
    const inner = rest[0];
    if (!inner) return steady(context.cwds);
    // `time` and `coproc` are reserved words that tree-sitter reads as commands, so `time { rm x; }` comes out
    // as the command `time {` ... and a command `}`. Bash runs the compound command: read it again from there.
    const innerWord = literal(inner);
    if ((name === "time" || name === "coproc") && innerWord !== null && RESERVED_WORDS.has(innerWord)) {
      return this.nested(context, inner.tree.rootNode.text.slice(inner.startIndex), name === "time");
    }
    // The wrapped command alone is also a pattern, so `sudo rm -rf x` meets the rules written for `rm`.
    this.addBashPattern(context.statement, inner.startIndex, rest);
    const innerContext = chdir ? { ...context, cwds: [{ unknown: `${name} runs the command in another folder` }] } : context;
    const innerName = literal(inner);
    if (innerName === null) return this.unknownCommand(innerContext, rest, inner.text);
    const flow = await this.effective(innerContext, innerName, rest.slice(1));
    // Options we misread could hide the real command further on: any word naming a command that touches
    // paths is also read as the start of the command.
    for (let k = 1; k < rest.length; k++) {
      const word = literal(rest[k]!);
      if (word !== null && (PATH_COMMANDS.has(word) || SHELLS.has(word) || word === "eval" || word === "xargs" || word === "find")) {
        await this.effective(innerContext, word, rest.slice(k + 1));
      }
    }
    // Only `command cd`, `builtin cd` and `time cd` change this shell's folder. Through any other wrapper `cd`
    // is a separate program (or fails), so what follows still runs where it was: following that cd would
    // judge later paths from the wrong folder.
    return IN_THIS_SHELL.has(name) && !chdir ? flow : steady(context.cwds);
  }

  /** A command whose name is not known (`$CMD x`): any of its words may be a path. */
  private async unknownCommand(context: CommandContext, words: Node[], nameText: string): Promise<Flow> {
    this.bashPatterns.add(`${UNRESOLVED}${context.text}`);
    for (const word of words) {
      await this.paths.argument({
        command: context.text,
        node: word,
        cwds: context.cwds,
        kind: "file",
        commandName: null,
        why: `the command ${nameText} is not known before it runs`,
      });
    }
    // It might be `cd`, or `eval`: the folder afterwards is not known either.
    return { ok: union(context.cwds, [{ unknown: `${nameText} may change folder` }]), fail: context.cwds };
  }

  private async cd(context: CommandContext, name: string, args: Node[]): Promise<Flow> {
    const target = this.operands(name, args, true).find((o) => o.kind === "operand");
    if (!target) {
      const why = name === "cd" ? "cd with no folder goes to $HOME" : `${name} with no folder swaps the folder stack`;
      this.paths.unresolved({ command: context.text, argument: context.text, why });
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
      this.paths.unresolved({ command: context.text, argument: target.node.text, why: unknownWhy });
      return { ok: [{ unknown: `${target.node.text}: ${unknownWhy}` }], fail: context.cwds };
    }
    const path = text!;
    // With CDPATH set, a bare name may be found in any folder it lists.
    if (context.cdpath && !/^(\/|\.\/|\.\.\/|\.$|\.\.$)/.test(path)) {
      const why = "CDPATH is set, so cd may pick a folder anywhere";
      this.paths.unresolved({ command: context.text, argument: path, why });
      return { ok: [{ unknown: why }], fail: context.cwds };
    }
    const landed: Cwds = [];
    for (const cwd of context.cwds) {
      if (!path.startsWith("/") && "unknown" in cwd) {
        this.paths.unresolved({
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
        await this.paths.path({ command: context.text, argument: path, absolute, kind: "directory", why: `${name} leaves the workspace` });
        landed.push({ path: await this.paths.physical(absolute) });
      }
    }
    return { ok: union(landed), fail: context.cwds };
  }

  private async evalCommand(context: CommandContext, args: Node[]): Promise<Flow> {
    const words = args.map(literal);
    if (words.some((w) => w === null)) {
      this.exitTrusted = false;
      const why = "eval runs text that is not known before it runs";
      this.unjudgeable(context, why);
      return { ok: union(context.cwds, [{ unknown: why }]), fail: context.cwds };
    }
    // eval runs in this shell: its cd counts afterwards.
    return this.nested(context, words.join(" "), true);
  }

  /** `trap 'text' EXIT`: the text runs later, in this shell; read it as eval text (its cd is not followed). */
  private async trap(context: CommandContext, args: Node[]): Promise<Flow> {
    // `trap - INT` resets, `trap -p` and `trap -l` print: no text to run.
    if (args.length < 2 || literal(args[0]!) === "-") return steady(context.cwds);
    const first = args.find((a) => !(literal(a) ?? "").startsWith("-"));
    if (!first) return steady(context.cwds);
    const text = literal(first);
    if (text === null) {
      this.unjudgeable(context, "a trap runs text that is not known before it runs", first.text);
      return steady(context.cwds);
    }
    const after = await this.nested(context, text, true);
    // Only a trap that itself changes folder (`trap 'cd x' DEBUG`) makes the folder afterwards unknown.
    return same(union(after.ok, after.fail), context.cwds)
      ? steady(context.cwds)
      : steady(union(context.cwds, [{ unknown: "a trap may change folder" }]));
  }

  private async source(context: CommandContext, args: Node[]): Promise<Flow> {
    const script = this.operands("source", args).find((o) => o.kind === "operand");
    if (script)
      await this.paths.argument({ command: context.text, node: script.node, cwds: context.cwds, kind: "file", commandName: "source" });
    this.exitTrusted = false;
    // Its contents are not read here; it runs in this shell, so afterwards the folder is not known.
    return { ok: union(context.cwds, [{ unknown: "a sourced script may change folder" }]), fail: context.cwds };
  }

  private async shell(context: CommandContext, args: Node[]): Promise<Flow> {
    const words = args.map(literal);
    // `-c` may sit in a cluster (`-lc`) or after options we do not know to take a value (`--rcfile x -c`):
    // every cluster holding a `c` is read as one, with the first non-option word after it as the text.
    const strings: number[] = [];
    words.forEach((word, i) => {
      if (word !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(word)) strings.push(i);
    });
    for (const at of strings) {
      let i = at + 1;
      while (i < args.length && /^[-+]./.test(words[i] ?? "")) i += /^[-+][oO]$/.test(words[i]!) ? 2 : 1;
      const command = args[i];
      const text = command ? literal(command) : null;
      if (text === null) {
        this.unjudgeable(context, "a shell runs text that is not known before it runs", command?.text ?? context.text);
        continue;
      }
      // A child shell: its cd stays there.
      await this.nested(context, text, false);
    }
    if (strings.length > 0) return steady(context.cwds);
    let i = 0;
    while (i < args.length && words[i] !== null && /^[-+]./.test(words[i]!) && words[i] !== "--")
      i += /^[-+][oO]$|^--(rcfile|init-file)$/.test(words[i]!) ? 2 : 1;
    if (words[i] === "--") i++;
    const script = args[i];
    if (!script || words[i] === "-") {
      this.unjudgeable(context, "a shell reading commands from its input");
      return steady(context.cwds);
    }
    // `bash script.sh`: the script's path is judged; what it does inside is not read, as for any program.
    await this.paths.argument({ command: context.text, node: script, cwds: context.cwds, kind: "file", commandName: null });
    return steady(context.cwds);
  }

  /** `su [-] [user] -c 'text'`: the text is shell text, wherever -c stands; without it, a shell reads its input. */
  private async su(context: CommandContext, args: Node[]): Promise<Flow> {
    const words = args.map(literal);
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (word === null || word === undefined) break;
      const glued = word.startsWith("--command=") ? word.slice("--command=".length) : null;
      if (glued === null && word !== "-c" && word !== "--command") continue;
      const text = glued ?? words[i + 1] ?? null;
      if (text === null) break;
      await this.nested(context, text, false);
      return steady(context.cwds);
    }
    this.unjudgeable(context, "su runs a shell whose commands are not known before it runs");
    return steady(context.cwds);
  }

  private async nested(context: CommandContext, text: string, leaks: boolean): Promise<Flow> {
    if (context.depth >= MAX_NESTING) {
      this.unjudgeable(context, "shell text nested too deeply to follow", text);
      return steady(union(context.cwds, [{ unknown: "nested shell text" }]));
    }
    try {
      const flow = await this.script(text, context.cwds, context.depth + 1);
      return leaks ? flow : steady(context.cwds);
    } catch (error) {
      if (!(error instanceof BashParseError)) throw error;
      this.unjudgeable(context, "shell text that does not parse", text);
      return steady(union(context.cwds, [{ unknown: "shell text that does not parse" }]));
    }
  }

  private async xargs(context: CommandContext, args: Node[]): Promise<Flow> {
    let i = 0;
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word === null) return this.unknownCommand(context, args.slice(i), args[i]!.text);
      if (word === "--") {
        i++;
        break;
      }
      if (word.startsWith("--arg-file=")) await this.paths.text(context, word.slice("--arg-file=".length), args[i]!.text, "file");
      if (word.startsWith("--")) continue;
      if (!word.startsWith("-") || word.length === 1) break;
      const letter = word[1]!;
      // These take a value, glued (`-n1`) or as the next word (`-n 1`); `-a` names the file to read.
      if (!"aEILnPsd".includes(letter)) continue;
      const value = word.length > 2 ? word.slice(2) : args[++i] ? literal(args[i]!) : null;
      if (letter === "a" && value !== null) await this.paths.text(context, value, word, "file");
    }
    const rest = args.slice(i);
    const first = rest[0];
    if (!first) return steady(context.cwds);
    const inner = literal(first);
    if (
      inner === null ||
      PATH_COMMANDS.has(inner) ||
      SHELLS.has(inner) ||
      inner === "eval" ||
      inner === "source" ||
      inner === "find" ||
      WRAPPERS[inner]
    ) {
      this.paths.unresolved({
        command: context.text,
        argument: context.text,
        why: "xargs adds arguments from its input, which are not known before it runs",
      });
    }
    // The command xargs runs is a pattern too, so `xargs git commit` meets the rules for `git commit`.
    this.addBashPattern(context.statement, first.startIndex, rest);
    if (inner !== null) await this.effective(context, inner, rest.slice(1));
    return steady(context.cwds);
  }

  private async find(context: CommandContext, args: Node[]): Promise<Flow> {
    let i = 0;
    // find's own options come before the starting points.
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word === null) break;
      if (word === "-H" || word === "-L" || word === "-P") {
        if (word !== "-P")
          this.paths.unresolved({ command: context.text, argument: word, why: "find follows symlinks, which may lead anywhere" });
        continue;
      }
      if (word === "-D") {
        i++;
        continue;
      }
      if (/^-O\d*$/.test(word)) continue;
      break;
    }
    const starts: string[] = [];
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      if (word !== null && (word.startsWith("-") || word === "(" || word === "!" || word === ",")) break;
      starts.push(word ?? args[i]!.text);
      await this.paths.argument({ command: context.text, node: args[i]!, cwds: context.cwds, kind: "directory", commandName: "find" });
    }
    for (; i < args.length; i++) {
      const word = literal(args[i]!);
      // `-delete` removes what it finds, as `rm -rf` would: rules for rm hold for it.
      if (word === "-delete") {
        const where = starts.length > 0 ? starts.join(" ") : ".";
        this.addEquivalent(`rm ${where}`);
        this.addEquivalent(`rm -rf ${where}`);
      }
      // The command of -exec (up to `;` or `+`) runs as its own command: its rules and paths hold.
      if (word === "-exec" || word === "-execdir" || word === "-ok" || word === "-okdir") {
        let end = i + 1;
        while (end < args.length && !(literal(args[end]!) === ";" || (literal(args[end]!) === "+" && literal(args[end - 1]!) === "{}")))
          end++;
        const run = args.slice(i + 1, end);
        if (run.length > 0) {
          this.addBashPattern(context.statement, run[0]!.startIndex, run);
          const runName = literal(run[0]!);
          if (runName !== null) await this.effective(context, basename(runName), run.slice(1));
        }
      }
      if (word === "-follow")
        this.paths.unresolved({ command: context.text, argument: word, why: "find follows symlinks, which may lead anywhere" });
      if (word === "-fprint" || word === "-fprint0" || word === "-fprintf" || word === "-fls") {
        const file = args[i + 1];
        if (file) await this.paths.argument({ command: context.text, node: file, cwds: context.cwds, kind: "file", commandName: null });
      }
      if (word === "-exec" || word === "-execdir" || word === "-ok" || word === "-okdir") {
        const run = args[i + 1] ? literal(args[i + 1]!) : null;
        if (run === null || !LINK_SAFE.has(basename(run))) {
          this.paths.unresolved({
            command: context.text,
            argument: args[i + 1]?.text ?? word,
            why: "find runs a command on every path it finds, through symlinks too",
          });
        }
      }
    }
    return steady(context.cwds);
  }

  // ---- operands and paths ----

  private operands(name: string, args: Node[], dashIsOperand = false): { kind: "operand" | "glued"; node: Node; glued?: string }[] {
    const out: { kind: "operand" | "glued"; node: Node; glued?: string }[] = [];
    const gluedLetters = GLUED_PATH_OPTIONS[name] ?? "";
    let options = true;
    for (const node of args) {
      const value = evaluateWord(node);
      const word = value.known ? textOf(value.chars) : null;
      if (options && word === "--") {
        options = false;
        continue;
      }
      // An option only when its leading dash was written unquoted or quoted alike: getopt sees no quotes.
      if (options && word !== null && word.startsWith("-") && word.length > 1 && !(dashIsOperand && /^-\d+$/.test(word))) {
        if (word.startsWith("--")) {
          const eq = word.indexOf("=");
          if (eq > 0) out.push({ kind: "glued", node, glued: word.slice(eq + 1) });
        } else {
          for (let j = 1; j < word.length; j++) {
            if (gluedLetters.includes(word[j]!)) {
              if (j + 1 < word.length) out.push({ kind: "glued", node, glued: word.slice(j + 1) });
              break;
            }
          }
        }
        continue;
      }
      if (word === "-" && !dashIsOperand) continue; // standard input
      out.push({ kind: "operand", node });
    }
    return out;
  }

  private async pathOperands(context: CommandContext, name: string, args: Node[]): Promise<void> {
    const operands = this.operands(name, args);
    if (FOLLOWS_LINKS_WHEN_RECURSING.has(name) && recursesThroughLinks(args.map(literal))) {
      // `chmod -RL`, `cp -rL`: every link anywhere below is followed, and we do not walk the tree to find them.
      this.paths.unresolved({
        command: context.text,
        argument: context.text,
        why: `${name} follows symlinks while recursing, which may lead anywhere`,
      });
    }
    for (const operand of operands) {
      if (operand.kind === "glued") await this.paths.text(context, operand.glued!, operand.node.text, "file");
      else await this.paths.argument({ command: context.text, node: operand.node, cwds: context.cwds, kind: "file", commandName: name });
    }
    // A symlink's target is read from the link's folder, not the shell's: judge it from there as well.
    if (name === "ln" && operands.length >= 2) {
      const link = operands[operands.length - 1]!;
      const linkText = literal(link.node);
      if (linkText === null) return;
      for (const cwd of context.cwds) {
        if (!("path" in cwd)) continue;
        const linkPath = linkText.startsWith("/") ? linkText : `${cwd.path}/${linkText}`;
        const places = [dirname(linkPath), linkPath];
        for (const target of operands.slice(0, -1)) {
          await this.paths.argument({
            command: context.text,
            node: target.node,
            cwds: places.map((p) => ({ path: p })),
            kind: "file",
            commandName: name,
          });
        }
      }
    }
  }
}

interface CommandContext {
  /** The statement (with its redirections) the command is part of. */
  statement: Node;
  /** The statement's text, for reasons. */
  text: string;
  cwds: Cwds;
  depth: number;
  /** CDPATH may be set, so a bare `cd name` can land anywhere. */
  cdpath: boolean;
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
