/**
 * The execute tool's interpreter: acorn parses the program, and this walks the tree itself. Nothing of the
 * program reaches the host's evaluator: there is no eval, no Function, no module loading, no timers, and no
 * host object or prototype anywhere in reach (values are ./values.ts's own classes; a property is looked up
 * in a map of own properties, or in a fixed table of methods). Every node evaluated is a step of the budget,
 * which stops the program at its limits whatever it catches.
 */
import { type AnyNode, type Node, parse, type Pattern, type Program } from "acorn";
import { ERROR_CONSTRUCTORS, methodOf, native, standardGlobals } from "./builtins.js";
import { Budget, type ExecuteLimits } from "./limits.js";
import { Scope } from "./scope.js";
import {
  appendAll,
  ArrayValue,
  display,
  FunctionValue,
  looseEquals,
  makeError,
  type NativeHost,
  ObjectValue,
  PromiseValue,
  strictEquals,
  ThrowSignal,
  throwError,
  toNumber,
  toJson,
  toText,
  truthy,
  typeOf,
  type Value,
} from "./values.js";

type FunctionNode = Extract<AnyNode, { type: "FunctionDeclaration" | "FunctionExpression" | "ArrowFunctionExpression" }>;
type Completion = { kind: "normal" } | { kind: "break" | "continue"; label: string | undefined } | { kind: "return"; value: Value };
const NORMAL: Completion = { kind: "normal" };

/** Deeper syntax than this is refused before it runs: the walker recurses once per level. */
const MAX_NESTING = 200;

/** A program that cannot be run as written: the message names the line and what to write instead. */
export class ProgramError extends Error {
  override readonly name = "ProgramError";
}

/** `a?.b` met a nullish `a`: the whole chain is undefined. */
class ShortCircuit {}

/** How a program's tool call reaches the session: the result is the tool's output or its error. */
type ToolCaller = (tool: string, params: Record<string, unknown>) => Promise<{ ok: true; output: string } | { ok: false; error: string }>;

export interface ProgramResult {
  /** What console.log printed, then the returned value if any. */
  output: string;
}

export interface RunOptions {
  limits: ExecuteLimits;
  signal: AbortSignal;
  /** Tools the program may call, by name. */
  tools: readonly string[];
  /** Names refused with a reason (execute inside execute). */
  refused: ReadonlyMap<string, string>;
  callTool: ToolCaller;
  /** Hears each printed line as it is printed (the worker passes them on, so a stopped program's output is not lost). */
  onPrint?: (line: string) => void;
}

function syntaxDepth(program: Program): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[program, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (depth > MAX_NESTING) return depth;
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth]);
    } else if (node && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        if (key === "loc" || key === "start" || key === "end") continue;
        if (child && typeof child === "object") stack.push([child, depth + 1]);
      }
    }
  }
  return deepest;
}

