/**
 * The values an execute program works with. None of them is a host object: objects are maps of own
 * properties, arrays hold values, functions are the interpreter's own records. A program therefore has no
 * prototype to reach (`constructor`, `__proto__` are plain keys) and no host function to call.
 */
import type { Function as FunctionNode } from "acorn";
import type { Scope } from "./scope.js";

export type Value = undefined | null | boolean | number | string | ObjectValue | ArrayValue | FunctionValue | PromiseValue;

export class ObjectValue {
  readonly props = new Map<string, Value>();
  /** Set on the objects `new Error(...)` and failures make, so printing shows `Name: message`. */
  isError = false;
}

export class ArrayValue {
  constructor(readonly items: Value[] = []) {}
}

/** What a native function receives: the interpreter, to call back into a program's functions. */
export interface NativeHost extends TextBudget {
  call(fn: Value, args: Value[]): Promise<Value>;
}

export type NativeImpl = (args: Value[], host: NativeHost) => Value | Promise<Value>;

export class FunctionValue {
  /** Properties a function carries (`Promise.all`, `Number.isInteger`), and those a program gives it. */
  readonly props = new Map<string, Value>();
  constructor(
    readonly name: string,
    readonly impl: { kind: "native"; run: NativeImpl } | { kind: "closure"; node: FunctionNode; scope: Scope<Value> },
  ) {}
}

/** A call still running (a tool, an async function): `await` waits for it. */
export class PromiseValue {
  constructor(readonly promise: Promise<Value>) {
    // A program may start a call and never await it; its failure must not surface as the host's unhandled rejection.
    promise.catch(() => {});
  }
}

/** A value thrown by the program (or a failure it can catch: a tool's error, a TypeError). */
export class ThrowSignal {
  constructor(readonly value: Value) {}
}

export function makeError(name: string, message: string): ObjectValue {
  const error = new ObjectValue();
  error.isError = true;
  error.props.set("name", name);
  error.props.set("message", message);
  return error;
}

export function throwError(name: string, message: string): never {
  throw new ThrowSignal(makeError(name, message));
}

export function typeOf(value: Value): string {
  if (value === null) return "object";
  if (value instanceof FunctionValue) return "function";
  if (value instanceof ObjectValue || value instanceof ArrayValue || value instanceof PromiseValue) return "object";
  return typeof value;
}

export function truthy(value: Value): boolean {
  if (value instanceof ObjectValue || value instanceof ArrayValue || value instanceof FunctionValue || value instanceof PromiseValue)
    return true;
  return Boolean(value);
}

export function toNumber(value: Value): number {
  if (value === undefined) return Number.NaN;
  if (value === null) return 0;
  if (typeof value === "boolean" || typeof value === "number") return Number(value);
  if (typeof value === "string") return Number(value);
  if (value instanceof ArrayValue) return value.items.length === 0 ? 0 : value.items.length === 1 ? toNumber(value.items[0]) : Number.NaN;
  return Number.NaN;
}

/**
 * Where a text being built reports its growth: it throws once the text passes the size limit, so joining a
 * big array of big strings stops early instead of exhausting the host's memory.
 */
export interface TextBudget {
  /** A value of `size` characters or elements, `added` of them new (all, by default). */
  allocate(size: number, added?: number): void;
}

/** Appends one by one: spreading a long array into push() would overflow the host's stack. */
export function appendAll(target: Value[], source: readonly Value[]): void {
  for (const item of source) target.push(item);
}

/** Builds one text from parts, charging the budget as it grows. */
class TextBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  constructor(readonly budget: TextBudget) {}
  add(part: string): void {
    this.length += part.length;
    this.budget.allocate(this.length, part.length);
    this.parts.push(part);
  }
  text(): string {
    return this.parts.join("");
  }
}

/** JavaScript's String(value), over our values. */
export function toText(value: Value, budget: TextBudget): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof ArrayValue) {
    const out = new TextBuilder(budget);
    writeJoined(value, ",", out, new Set());
    return out.text();
  }
  if (value instanceof ObjectValue) {
    if (value.isError) return `${toText(value.props.get("name"), budget)}: ${toText(value.props.get("message"), budget)}`;
    return "[object Object]";
  }
  if (value instanceof FunctionValue) return `function ${value.name}() { [code] }`;
  return "[object Promise]";
}

