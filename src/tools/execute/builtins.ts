/**
 * The library an execute program sees: a few globals (JSON, Math, Object, Array, Promise, console is the
 * interpreter's) and the methods of strings, arrays and numbers. Each is written over the interpreter's
 * values; none hands a host object or host function to the program. Every method that makes a string or
 * array says its size to the budget first, so `"x".repeat(1e9)` is refused before it is built.
 */
import {
  appendAll,
  ArrayValue,
  FunctionValue,
  fromData,
  joinItems,
  makeError,
  type NativeHost,
  type NativeImpl,
  ObjectValue,
  PromiseValue,
  strictEquals,
  ThrowSignal,
  throwError,
  toJson,
  toNumber,
  toText,
  truthy,
  type Value,
} from "./values.js";

export function native(name: string, run: NativeImpl): FunctionValue {
  return new FunctionValue(name, { kind: "native", run });
}

const text = (value: Value, host: NativeHost) => toText(value, host);
const int = (value: Value, fallback: number) => {
  if (value === undefined) return fallback;
  const n = Math.trunc(toNumber(value));
  return Number.isNaN(n) ? 0 : n;
};

function requireString(value: Value, what: string): string {
  if (typeof value !== "string")
    throwError("TypeError", `${what} takes a string here (regular expressions are not supported in execute; use the grep tool)`);
  return value;
}

/** Sizes of what a string method would make, checked before the host builds it. */
function checkedRepeat(host: NativeHost, piece: string, count: number): string {
  if (count < 0 || !Number.isFinite(count)) throwError("RangeError", `Invalid count value: ${count}`);
  host.allocate(piece.length * count);
  return piece.repeat(count);
}

function pad(host: NativeHost, target: string, length: Value, filler: Value, atStart: boolean): string {
  const width = int(length, 0);
  const fill = filler === undefined ? " " : text(filler, host);
  if (width <= target.length || fill === "") return target;
  host.allocate(width);
  return atStart ? target.padStart(width, fill) : target.padEnd(width, fill);
}

function splitString(host: NativeHost, target: string, separator: Value, limit: Value): ArrayValue {
  if (separator === undefined) return new ArrayValue([target]);
  const parts = target.split(requireString(separator, "split"));
  const kept = limit === undefined ? parts : parts.slice(0, Math.max(0, int(limit, parts.length)));
  host.allocate(kept.length);
  return new ArrayValue(kept);
}

function replaceString(host: NativeHost, target: string, pattern: Value, replacement: Value, all: boolean): string {
  const find = requireString(pattern, all ? "replaceAll" : "replace");
  if (replacement instanceof FunctionValue) throwError("TypeError", "replace with a function is not supported in execute");
  const by = text(replacement, host);
  const parts = all ? target.split(find) : [];
  if (!all) {
    const at = target.indexOf(find);
    if (at < 0) return target;
    host.allocate(target.length - find.length + by.length);
    return target.slice(0, at) + by + target.slice(at + find.length);
  }
  host.allocate(target.length + (parts.length - 1) * (by.length - find.length));
  return parts.join(by);
}

type MethodTable<T> = Record<string, (self: T, args: Value[], host: NativeHost) => Value | Promise<Value>>;