/** Parses a program: top-level await and return are allowed; modules are not (no import, no export). */
export function parseProgram(source: string, limits: ExecuteLimits): Program {
  if (source.length > limits.maxSourceLength)
    throw new ProgramError(
      `The program is ${source.length} characters long, past the limit of ${limits.maxSourceLength}. Write a shorter one.`,
    );
  let program: Program;
  try {
    program = parse(source, {
      ecmaVersion: 2024,
      sourceType: "script",
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
      locations: true,
    });
  } catch (error) {
    if (error instanceof RangeError) throw new ProgramError("The program nests too deep to parse. Flatten it.");
    throw new ProgramError(`The program does not parse: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Each syntax level costs a few frames of the host's stack in the walker; past a fixed depth, refuse.
  if (syntaxDepth(program) > MAX_NESTING)
    throw new ProgramError(`The program nests more than ${MAX_NESTING} levels deep. Flatten it (use variables and loops).`);
  return program;
}

const lineOf = (node: Node) => node.loc?.start.line ?? 0;

export class Interpreter implements NativeHost {
  readonly budget: Budget;
  private readonly printed: string[] = [];
  private readonly global = new Scope<Value>(undefined, true);
  private toolsObject = new ObjectValue();

  constructor(private readonly options: RunOptions) {
    this.budget = new Budget(options.limits, options.signal);
    for (const [name, value] of Object.entries(standardGlobals())) this.global.declare(name, value, false);
    this.global.declare("console", this.consoleObject(), false);
    for (const tool of options.tools) this.toolsObject.props.set(tool, this.toolFunction(tool));
    for (const [tool, reason] of options.refused)
      this.toolsObject.props.set(
        tool,
        native(tool, () => throwError("Error", reason)),
      );
    this.global.declare("tools", this.toolsObject, false);
  }

  allocate(size: number, added?: number): void {
    this.budget.allocate(size, added);
  }

  private consoleObject(): ObjectValue {
    const log = native("log", (args) => {
      const line = args.map((arg) => display(arg, this)).join(" ");
      this.budget.print(new TextEncoder().encode(line).length + 1);
      this.printed.push(line);
      this.options.onPrint?.(line);
      return undefined;
    });
    const console = new ObjectValue();
    for (const name of ["log", "info", "warn", "error", "debug"]) console.props.set(name, log);
    return console;
  }

  private toolFunction(tool: string): FunctionValue {
    return native(tool, ([input]) => {
      this.budget.toolCall();
      const params = input === undefined ? new ObjectValue() : input;
      if (!(params instanceof ObjectValue))
        throwError("TypeError", `tools.${tool} takes one object of parameters, as the ${tool} tool does: tools.${tool}({ ... })`);
      // Through JSON text and back: what reaches a tool is plain data, `__proto__` an ordinary own key.
      const json = JSON.parse(toJson(params, this) ?? "{}") as Record<string, unknown>;
      const call = this.options.callTool(tool, json).then((result): Value => {
        if (!result.ok) throw new ThrowSignal(makeError("ToolError", `${tool} failed: ${result.error}`));
        this.budget.allocate(result.output.length);
        return result.output;
      });
      return new PromiseValue(call);
    });
  }

  /** Runs the program to its end; throws LimitError, ProgramError, or ThrowSignal for an uncaught throw. */
  async run(program: Program): Promise<ProgramResult> {
    const completion = await this.block(program.body, this.global);
    let output = this.printed.join("\n");
    if (completion.kind === "return" && completion.value !== undefined) {
      const value = completion.value instanceof PromiseValue ? await completion.value.promise : completion.value;
      const shown = display(value, this);
      this.budget.print(new TextEncoder().encode(shown).length);
      output = output ? `${output}\n${shown}` : shown;
    }
    return { output };
  }

  // ---- functions -------------------------------------------------------------------------------

  async call(fn: Value, args: Value[]): Promise<Value> {
    if (!(fn instanceof FunctionValue)) throwError("TypeError", `${typeOf(fn)} is not a function`);
    if (fn.impl.kind === "native") {
      const result = fn.impl.run(args, this);
      return result instanceof Promise ? await result : result;
    }
    const { node, scope } = fn.impl;
    const body = async (): Promise<Value> => {
      this.budget.enter();
      try {
        const local = new Scope<Value>(scope, true);
        for (let i = 0; i < node.params.length; i++) {
          const param = node.params[i]!;
          if (param.type === "RestElement") {
            await this.bind(param.argument, new ArrayValue(args.slice(i)), local, true);
            break;
          }
          await this.bind(param, args[i], local, true);
        }
        if (node.body.type !== "BlockStatement") return await this.expr(node.body, local);
        const completion = await this.block(node.body.body, local);
        return completion.kind === "return" ? completion.value : undefined;
      } finally {
        this.budget.leave();
      }
    };
    if (node.async) return new PromiseValue(body());
    return body();
  }

  private closure(node: FunctionNode, scope: Scope<Value>): FunctionValue {
    if (node.generator) throw this.unsupported(node, "generator functions", "", true);
    const name = node.id ? node.id.name : "";
    return new FunctionValue(name, { kind: "closure", node, scope });
  }

  /** `what` names one thing ("new Proxy"), or several (`plural`: "classes"). */
  private unsupported(node: Node, what: string, instead = "", plural = false): ProgramError {
    return new ProgramError(
      `line ${lineOf(node)}: ${what} ${plural ? "are" : "is"} not supported in execute${instead ? `; ${instead}` : "."}`,
    );
  }

  // ---- statements ------------------------------------------------------------------------------

  private async block(body: readonly AnyNode[], scope: Scope<Value>): Promise<Completion> {
    for (const statement of body) {
      if (statement.type === "FunctionDeclaration" && statement.id) scope.declare(statement.id.name, this.closure(statement, scope), true);
    }
    for (const statement of body) {
      const completion = await this.stmt(statement, scope);
      if (completion.kind !== "normal") return completion;
    }
    return NORMAL;
  }

  private async stmt(node: AnyNode, scope: Scope<Value>, labels: string[] = []): Promise<Completion> {
    this.budget.step();
    if (this.budget.timeToYield()) await new Promise((resolve) => setTimeout(resolve, 0));
    switch (node.type) {
      case "ExpressionStatement":
        await this.expr(node.expression, scope);
        return NORMAL;
      case "VariableDeclaration":
        for (const declaration of node.declarations) {
          const value = declaration.init ? await this.expr(declaration.init, scope) : undefined;
          const target = node.kind === "var" ? scope.functionScope() : scope;
          await this.bind(declaration.id, value, target, node.kind !== "const");
        }
        return NORMAL;
      case "FunctionDeclaration":
      case "EmptyStatement":
        return NORMAL;
      case "ReturnStatement":
        return { kind: "return", value: node.argument ? await this.expr(node.argument, scope) : undefined };
      case "IfStatement":
        if (truthy(await this.expr(node.test, scope))) return this.stmt(node.consequent, scope);
        return node.alternate ? this.stmt(node.alternate, scope) : NORMAL;
      case "BlockStatement":
        return this.block(node.body, new Scope(scope, false));
      case "BreakStatement":
        return { kind: "break", label: node.label?.name };
      case "ContinueStatement":
        return { kind: "continue", label: node.label?.name };
      case "ThrowStatement":
        throw new ThrowSignal(await this.expr(node.argument, scope));
      case "LabeledStatement": {
        const completion = await this.stmt(node.body, scope, [...labels, node.label.name]);
        return completion.kind === "break" && completion.label === node.label.name ? NORMAL : completion;
      }
      case "WhileStatement":
      case "DoWhileStatement":
        return this.whileLoop(node, scope, labels);
      case "ForStatement":
        return this.forLoop(node, scope, labels);
      case "ForOfStatement":
      case "ForInStatement":
        return this.forEachLoop(node, scope, labels);
      case "TryStatement":
        return this.tryStatement(node, scope);
      case "SwitchStatement":
        return this.switchStatement(node, scope);
      case "ClassDeclaration":
        throw this.unsupported(node, "classes", "use plain objects and functions", true);
      case "WithStatement":
        throw this.unsupported(node, "with");
      default:
        throw this.unsupported(node, node.type);
    }
  }

  /** What a loop does with its body's completion: "exit" (with what to return) or "next". */
  private loopControl(completion: Completion, labels: string[]): { exit: Completion } | "next" {
    if (completion.kind === "break")
      return completion.label === undefined || labels.includes(completion.label) ? { exit: NORMAL } : { exit: completion };
    if (completion.kind === "continue")
      return completion.label === undefined || labels.includes(completion.label) ? "next" : { exit: completion };
    if (completion.kind === "return") return { exit: completion };
    return "next";
  }

  private async whileLoop(
    node: Extract<AnyNode, { type: "WhileStatement" | "DoWhileStatement" }>,
    scope: Scope<Value>,
    labels: string[],
  ): Promise<Completion> {
    let first = node.type === "DoWhileStatement";
    while (first || truthy(await this.expr(node.test, scope))) {
      first = false;
      this.budget.step();
      const control = this.loopControl(await this.stmt(node.body, scope), labels);
      if (control !== "next") return control.exit;
    }
    return NORMAL;
  }

  private async forLoop(node: Extract<AnyNode, { type: "ForStatement" }>, scope: Scope<Value>, labels: string[]): Promise<Completion> {
    const loopScope = new Scope<Value>(scope, false);
    if (node.init) {
      if (node.init.type === "VariableDeclaration") await this.stmt(node.init, loopScope);
      else await this.expr(node.init, loopScope);
    }
    // Each turn gets its own copy of the loop's `let` variables, so closures made in it keep that turn's values.
    let turn = loopScope.copy();
    while (!node.test || truthy(await this.expr(node.test, turn))) {
      this.budget.step();
      const control = this.loopControl(await this.stmt(node.body, turn), labels);
      if (control !== "next") return control.exit;
      turn = turn.copy();
      if (node.update) await this.expr(node.update, turn);
    }
    return NORMAL;
  }

  private async forEachLoop(
    node: Extract<AnyNode, { type: "ForOfStatement" | "ForInStatement" }>,
    scope: Scope<Value>,
    labels: string[],
  ): Promise<Completion> {
    if (node.type === "ForOfStatement" && node.await) throw this.unsupported(node, "for await", "await inside the loop instead");
    const source = await this.expr(node.right, scope);
    const items = node.type === "ForOfStatement" ? this.iterable(source, node) : keysOfValue(source).items;
    for (let i = 0; i < items.length; i++) {
      this.budget.step();
      const turn = new Scope<Value>(scope, false);
      if (node.left.type === "VariableDeclaration") {
        const declaration = node.left.declarations[0]!;
        const target = node.left.kind === "var" ? scope.functionScope() : turn;
        await this.bind(declaration.id, items[i], target, node.left.kind !== "const");
      } else {
        await this.assignPattern(node.left, items[i], turn);
      }
      const control = this.loopControl(await this.stmt(node.body, turn), labels);
      if (control !== "next") return control.exit;
    }
    return NORMAL;
  }

  /** The items `for...of` and spread walk: an array (live, as JavaScript's iterator is) or a string's characters. */
  private iterable(value: Value, node: Node): Value[] {
    if (value instanceof ArrayValue) return value.items;
    if (typeof value === "string") {
      const chars = [...value];
      this.budget.allocate(chars.length);
      return chars;
    }
    throwError("TypeError", `line ${lineOf(node)}: ${typeOf(value)} is not iterable (only arrays and strings are)`);
  }

  private async tryStatement(node: Extract<AnyNode, { type: "TryStatement" }>, scope: Scope<Value>): Promise<Completion> {
    let completion: Completion = NORMAL;
    try {
      completion = await this.block(node.block.body, new Scope(scope, false));
    } catch (error) {
      // Only what the program can throw is caught: a limit reached, or the host's own failure, goes on up.
      if (!(error instanceof ThrowSignal) || !node.handler) throw error;
      const catchScope = new Scope<Value>(scope, false);
      if (node.handler.param) await this.bind(node.handler.param, error.value, catchScope, true);
      completion = await this.block(node.handler.body.body, catchScope);
    } finally {
      if (node.finalizer) {
        const after = await this.block(node.finalizer.body, new Scope(scope, false));
        if (after.kind !== "normal") completion = after;
      }
    }
    return completion;
  }

  private async switchStatement(node: Extract<AnyNode, { type: "SwitchStatement" }>, scope: Scope<Value>): Promise<Completion> {
    const value = await this.expr(node.discriminant, scope);
    const inner = new Scope<Value>(scope, false);
    let matched = -1;
    for (let i = 0; i < node.cases.length; i++) {
      const test = node.cases[i]!.test;
      if (test && strictEquals(await this.expr(test, inner), value)) {
        matched = i;
        break;
      }
    }
    if (matched < 0) matched = node.cases.findIndex((c) => c.test === null || c.test === undefined);
    if (matched < 0) return NORMAL;
    for (let i = matched; i < node.cases.length; i++) {
      const completion = await this.block(node.cases[i]!.consequent, inner);
      if (completion.kind === "break" && completion.label === undefined) return NORMAL;
      if (completion.kind !== "normal") return completion;
    }
    return NORMAL;
  }

  // ---- patterns --------------------------------------------------------------------------------

  /** Declares the names of a pattern (`x`, `{ a, b: [c] }`, defaults, rest) in `scope`. */
  private async bind(pattern: Pattern, value: Value, scope: Scope<Value>, mutable: boolean): Promise<void> {
    await this.destructure(pattern, value, scope, (name, v) => scope.declare(name, v, mutable));
  }

  private async assignPattern(pattern: Pattern, value: Value, scope: Scope<Value>): Promise<void> {
    await this.destructure(pattern, value, scope, (name, v) => this.setVariable(scope, name, v));
  }

  private async destructure(pattern: Pattern, value: Value, scope: Scope<Value>, put: (name: string, value: Value) => void): Promise<void> {
    this.budget.step();
    switch (pattern.type) {
      case "Identifier":
        put(pattern.name, value);
        return;
      case "AssignmentPattern":
        return this.destructure(pattern.left, value === undefined ? await this.expr(pattern.right, scope) : value, scope, put);
      case "ArrayPattern": {
        const items = this.iterable(value, pattern);
        for (let i = 0; i < pattern.elements.length; i++) {
          const element = pattern.elements[i];
          if (!element) continue;
          if (element.type === "RestElement") {
            this.budget.allocate(items.length);
            await this.destructure(element.argument, new ArrayValue(items.slice(i)), scope, put);
            break;
          }
          await this.destructure(element, items[i], scope, put);
        }
        return;
      }
      case "ObjectPattern": {
        if (value === null || value === undefined)
          throwError("TypeError", `line ${lineOf(pattern)}: cannot destructure ${toText(value, this)}`);
        const used: string[] = [];
        for (const property of pattern.properties) {
          if (property.type === "RestElement") {
            const rest = new ObjectValue();
            for (const key of keysOfValue(value).items as string[])
              if (!used.includes(key)) rest.props.set(key, this.getMember(value, key, property));
            await this.destructure(property.argument, rest, scope, put);
            continue;
          }
          const key = await this.propertyKey(property, scope);
          used.push(key);
          await this.destructure(property.value, this.getMember(value, key, property), scope, put);
        }
        return;
      }
      case "MemberExpression": {
        const target = await this.expr(pattern.object, scope);
        const key = pattern.computed ? this.key(await this.expr(pattern.property, scope)) : identifierName(pattern.property);
        this.setMember(target, key, value, pattern);
        return;
      }
      default:
        throw this.unsupported(pattern, pattern.type);
    }
  }

  private setVariable(scope: Scope<Value>, name: string, value: Value): void {
    const binding = scope.find(name);
    if (!binding) throwError("ReferenceError", `${name} is not defined (declare it with let or const)`);
    if (!binding.mutable) throwError("TypeError", `Assignment to constant variable '${name}'.`);
    binding.value = value;
  }

  private async propertyKey(property: Extract<AnyNode, { type: "Property" }>, scope: Scope<Value>): Promise<string> {
    if (property.computed) return this.key(await this.expr(property.key, scope));
    if (property.key.type === "Identifier") return property.key.name;
    if (property.key.type === "Literal") return this.key(property.key.value as Value);
    throw this.unsupported(property, "this kind of property key");
  }

  private key(value: Value): string {
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
    return toText(value, this);
  }

  // ---- properties ------------------------------------------------------------------------------

  /** A property of a value: own keys of objects, items and methods of arrays and strings, nothing else. */
  private getMember(target: Value, key: string, node: Node): Value {
    if (target === null || target === undefined)
      throwError("TypeError", `line ${lineOf(node)}: Cannot read properties of ${target} (reading '${key}')`);
    if (target instanceof ObjectValue) return target.props.get(key);
    if (target instanceof FunctionValue) return key === "name" ? target.name : target.props.get(key);
    if (target instanceof ArrayValue) {
      if (key === "length") return target.items.length;
      const index = arrayIndex(key);
      return index !== undefined ? target.items[index] : methodOf(target, key);
    }
    if (typeof target === "string") {
      if (key === "length") return target.length;
      const index = arrayIndex(key);
      return index !== undefined ? target[index] : methodOf(target, key);
    }
    if (typeof target === "number") return methodOf(target, key);
    return undefined;
  }

  private setMember(target: Value, key: string, value: Value, node: Node): void {
    if (target instanceof ObjectValue) {
      this.budget.allocate(target.props.size + 1, 1);
      target.props.set(key, value);
      return;
    }
    if (target instanceof FunctionValue) {
      target.props.set(key, value);
      return;
    }
    if (target instanceof ArrayValue) {
      if (key === "length") {
        const length = toNumber(value);
        if (!Number.isInteger(length) || length < 0) throwError("RangeError", "Invalid array length");
        this.budget.allocate(length, Math.max(0, length - target.items.length));
        if (length < target.items.length) target.items.length = length;
        else while (target.items.length < length) target.items.push(undefined);
        return;
      }
      const index = arrayIndex(key);
      if (index === undefined)
        throwError(
          "TypeError",
          `line ${lineOf(node)}: arrays take only numeric indexes and length here (not '${key}'); use an object for named keys`,
        );
      this.budget.allocate(Math.max(index + 1, target.items.length), Math.max(1, index + 1 - target.items.length));
      while (target.items.length < index) target.items.push(undefined);
      target.items[index] = value;
      return;
    }
    throwError("TypeError", `line ${lineOf(node)}: Cannot set property '${key}' of ${typeOf(target)}`);
  }

  // ---- expressions -----------------------------------------------------------------------------

  async expr(node: AnyNode, scope: Scope<Value>): Promise<Value> {
    this.budget.step();
    switch (node.type) {
      case "Literal":
        if ("regex" in node && node.regex)
          throw this.unsupported(node, "regular expressions", "use includes, indexOf, split, or the grep tool", true);
        if (typeof node.value === "bigint") throw this.unsupported(node, "BigInt");
        if (typeof node.value === "string") this.budget.allocate(node.value.length);
        return node.value as Value;
      case "Identifier": {
        const binding = scope.find(node.name);
        if (!binding) throwError("ReferenceError", `line ${lineOf(node)}: ${node.name} is not defined`);
        return binding.value;
      }
      case "TemplateLiteral": {
        const parts: string[] = [];
        for (let i = 0; i < node.quasis.length; i++) {
          parts.push(node.quasis[i]!.value.cooked ?? "");
          if (i < node.expressions.length) parts.push(toText(await this.expr(node.expressions[i]!, scope), this));
        }
        return this.concat(parts);
      }
      case "ArrayExpression": {
        const items: Value[] = [];
        for (const element of node.elements) {
          if (element === null) items.push(undefined);
          else if (element.type === "SpreadElement") appendAll(items, this.iterable(await this.expr(element.argument, scope), element));
          else items.push(await this.expr(element, scope));
        }
        this.budget.allocate(items.length);
        return new ArrayValue(items);
      }
      case "ObjectExpression":
        return this.objectLiteral(node, scope);
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return this.closure(node, scope);
      case "UnaryExpression":
        return this.unary(node, scope);
      case "UpdateExpression": {
        const old = toNumber(await this.expr(node.argument, scope));
        const next = node.operator === "++" ? old + 1 : old - 1;
        await this.assignTo(node.argument, next, scope);
        return node.prefix ? next : old;
      }
      case "BinaryExpression": {
        if (node.left.type === "PrivateIdentifier") throw this.unsupported(node, "private names", "", true);
        const left = await this.expr(node.left, scope);
        const right = await this.expr(node.right, scope);
        return this.binary(node.operator, left, right, node);
      }
      case "LogicalExpression": {
        const left = await this.expr(node.left, scope);
        if (node.operator === "&&") return truthy(left) ? this.expr(node.right, scope) : left;
        if (node.operator === "||") return truthy(left) ? left : this.expr(node.right, scope);
        return left === null || left === undefined ? this.expr(node.right, scope) : left;
      }
      case "ConditionalExpression":
        return truthy(await this.expr(node.test, scope)) ? this.expr(node.consequent, scope) : this.expr(node.alternate, scope);
      case "AssignmentExpression":
        return this.assignment(node, scope);
      case "SequenceExpression": {
        let last: Value;
        for (const expression of node.expressions) last = await this.expr(expression, scope);
        return last;
      }
      case "MemberExpression": {
        const object = await this.expr(node.object, scope);
        if (node.optional && (object === null || object === undefined)) throw new ShortCircuit();
        return this.getMember(object, await this.memberKey(node, scope), node);
      }
      case "ChainExpression":
        try {
          return await this.expr(node.expression, scope);
        } catch (error) {
          if (error instanceof ShortCircuit) return undefined;
          throw error;
        }
      case "CallExpression":
        return this.callExpression(node, scope);
      case "NewExpression": {
        const callee = node.callee.type === "Identifier" ? node.callee.name : "";
        if (!ERROR_CONSTRUCTORS.has(callee))
          throw this.unsupported(node, `new ${callee || "(expression)"}`, "only new Error(...) is; use object and array literals");
        return this.call(await this.expr(node.callee, scope), await this.arguments(node.arguments, scope));
      }
      case "AwaitExpression": {
        const value = await this.expr(node.argument, scope);
        if (!(value instanceof PromiseValue)) return value;
        const settled = await value.promise;
        this.budget.checkClock();
        return settled;
      }
      case "ThisExpression":
        throw this.unsupported(node, "this", "use plain functions and objects");
      case "ClassExpression":
        throw this.unsupported(node, "classes", "use plain objects and functions", true);
      case "ImportExpression":
        throw this.unsupported(node, "import()", "call the tools through tools.<name>(...)");
      case "TaggedTemplateExpression":
        throw this.unsupported(node, "tagged templates", "", true);
      case "MetaProperty":
        throw this.unsupported(node, "new.target and import.meta");
      case "YieldExpression":
        throw this.unsupported(node, "yield");
      default:
        throw this.unsupported(node, node.type);
    }
  }

  private concat(parts: string[]): string {
    // The host joins strings as ropes: charge what is new rather than the whole length each time, so
    // `out += line` in a loop stays linear, while the result's size still has its cap.
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    const longest = parts.reduce((max, part) => Math.max(max, part.length), 0);
    this.budget.allocate(total, total - longest + 1);
    return parts.join("");
  }

  private async objectLiteral(node: Extract<AnyNode, { type: "ObjectExpression" }>, scope: Scope<Value>): Promise<ObjectValue> {
    const object = new ObjectValue();
    for (const property of node.properties) {
      if (property.type === "SpreadElement") {
        const source = await this.expr(property.argument, scope);
        if (source === null || source === undefined) continue;
        for (const key of keysOfValue(source).items as string[]) object.props.set(key, this.getMember(source, key, property));
        continue;
      }
      if (property.kind !== "init") throw this.unsupported(property, "getters and setters", "store the value itself", true);
      const key = await this.propertyKey(property, scope);
      object.props.set(key, await this.expr(property.value, scope));
    }
    this.budget.allocate(object.props.size);
    return object;
  }

  private async memberKey(node: Extract<AnyNode, { type: "MemberExpression" }>, scope: Scope<Value>): Promise<string> {
    if (node.property.type === "PrivateIdentifier") throw this.unsupported(node, "private names", "", true);
    return node.computed ? this.key(await this.expr(node.property, scope)) : identifierName(node.property);
  }

  private async unary(node: Extract<AnyNode, { type: "UnaryExpression" }>, scope: Scope<Value>): Promise<Value> {
    if (node.operator === "typeof" && node.argument.type === "Identifier" && !scope.find(node.argument.name)) return "undefined";
    if (node.operator === "delete") {
      if (node.argument.type !== "MemberExpression") return true;
      const target = await this.expr(node.argument.object, scope);
      const key = await this.memberKey(node.argument, scope);
      if (target instanceof ObjectValue || target instanceof FunctionValue) target.props.delete(key);
      else if (target instanceof ArrayValue && arrayIndex(key) !== undefined) target.items[arrayIndex(key)!] = undefined;
      return true;
    }
    const value = await this.expr(node.argument, scope);
    switch (node.operator) {
      case "!":
        return !truthy(value);
      case "-":
        return -toNumber(value);
      case "+":
        return toNumber(value);
      case "~":
        return ~toNumber(value);
      case "typeof":
        return typeOf(value);
      case "void":
        return undefined;
    }
  }

  private binary(operator: string, left: Value, right: Value, node: Node): Value {
    switch (operator) {
      case "+":
        if (typeof left === "number" && typeof right === "number") return left + right;
        if (typeof left === "string" || typeof right === "string" || isObject(left) || isObject(right))
          return this.concat([toText(left, this), toText(right, this)]);
        return toNumber(left) + toNumber(right);
      case "-":
        return toNumber(left) - toNumber(right);
      case "*":
        return toNumber(left) * toNumber(right);
      case "/":
        return toNumber(left) / toNumber(right);
      case "%":
        return toNumber(left) % toNumber(right);
      case "**":
        return toNumber(left) ** toNumber(right);
      case "===":
        return strictEquals(left, right);
      case "!==":
        return !strictEquals(left, right);
      case "==":
        return looseEquals(left, right, this);
      case "!=":
        return !looseEquals(left, right, this);
      case "<":
      case ">":
      case "<=":
      case ">=": {
        const both = typeof left === "string" && typeof right === "string";
        const a = both ? left : toNumber(left);
        const b = both ? right : toNumber(right);
        if (operator === "<") return a < b;
        if (operator === ">") return a > b;
        if (operator === "<=") return a <= b;
        return a >= b;
      }
      case "&":
        return toNumber(left) & toNumber(right);
      case "|":
        return toNumber(left) | toNumber(right);
      case "^":
        return toNumber(left) ^ toNumber(right);
      case "<<":
        return toNumber(left) << toNumber(right);
      case ">>":
        return toNumber(left) >> toNumber(right);
      case ">>>":
        return toNumber(left) >>> toNumber(right);
      case "in": {
        const key = this.key(left);
        if (right instanceof ObjectValue || right instanceof FunctionValue) return right.props.has(key);
        if (right instanceof ArrayValue) return key === "length" || (arrayIndex(key) ?? Number.POSITIVE_INFINITY) < right.items.length;
        throwError("TypeError", `line ${lineOf(node)}: Cannot use 'in' to search for '${key}' in ${toText(right, this)}`);
        break;
      }
      case "instanceof":
        throw this.unsupported(node, "instanceof", "use typeof or Array.isArray");
    }
    throw this.unsupported(node, `the operator ${operator}`);
  }

  private async assignment(node: Extract<AnyNode, { type: "AssignmentExpression" }>, scope: Scope<Value>): Promise<Value> {
    if (node.operator === "=") {
      const value = await this.expr(node.right, scope);
      if (node.left.type === "ObjectPattern" || node.left.type === "ArrayPattern") await this.assignPattern(node.left, value, scope);
      else await this.assignTo(node.left, value, scope);
      return value;
    }
    const current = await this.expr(node.left as AnyNode, scope);
    let value: Value;
    if (node.operator === "||=" || node.operator === "&&=" || node.operator === "??=") {
      const keep =
        node.operator === "||=" ? truthy(current) : node.operator === "&&=" ? !truthy(current) : current !== null && current !== undefined;
      if (keep) return current;
      value = await this.expr(node.right, scope);
    } else {
      value = this.binary(node.operator.slice(0, -1), current, await this.expr(node.right, scope), node);
    }
    await this.assignTo(node.left as AnyNode, value, scope);
    return value;
  }

  private async assignTo(target: AnyNode, value: Value, scope: Scope<Value>): Promise<void> {
    if (target.type === "Identifier") return this.setVariable(scope, target.name, value);
    if (target.type === "MemberExpression") {
      const object = await this.expr(target.object, scope);
      this.setMember(object, await this.memberKey(target, scope), value, target);
      return;
    }
    throw this.unsupported(target, `assigning to ${target.type}`);
  }

  private async arguments(nodes: readonly AnyNode[], scope: Scope<Value>): Promise<Value[]> {
    const args: Value[] = [];
    for (const arg of nodes) {
      if (arg.type === "SpreadElement") appendAll(args, this.iterable(await this.expr(arg.argument, scope), arg));
      else args.push(await this.expr(arg, scope));
    }
    return args;
  }

  private async callExpression(node: Extract<AnyNode, { type: "CallExpression" }>, scope: Scope<Value>): Promise<Value> {
    if (node.callee.type === "Super") throw this.unsupported(node, "super");
    let callee: Value;
    let described: string;
    if (node.callee.type === "MemberExpression") {
      const object = await this.expr(node.callee.object, scope);
      if (node.callee.optional && (object === null || object === undefined)) throw new ShortCircuit();
      const key = await this.memberKey(node.callee, scope);
      callee = this.getMember(object, key, node.callee);
      described = object === this.toolsObject ? `tools.${key}` : key;
      if (object === this.toolsObject && callee === undefined)
        throwError(
          "TypeError",
          `line ${lineOf(node)}: there is no tool named '${key}'. The tools are: ${[...this.toolsObject.props.keys()].filter((name) => !this.options.refused.has(name)).join(", ")}`,
        );
    } else {
      callee = await this.expr(node.callee, scope);
      described = node.callee.type === "Identifier" ? node.callee.name : "expression";
    }
    if (node.optional && (callee === null || callee === undefined)) throw new ShortCircuit();
    if (!(callee instanceof FunctionValue)) throwError("TypeError", `line ${lineOf(node)}: ${described} is not a function`);
    return this.call(callee, await this.arguments(node.arguments, scope));
  }
}

function identifierName(node: AnyNode): string {
  if (node.type === "Identifier") return node.name;
  throw new ProgramError(`line ${lineOf(node)}: unexpected ${node.type}`);
}

function isObject(value: Value): boolean {
  return value instanceof ObjectValue || value instanceof ArrayValue || value instanceof FunctionValue || value instanceof PromiseValue;
}

/** The key as an array index (a canonical non-negative integer), or undefined. */
function arrayIndex(key: string): number | undefined {
  if (key.length === 0 || key.length > 10) return undefined;
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && String(n) === key ? n : undefined;
}

function keysOfValue(value: Value): ArrayValue {
  if (value instanceof ObjectValue || value instanceof FunctionValue) return new ArrayValue([...value.props.keys()]);
  if (value instanceof ArrayValue) return new ArrayValue(value.items.map((_, i) => String(i)));
  if (typeof value === "string") return new ArrayValue([...value].map((_, i) => String(i)));
  return new ArrayValue([]);
}
