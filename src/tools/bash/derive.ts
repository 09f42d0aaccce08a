/**
 * The walk behind `deriveBashPermissions`: every statement of the parsed command line is visited in the
 * order bash would run it, carrying the set of folders the shell may be in at that point.
 *
 * Why a set: `cd sub || true; cat x` may read `x` in either folder, so both are judged. `&&` and `||`
 * narrow it (after `cd a && ...` only `a` is possible), subshells, pipelines and `$( )` keep their `cd` to
 * themselves, loops are walked until the set stops growing. A folder that cannot be known (`cd "$X"`,
 * `cd -`, a `source`d script) is an "unknown" member: a relative path taken from it is unresolved and asks.
 */
import type { Node } from "web-tree-sitter";
import { FILE_COMPARISONS, FILE_TESTS, type ArgumentContext } from "./arguments.js";
import { escapeWildcard } from "../permission/wildcard.js";
import { bashArityPrefix } from "./arity.js";
import { type Flow, same, steady, union } from "./flow.js";
import { BashParseError, parseBash } from "./parser.js";
import { PathJudge, UNRESOLVED, type Cwds, type DeriveFs, type ExternalReason } from "./paths.js";
import { shellReading } from "./readings.js";
import { runCommandRules } from "./rules/index.js";
import type { CommandContext, Walker } from "./rules/rule.js";
import { joinContinuations, literal } from "./words.js";

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

const MAX_NESTING = 8;

/** The walk over the syntax tree; what each command does is in ./rules/, one file per command. */
export class Derivation implements Walker {
  private readonly bashPatterns = new Set<string>();
  private readonly bashAlways = new Set<string>();
  private cdpath = false;
  /** Aliases may be expanded, or `hash -p`/`enable -f` gave a name another program: no name means itself. */
  private aliases = false;
  /** Functions defined so far in the line: their names no longer mean the programs. */
  private readonly functions = new Set<string>();
  exitTrusted = true;

  readonly paths: PathJudge;

  constructor(private readonly input: DeriveInput) {
    this.paths = new PathJudge(input.root, input.fs);
  }
  sandboxed(interpreter: string): boolean {
    return this.input.sandboxed?.includes(interpreter) === true;
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
  addBashPattern(statement: Node, from: number, tokens: Node[]): void {
    const text = statement.text.slice(from - statement.startIndex);
    const words = tokens.map((t) => literal(t) ?? t.text);
    if (words[0] === "cd") return;
    this.bashPatterns.add(text);
    const lead = statement.text.slice(0, tokens[0]!.startIndex - statement.startIndex).slice(from - statement.startIndex);
    // The words are literal: a quoted `'*'` must not turn "always" into a rule for every command.
    this.bashAlways.add(`${escapeWildcard(lead)}${escapeWildcard(bashArityPrefix(words).join(" "))} *`);
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
      this.bashAlways.add(`${escapeWildcard(prefix.join(" "))} *`);
    }
  }

  /**
   * Another command that this one amounts to (`find -delete` is an `rm`, `unlink x` is `rm x`), so rules
   * written for that one hold. It brings no "always" pattern: approving `find . -name '*.o' -delete` for
   * good must not approve `rm *`.
   */
  addEquivalent(text: string): void {
    this.bashPatterns.add(text);
  }

  /** A command whose effect cannot be judged before it runs: it asks, whatever a catch-all rule allows. */
  unjudgeable(context: CommandContext, why: string, argument = context.text): void {
    this.bashPatterns.add(`${UNRESOLVED}${context.text}`);
    this.paths.unresolved({ command: context.text, argument, why });
  }

  /** The command as bash will run it: its rules from the table in ./rules/index.ts, or an ordinary program's. */
  effective(context: CommandContext, name: string, args: Node[]): Promise<Flow> {
    return runCommandRules(this, context, name, args);
  }

  argumentContext(context: CommandContext): ArgumentContext {
    return {
      text: context.text,
      cwds: context.cwds,
      catTrusted: !this.aliases && !this.functions.has("cat"),
      unjudgeable: (why, argument) => this.unjudgeable(context, why, argument),
    };
  }

  /** A command whose name is not known (`$CMD x`): any of its words may be a path. */
  async unknownCommand(context: CommandContext, words: Node[], nameText: string): Promise<Flow> {
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

  async nested(context: CommandContext, text: string, leaks: boolean): Promise<Flow> {
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
}