const STRING_METHODS: MethodTable<string> = {
  at: (s, [i]) => s.at(int(i, 0)),
  charAt: (s, [i]) => s.charAt(int(i, 0)),
  charCodeAt: (s, [i]) => s.charCodeAt(int(i, 0)),
  includes: (s, [p, from], host) => s.includes(text(p, host), int(from, 0)),
  startsWith: (s, [p, from], host) => s.startsWith(text(p, host), int(from, 0)),
  endsWith: (s, [p, end], host) => s.endsWith(text(p, host), int(end, s.length)),
  indexOf: (s, [p, from], host) => s.indexOf(text(p, host), int(from, 0)),
  lastIndexOf: (s, [p], host) => s.lastIndexOf(text(p, host)),
  slice: (s, [a, b]) => s.slice(int(a, 0), int(b, s.length)),
  substring: (s, [a, b]) => s.substring(int(a, 0), int(b, s.length)),
  toUpperCase: (s, _, host) => (host.allocate(s.length), s.toUpperCase()),
  toLowerCase: (s, _, host) => (host.allocate(s.length), s.toLowerCase()),
  trim: (s) => s.trim(),
  trimStart: (s) => s.trimStart(),
  trimEnd: (s) => s.trimEnd(),
  split: (s, [sep, limit], host) => splitString(host, s, sep, limit),
  replace: (s, [p, r], host) => replaceString(host, s, p, r, false),
  replaceAll: (s, [p, r], host) => replaceString(host, s, p, r, true),
  repeat: (s, [n], host) => checkedRepeat(host, s, int(n, 0)),
  padStart: (s, [n, f], host) => pad(host, s, n, f, true),
  padEnd: (s, [n, f], host) => pad(host, s, n, f, false),
  concat: (s, args, host) => {
    const parts = args.map((arg) => text(arg, host));
    host.allocate(s.length + parts.reduce((sum, part) => sum + part.length, 0));
    return s + parts.join("");
  },
  localeCompare: (s, [other], host) => (s < text(other, host) ? -1 : s > text(other, host) ? 1 : 0),
  toString: (s: string) => s,
  match: () => throwError("TypeError", "regular expressions are not supported in execute: use includes, indexOf, split, or the grep tool"),
};

async function callback(host: NativeHost, fn: Value, args: Value[], method: string): Promise<Value> {
  if (!(fn instanceof FunctionValue)) throwError("TypeError", `${method} needs a function`);
  return host.call(fn, args);
}

