/**
 * The interpreter against real node: each program (no tools, only the language and its library) runs in
 * both, and what it prints must be the same, line for line. Node runs it as the body of an async function,
 * which is what an execute program is; a returned value is printed as execute shows it (a string bare,
 * anything else as JSON with two spaces). Programs print only text, numbers and JSON.stringify results,
 * whose forms both sides define the same way.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Interpreter, parseProgram } from "../../../src/tools/execute/interpreter.js";
import { DEFAULT_LIMITS } from "../../../src/tools/execute/limits.js";

const PROGRAMS: Record<string, string> = {
  arithmetic: `console.log(1 + 2 * 3 - 4 / 8, 7 % 3, 2 ** 10, -7 % 3, 0.1 + 0.2, 1 / 0, -1 / 0, 5 / 2 | 0, 1 << 4, -16 >> 2, -16 >>> 28, ~5, 3 & 5, 3 | 5, 3 ^ 5);`,
  "string coercion": `console.log("a" + 1 + 2, 1 + 2 + "a", "3" * "4", "10" - 2, +"", +"x", String([1, [2, 3]]), "" + null + undefined + true, [] + [], "x" + [1, 2]);`,
  "string methods": `const s = "  Hello, World  ";
    console.log(s.trim(), s.trimStart().length, s.trimEnd().length, s.toUpperCase(), s.includes("World"), s.indexOf("o"), s.lastIndexOf("o"));
    console.log("a,b,,c".split(","), "abc".split(""), "a-b-c".split("-", 2).join("+"), "x".padStart(4, "ab"), "x".padEnd(3), "ab".repeat(3));
    console.log("aXbXc".replace("X", "_"), "aXbXc".replaceAll("X", "_"), "hello".slice(-3), "hello".substring(3, 1), "hello".at(-1), "hello".charCodeAt(1));
    console.log("b".localeCompare("a"), "abc".startsWith("ab"), "abc".endsWith("bc"), "abc".concat("d", 1));`,
  templates:
    "const n = 3; const who = { name: 'x' }; console.log(`${n} items for ${who.name}: ${[1, 2].map((i) => i * n)} ${n > 2 ? 'many' : 'few'}`);",
  "array methods": `const a = [5, 1, 4, 2, 3];
    console.log(a.map((x) => x * 2).join(), a.filter((x) => x % 2).join(), a.reduce((s, x) => s + x, 0), a.reduce((s, x) => s + x));
    console.log(a.some((x) => x > 4), a.every((x) => x > 0), a.find((x) => x > 3), a.findIndex((x) => x > 3), a.indexOf(4), a.includes(9));
    console.log([...a].sort().join(), [...a].sort((x, y) => y - x).join(), [10, 9, 1, 100].sort().join(), a.slice(1, -1).join(), a.at(-2));
    const b = [1, 2, 3, 4, 5]; const removed = b.splice(1, 2, "x", "y", "z"); console.log(b.join(), removed.join());
    console.log([1, [2, [3, [4]]]].flat().length, [1, [2, [3]]].flat(2).join(), [1, 2].flatMap((x) => [x, x * 10]).join(), [1, 2].concat(3, [4, [5]]).length);
    const c = [1, 2, 3]; c.push(4, 5); c.unshift(0); console.log(c.pop(), c.shift(), c.join("-"), c.reverse().join(""), c.length);`,
  "stable sort": `const people = [{ n: "a", age: 30 }, { n: "b", age: 25 }, { n: "c", age: 30 }, { n: "d", age: 25 }];
    console.log(people.sort((x, y) => x.age - y.age).map((p) => p.n).join(""));`,
  destructuring: `const { a, b: { c = 5, d } = {}, ...rest } = { a: 1, b: { d: 2 }, e: 3, f: 4 };
    const [x, , y = 9, ...others] = [1, 2, undefined, 4, 5];
    console.log(a, c, d, JSON.stringify(rest), x, y, others.join());
    let p = 1, q = 2; [p, q] = [q, p]; console.log(p, q);
    function f({ name, tags = [] } = {}, ...more) { return name + ":" + tags.length + ":" + more.length; }
    console.log(f({ name: "n" }, 1, 2), f());`,
  spread: `const base = { a: 1, b: 2 }; const more = { ...base, b: 3, c: 4 }; const arr = [0, ...[1, 2], ..."ab"];
    console.log(JSON.stringify(more), arr.join(), Math.max(...[3, 9, 2]), [..."héllo"].length);`,
  "closures per loop turn": `const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); console.log(fs.map((f) => f()).join());
    const gs = []; for (const x of ["a", "b"]) gs.push(() => x); console.log(gs.map((g) => g()).join());
    function counter() { let n = 0; return { inc: () => ++n, get: () => n }; } const k = counter(); k.inc(); k.inc(); console.log(k.get());`,
  "labels, break, continue": `const out = [];
    outer: for (let i = 0; i < 4; i++) { for (let j = 0; j < 4; j++) { if (j === 2) continue outer; if (i === 3) break outer; out.push(i + "" + j); } }
    let n = 0; while (true) { n++; if (n < 5) continue; break; } do { n += 10; } while (n < 30);
    console.log(out.join(), n);`,
  switch: `function kind(x) { const r = []; switch (x) { case 1: r.push("one"); case 2: r.push("two"); break; case "1": r.push("string"); break; default: r.push("other"); } return r.join("+"); }
    console.log(kind(1), kind(2), kind("1"), kind(3));`,
  "try, catch, finally": `const log = [];
    function f() { try { log.push("try"); throw new Error("boom"); } catch (e) { log.push("catch " + e.message); return "from catch"; } finally { log.push("finally"); } }
    log.push(f());
    try { null.x; } catch (e) { log.push(typeof e + " " + e.name); }
    try { undefinedName; } catch (e) { log.push(e.name); }
    try { throw { code: 7 }; } catch ({ code }) { log.push(code); }
    console.log(log.join(" | "));`,
  "optional chaining and nullish": `const o = { a: { b: null, f: () => "called" } };
    console.log(o?.a?.b?.c, o.x?.y.z, o.a.f?.(), o.a.g?.(), o.a.b ?? "dflt", 0 ?? 1, "" || "empty", 0 && 1, null?.[0]);
    let u; u ??= 5; let v = 0; v ||= 7; let w = 1; w &&= 9; console.log(u, v, w);`,
  "typeof and equality": `console.log(typeof 1, typeof "s", typeof null, typeof undefined, typeof {}, typeof [], typeof (() => 1), typeof notDeclared);
    console.log(1 == "1", 0 == "", null == undefined, null == 0, NaN == NaN, "a" < "b", "B" < "a", "10" < "9", 10 < 9, [] == 0, null === null);`,
  json: `const value = { s: "q\\"uote", n: -0.5, b: true, z: null, arr: [1, "two", null, undefined, () => 1], nested: { deep: { x: [] } }, u: undefined, f() {} };
    console.log(JSON.stringify(value)); console.log(JSON.stringify(value, null, 2)); console.log(JSON.stringify([]), JSON.stringify({}), JSON.stringify("s"), JSON.stringify(NaN));
    const back = JSON.parse('{"a":[1,{"b":"c"}],"d":1e3}'); console.log(back.a[1].b, back.d, JSON.stringify(back));
    try { JSON.parse("{bad"); } catch (e) { console.log(e.name); }`,
  "Object and Array helpers": `const o = { b: 1, a: 2 };
    console.log(Object.keys(o).join(), Object.values(o).join(), JSON.stringify(Object.entries(o)), JSON.stringify(Object.fromEntries([["x", 1], ["y", [2]]])));
    console.log(JSON.stringify(Object.assign({ a: 0 }, { b: 1 }, null, { a: 3 })), Array.isArray([]), Array.isArray("a"), Array.from("abc").join("|"), Array.from([1, 2], (x) => x * 3).join());
    console.log("a" in o, "z" in o, 0 in [5], 1 in [5], delete o.a, JSON.stringify(o), Object.hasOwn(o, "b"));`,
  numbers: `console.log(Number("12.5"), Number(""), Number("x"), parseInt("42px"), parseInt("ff", 16), parseFloat("3.14abc"), isNaN("x"), Number.isInteger(5), Number.isInteger(5.5));
    console.log((3.14159).toFixed(2), (255).toString(16), (255).toString(2), Math.round(2.5), Math.round(-2.5), Math.floor(-1.5), Math.ceil(1.1), Math.trunc(-4.7), Math.sign(-3), Math.abs(-2), Math.sqrt(16), Math.pow(2, 5), Math.min(), Math.max());
    let i = 5; const a = i++; const b = ++i; i += 10; i -= 2; i *= 2; i /= 4; i %= 4; console.log(a, b, i);`,
  "array length and holes": `const a = [1, 2, 3]; a.length = 1; a[3] = "x"; console.log(a.length, JSON.stringify(a), a.join("-"));`,
  "async order": `const order = [];
    async function job(name, n) { order.push("start " + name); for (let i = 0; i < n; i++) await null; order.push("end " + name); return name; }
    const results = await Promise.all([job("a", 3), job("b", 1), "plain"]);
    const settled = await Promise.allSettled([job("c", 0), (async () => { throw new Error("no"); })()]);
    console.log(results.join(), settled.map((s) => s.status + ":" + (s.value ?? s.reason.message)).join());
    console.log((await Promise.resolve(7)) + 1);`,
  recursion: `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } const memo = {};
    const count = (n) => (n in memo ? memo[n] : (memo[n] = n < 2 ? 1 : count(n - 1) + count(n - 2)));
    console.log(fib(15), count(40));`,
  "var hoisting of functions": `console.log(twice(4)); function twice(x) { return x * 2; } var later = 1; { var inner = 2; } console.log(later + inner);`,
  "returned object": `return { total: 3, names: ["a", "b"], empty: {}, none: null };`,
  "returned string": `const lines = ["x", "y"]; return lines.join("\\n");`,
  "errors as values": `const e = new Error("bad thing"); const t = new TypeError("worse"); console.log(e.message, t.name, String(e), e.name + ": " + e.message);`,
};

function ours(code: string): Promise<string> {
  const interpreter = new Interpreter({
    limits: DEFAULT_LIMITS,
    signal: new AbortController().signal,
    tools: [],
    refused: new Map(),
    callTool: async () => ({ ok: false, error: "no tools here" }),
  });
  return interpreter.run(parseProgram(code, DEFAULT_LIMITS)).then((result) => result.output);
}

function nodes(code: string): string {
  const wrapper = `(async () => {\n${code}\n})().then((v) => { if (v !== undefined) console.log(typeof v === "string" ? v : JSON.stringify(v, null, 2)); });`;
  const run = spawnSync("node", ["-e", wrapper], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`node failed: ${run.stderr}`);
  return run.stdout.replace(/\n$/, "");
}

/**
 * console.log shows arrays and objects differently in node (its inspector) and in execute (JSON), so both
 * sides print through one small function written in the language itself: text as is, other values as JSON.
 */
const PRELUDE = `const __log = (...args) => console.log(args.map((a) => (typeof a === "string" ? a : a === undefined || typeof a === "number" || typeof a === "boolean" || a === null ? String(a) : JSON.stringify(a))).join(" "));\n`;

describe("execute's interpreter prints what node prints", () => {
  it.each(Object.entries(PROGRAMS))("%s", async (_name, code) => {
    const program = PRELUDE + code.replace(/console\.log\(/g, "__log(");
    const expected = nodes(program);
    expect(expected.length).toBeGreaterThan(0);
    expect(await ours(program)).toBe(expected);
  });
});