function writeJoined(array: ArrayValue, separator: string, out: TextBuilder, seen: Set<ArrayValue>): void {
  if (seen.has(array)) return;
  seen.add(array);
  array.items.forEach((item, index) => {
    if (index > 0) out.add(separator);
    if (item instanceof ArrayValue) writeJoined(item, ",", out, seen);
    else if (item !== undefined && item !== null) out.add(toText(item, out.budget));
  });
  seen.delete(array);
}

/** Array.prototype.join over our values. */
export function joinItems(array: ArrayValue, separator: string, budget: TextBudget): string {
  const out = new TextBuilder(budget);
  writeJoined(array, separator, out, new Set());
  return out.text();
}

export function strictEquals(a: Value, b: Value): boolean {
  return a === b || (typeof a === "number" && typeof b === "number" && a === b);
}

/** JavaScript's ==: an object or array met by a primitive compares as its text, as JavaScript's ToPrimitive makes it. */
export function looseEquals(a: Value, b: Value, budget: TextBudget): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  const primitive = (v: Value) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  if (primitive(a) !== primitive(b))
    return primitive(a) ? looseEquals(a, toText(b, budget), budget) : looseEquals(toText(a, budget), b, budget);
  if (typeof a === typeof b) return strictEquals(a, b);
  if (primitive(a) && primitive(b)) return toNumber(a) === toNumber(b);
  return false;
}

/**
 * JSON text for a value, as JSON.stringify would write it (functions and undefined left out); the way
 * values become a tool's arguments, so what reaches a tool is plain data and nothing else.
 */
export function toJson(value: Value, budget: TextBudget, space = 0): string | undefined {
  if (value === undefined || value instanceof FunctionValue) return undefined;
  const out = new TextBuilder(budget);
  writeJson(value, out, space, 0, new Set());
  return out.text();
}

function writeJson(value: Value, out: TextBuilder, space: number, level: number, seen: Set<object>): void {
  if (value === null || value === undefined || value instanceof FunctionValue) return out.add("null");
  if (value instanceof PromiseValue) return out.add("{}");
  if (typeof value === "string" || typeof value === "boolean") return out.add(JSON.stringify(value));
  if (typeof value === "number") return out.add(Number.isFinite(value) ? JSON.stringify(value) : "null");
  if (seen.has(value)) throwError("TypeError", "Converting circular structure to JSON");
  seen.add(value);
  const pad = (depth: number) => (space > 0 ? `\n${" ".repeat(space * depth)}` : "");
  if (value instanceof ArrayValue) {
    out.add("[");
    value.items.forEach((item, index) => {
      out.add(index > 0 ? `,${pad(level + 1)}` : pad(level + 1));
      writeJson(item, out, space, level + 1, seen);
    });
    out.add(value.items.length > 0 ? `${pad(level)}]` : "]");
  } else {
    out.add("{");
    let first = true;
    for (const [key, item] of value.props) {
      if (item === undefined || item instanceof FunctionValue) continue;
      out.add(first ? pad(level + 1) : `,${pad(level + 1)}`);
      first = false;
      out.add(`${JSON.stringify(key)}:${space > 0 ? " " : ""}`);
      writeJson(item, out, space, level + 1, seen);
    }
    out.add(first ? "}" : `${pad(level)}}`);
  }
  seen.delete(value);
}

/** Plain data (JSON.parse's result, a tool's metadata) as program values: keys copied, never followed. */
export function fromData(data: unknown, allocate: (size: number) => void): Value {
  if (data === null || data === undefined) return data as null | undefined;
  if (typeof data === "string") {
    allocate(data.length);
    return data;
  }
  if (typeof data === "number" || typeof data === "boolean") return data;
  if (Array.isArray(data)) {
    allocate(data.length);
    return new ArrayValue(data.map((item) => fromData(item, allocate)));
  }
  if (typeof data === "object") {
    const object = new ObjectValue();
    const keys = Object.keys(data);
    allocate(keys.length);
    for (const key of keys) object.props.set(key, fromData((data as Record<string, unknown>)[key], allocate));
    return object;
  }
  return undefined;
}

/** How console.log shows a value: strings bare, everything else as indented JSON-like text. */
export function display(value: Value, budget: TextBudget): string {
  if (typeof value === "string") return value;
  if (value instanceof ObjectValue && value.isError) return toText(value, budget);
  if (value instanceof FunctionValue) return `[Function ${value.name || "(anonymous)"}]`;
  if (value instanceof PromiseValue) return "Promise { <pending> }";
  if (value instanceof ArrayValue || value instanceof ObjectValue) return toJson(value, budget, 2) ?? "undefined";
  return toText(value, budget);
}