/** JavaScript's default sort order: by the values' text, undefined last. */
function defaultCompare(host: NativeHost): (a: Value, b: Value) => Promise<number> {
  return async (a, b) => {
    if (a === undefined) return b === undefined ? 0 : 1;
    if (b === undefined) return -1;
    const x = text(a, host);
    const y = text(b, host);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/** A stable merge sort whose comparator may be the program's own (async) function. */
async function mergeSort(items: Value[], compare: (a: Value, b: Value) => Promise<number>): Promise<Value[]> {
  if (items.length <= 1) return items;
  const middle = items.length >> 1;
  const left = await mergeSort(items.slice(0, middle), compare);
  const right = await mergeSort(items.slice(middle), compare);
  const out: Value[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) out.push((await compare(right[j], left[i])) < 0 ? right[j++] : left[i++]);
  return out.concat(left.slice(i), right.slice(j));
}

function flatten(items: Value[], depth: number, host: NativeHost): Value[] {
  const out: Value[] = [];
  for (const item of items) {
    if (item instanceof ArrayValue && depth > 0) appendAll(out, flatten(item.items, depth - 1, host));
    else out.push(item);
    host.allocate(out.length, 1);
  }
  return out;
}

const ARRAY_METHODS: MethodTable<ArrayValue> = {
  at: (a, [i]) => a.items.at(int(i, 0)),
  push: (a, args, host) => {
    host.allocate(a.items.length + args.length, args.length);
    appendAll(a.items, args);
    return a.items.length;
  },
  pop: (a) => a.items.pop(),
  shift: (a) => a.items.shift(),
  unshift: (a, args, host) => {
    host.allocate(a.items.length + args.length);
    a.items.splice(0, a.items.length, ...args.concat(a.items));
    return a.items.length;
  },
  slice: (a, [s, e], host) => {
    const items = a.items.slice(int(s, 0), int(e, a.items.length));
    host.allocate(items.length);
    return new ArrayValue(items);
  },
  splice: (a, [s, count, ...insert], host) => {
    host.allocate(a.items.length + insert.length);
    const start = int(s, 0);
    const removed = a.items.splice(start, count === undefined ? a.items.length : int(count, 0));
    const tail = a.items.splice(Math.min(a.items.length, start < 0 ? Math.max(0, a.items.length + start) : start));
    appendAll(a.items, insert);
    appendAll(a.items, tail);
    return new ArrayValue(removed);
  },
  concat: (a, args, host) => {
    const total = args.reduce((sum: number, arg) => sum + (arg instanceof ArrayValue ? arg.items.length : 1), a.items.length);
    host.allocate(total);
    const items = a.items.slice();
    for (const arg of args) {
      if (arg instanceof ArrayValue) appendAll(items, arg.items);
      else items.push(arg);
    }
    return new ArrayValue(items);
  },
  join: (a, [sep], host) => joinItems(a, sep === undefined ? "," : text(sep, host), host),
  indexOf: (a, [v]) => a.items.findIndex((item) => strictEquals(item, v)),
  lastIndexOf: (a, [v]) => a.items.findLastIndex((item) => strictEquals(item, v)),
  includes: (a, [v]) => a.items.some((item) => strictEquals(item, v) || (Number.isNaN(item) && Number.isNaN(v))),
  reverse: (a) => (a.items.reverse(), a),
  flat: (a, [depth], host) => new ArrayValue(flatten(a.items, int(depth, 1), host)),
  fill: (a, [v]) => (a.items.fill(v), a),
  map: async (a, [fn], host) => {
    const out: Value[] = [];
    for (let i = 0; i < a.items.length; i++) out.push(await callback(host, fn, [a.items[i], i, a], "map"));
    host.allocate(out.length);
    return new ArrayValue(out);
  },
  flatMap: async (a, [fn], host) => {
    const out: Value[] = [];
    for (let i = 0; i < a.items.length; i++) out.push(await callback(host, fn, [a.items[i], i, a], "flatMap"));
    return new ArrayValue(flatten(out, 1, host));
  },
  filter: async (a, [fn], host) => {
    const out: Value[] = [];
    for (let i = 0; i < a.items.length; i++) if (truthy(await callback(host, fn, [a.items[i], i, a], "filter"))) out.push(a.items[i]);
    host.allocate(out.length);
    return new ArrayValue(out);
  },
  forEach: async (a, [fn], host) => {
    for (let i = 0; i < a.items.length; i++) await callback(host, fn, [a.items[i], i, a], "forEach");
    return undefined;
  },
  reduce: async (a, args, host) => {
    let i = 0;
    let acc: Value;
    if (args.length >= 2) acc = args[1];
    else if (a.items.length > 0) acc = a.items[i++];
    else throwError("TypeError", "Reduce of empty array with no initial value");
    for (; i < a.items.length; i++) acc = await callback(host, args[0], [acc, a.items[i], i, a], "reduce");
    return acc;
  },
  some: async (a, [fn], host) => {
    for (let i = 0; i < a.items.length; i++) if (truthy(await callback(host, fn, [a.items[i], i, a], "some"))) return true;
    return false;
  },
  every: async (a, [fn], host) => {
    for (let i = 0; i < a.items.length; i++) if (!truthy(await callback(host, fn, [a.items[i], i, a], "every"))) return false;
    return true;
  },
  find: async (a, [fn], host) => {
    for (let i = 0; i < a.items.length; i++) if (truthy(await callback(host, fn, [a.items[i], i, a], "find"))) return a.items[i];
    return undefined;
  },
  findIndex: async (a, [fn], host) => {
    for (let i = 0; i < a.items.length; i++) if (truthy(await callback(host, fn, [a.items[i], i, a], "findIndex"))) return i;
    return -1;
  },
  sort: async (a, [fn], host) => {
    const compare =
      fn === undefined ? defaultCompare(host) : async (x: Value, y: Value) => toNumber(await callback(host, fn, [x, y], "sort")) || 0;
    const sorted = await mergeSort([...a.items], compare);
    a.items.splice(0, a.items.length, ...sorted);
    return a;
  },
  toString: (a: ArrayValue, _: Value[], host: NativeHost) => joinItems(a, ",", host),
};

const NUMBER_METHODS: MethodTable<number> = {
  toFixed: (n, [digits]) => n.toFixed(Math.min(100, Math.max(0, int(digits, 0)))),
  toString: (n: number, [radix]: Value[]) => n.toString(radix === undefined ? 10 : Math.min(36, Math.max(2, int(radix, 10)))),
};

/** A method of a string, array or number, bound to it; undefined for any other name (`constructor` included). */
export function methodOf(self: string | ArrayValue | number, name: string): FunctionValue | undefined {
  const bind = <T>(table: MethodTable<T>, target: T) =>
    Object.hasOwn(table, name) ? native(name, (args, host) => table[name]!(target, args, host)) : undefined;
  if (typeof self === "string") return bind(STRING_METHODS, self);
  if (typeof self === "number") return bind(NUMBER_METHODS, self);
  return bind(ARRAY_METHODS, self);
}

function object(entries: Record<string, Value>): ObjectValue {
  const result = new ObjectValue();
  for (const [key, value] of Object.entries(entries)) result.props.set(key, value);
  return result;
}

function withProps(fn: FunctionValue, entries: Record<string, Value>): FunctionValue {
  for (const [key, value] of Object.entries(entries)) fn.props.set(key, value);
  return fn;
}

function keysOf(value: Value): string[] {
  if (value instanceof ObjectValue) return [...value.props.keys()];
  if (value instanceof ArrayValue) return value.items.map((_, i) => String(i));
  if (typeof value === "string") return [...value].map((_, i) => String(i));
  if (value === null || value === undefined) throwError("TypeError", "Cannot convert undefined or null to object");
  return [];
}

function valueAt(value: Value, key: string): Value {
  if (value instanceof ObjectValue) return value.props.get(key);
  if (value instanceof ArrayValue) return value.items[Number(key)];
  if (typeof value === "string") return value[Number(key)];
  return undefined;
}

async function settle(value: Value): Promise<Value> {
  return value instanceof PromiseValue ? value.promise : value;
}

function itemsOf(value: Value, what: string): Value[] {
  if (value instanceof ArrayValue) return value.items;
  if (typeof value === "string") return [...value];
  throwError("TypeError", `${what} needs an array`);
}

function errorConstructor(name: string): FunctionValue {
  return native(name, ([message], host) => makeError(name, message === undefined ? "" : text(message, host)));
}

/** Error, TypeError and RangeError: the only things `new` makes. */
export const ERROR_CONSTRUCTORS = new Set(["Error", "TypeError", "RangeError", "SyntaxError"]);

/** The program's globals other than `tools` and `console`. */
export function standardGlobals(): Record<string, Value> {
  const globals: Record<string, Value> = {
    undefined: undefined,
    NaN: Number.NaN,
    Infinity: Number.POSITIVE_INFINITY,
    JSON: object({
      stringify: native("stringify", ([value, _replacer, space], host) => {
        const indent = typeof space === "number" ? Math.min(10, Math.max(0, Math.trunc(space))) : 0;
        return toJson(value, host, indent);
      }),
      parse: native("parse", ([source], host) => {
        const input = text(source, host);
        let data: unknown;
        try {
          data = JSON.parse(input);
        } catch (error) {
          throwError("SyntaxError", error instanceof Error ? error.message : "Unexpected token in JSON");
        }
        return fromData(data, (size) => host.allocate(size));
      }),
    }),
    Math: object({
      PI: Math.PI,
      E: Math.E,
      abs: native("abs", ([x]) => Math.abs(toNumber(x))),
      floor: native("floor", ([x]) => Math.floor(toNumber(x))),
      ceil: native("ceil", ([x]) => Math.ceil(toNumber(x))),
      round: native("round", ([x]) => Math.round(toNumber(x))),
      trunc: native("trunc", ([x]) => Math.trunc(toNumber(x))),
      sign: native("sign", ([x]) => Math.sign(toNumber(x))),
      sqrt: native("sqrt", ([x]) => Math.sqrt(toNumber(x))),
      log: native("log", ([x]) => Math.log(toNumber(x))),
      pow: native("pow", ([x, y]) => toNumber(x) ** toNumber(y)),
      min: native("min", (args) => args.reduce<number>((least, arg) => Math.min(least, toNumber(arg)), Number.POSITIVE_INFINITY)),
      max: native("max", (args) => args.reduce<number>((most, arg) => Math.max(most, toNumber(arg)), Number.NEGATIVE_INFINITY)),
      random: native("random", () => Math.random()),
    }),
    Object: object({
      keys: native("keys", ([v], host) => {
        const keys = keysOf(v);
        host.allocate(keys.length);
        return new ArrayValue(keys);
      }),
      values: native("values", ([v], host) => {
        const keys = keysOf(v);
        host.allocate(keys.length);
        return new ArrayValue(keys.map((key) => valueAt(v, key)));
      }),
      entries: native("entries", ([v], host) => {
        const keys = keysOf(v);
        host.allocate(keys.length * 3);
        return new ArrayValue(keys.map((key) => new ArrayValue([key, valueAt(v, key)])));
      }),
      fromEntries: native("fromEntries", ([v], host) => {
        const result = new ObjectValue();
        for (const entry of itemsOf(v, "Object.fromEntries")) {
          if (!(entry instanceof ArrayValue)) throwError("TypeError", "Object.fromEntries needs [key, value] pairs");
          result.props.set(text(entry.items[0], host), entry.items[1]);
        }
        host.allocate(result.props.size);
        return result;
      }),
      assign: native("assign", ([target, ...sources], host) => {
        if (!(target instanceof ObjectValue)) throwError("TypeError", "Object.assign needs an object to copy into");
        for (const source of sources)
          for (const key of source === null || source === undefined ? [] : keysOf(source)) target.props.set(key, valueAt(source, key));
        host.allocate(target.props.size);
        return target;
      }),
      hasOwn: native("hasOwn", ([v, key], host) => keysOf(v).includes(text(key, host))),
      freeze: native("freeze", ([v]) => v),
    }),
    Array: object({
      isArray: native("isArray", ([v]) => v instanceof ArrayValue),
      from: native("from", async ([v, fn], host) => {
        const items = [...itemsOf(v, "Array.from")];
        host.allocate(items.length);
        if (fn === undefined) return new ArrayValue(items);
        const out: Value[] = [];
        for (let i = 0; i < items.length; i++) out.push(await callback(host, fn, [items[i], i], "Array.from"));
        return new ArrayValue(out);
      }),
    }),
    Promise: object({
      all: native(
        "all",
        ([v]) => new PromiseValue(Promise.all(itemsOf(v, "Promise.all").map(settle)).then((items) => new ArrayValue(items))),
      ),
      allSettled: native("allSettled", ([v]) => {
        const outcomes = itemsOf(v, "Promise.allSettled").map((item) =>
          settle(item).then(
            (value) => object({ status: "fulfilled", value }),
            (reason: unknown) => {
              // A limit reached inside must still stop the program, not become a "rejected" entry.
              if (!(reason instanceof ThrowSignal)) throw reason;
              return object({ status: "rejected", reason: reason.value });
            },
          ),
        );
        return new PromiseValue(Promise.all(outcomes).then((items) => new ArrayValue(items)));
      }),
      resolve: native("resolve", ([v]) => new PromiseValue(settle(v))),
    }),
    String: native("String", (args, host) => (args.length === 0 ? "" : text(args[0], host))),
    Number: withProps(
      native("Number", (args) => (args.length === 0 ? 0 : toNumber(args[0]))),
      {
        isInteger: native("isInteger", ([v]) => typeof v === "number" && Number.isInteger(v)),
        isFinite: native("isFinite", ([v]) => typeof v === "number" && Number.isFinite(v)),
        isNaN: native("isNaN", ([v]) => typeof v === "number" && Number.isNaN(v)),
        parseInt: native("parseInt", ([s, radix], host) =>
          Number.parseInt(text(s, host), radix === undefined ? undefined : int(radix, 10)),
        ),
        parseFloat: native("parseFloat", ([s], host) => Number.parseFloat(text(s, host))),
      },
    ),
    Boolean: native("Boolean", ([v]) => truthy(v)),
    parseInt: native("parseInt", ([s, radix], host) => Number.parseInt(text(s, host), radix === undefined ? undefined : int(radix, 10))),
    parseFloat: native("parseFloat", ([s], host) => Number.parseFloat(text(s, host))),
    isNaN: native("isNaN", ([v]) => Number.isNaN(toNumber(v))),
  };
  for (const name of ERROR_CONSTRUCTORS) globals[name] = errorConstructor(name);
  return globals;
}
