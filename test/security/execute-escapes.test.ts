/**
 * Attacks on the execute tool's interpreter: a program trying to reach the host (constructor chains,
 * globals, prototypes, getters, Proxy), to exhaust it (huge strings and arrays, deep recursion and nesting,
 * catastrophic regular expressions), or to get around the session (a denied tool, a file outside the
 * workspace, execute or batch from inside). Each one fails with a clear error, and afterwards nothing
 * outside changed: the host's prototypes and globals have the same keys, no host object gained a property,
 * the sentinel outside the workspace is untouched, and no file appeared.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Opened, openCodeMode } from "../tools/execute/harness.js";
import { plantSentinel, type Sentinel } from "./sentinel.js";

const opened: Opened[] = [];
const sentinels: Sentinel[] = [];
afterEach(async () => {
  for (const s of sentinels.splice(0)) await s.dispose();
  for (const o of opened.splice(0)) await o.dispose();
});

/** Everything of the host a program could have changed: the keys of the built-in prototypes and globals. */
function hostState(): string {
  const prototypes = [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    String.prototype,
    Number.prototype,
    Promise.prototype,
    Map.prototype,
  ];
  const keys = (target: object) => Reflect.ownKeys(target).map(String).sort().join(",");
  return JSON.stringify({
    prototypes: prototypes.map(keys),
    globals: keys(globalThis),
    plain: Object.keys({}),
    polluted: ({} as Record<string, unknown>).polluted,
  });
}

async function attack(config: Record<string, unknown> = {}) {
  const o = await openCodeMode({ "a.txt": "a\n" }, { config: { workbench: { experimentalCodeMode: true }, ...config } });
  opened.push(o);
  const sentinel = await plantSentinel(o.runtime);
  sentinels.push(sentinel);
  // Nobody is there to answer: every ask (an outside path, say) is rejected.
  o.session.bus.subscribe("permission.asked", (request) => queueMicrotask(() => o.session.permissions.reply(request.id, "reject")));
  const before = hostState();
  const files = async () => (await o.runtime.fs.readdir(o.root)).sort();
  const filesBefore = await files();
  return {
    o,
    sentinel,
    async nothingChanged() {
      expect(hostState()).toBe(before);
      expect(await files()).toEqual(filesBefore);
      await sentinel.assertUntouched();
    },
  };
}

describe("execute: escaping to the host", () => {
  it("finds no constructor, prototype or host function on any value", async () => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(`
      const probes = [({}), "", [], () => 1, async () => 1, tools.read, console.log, JSON.parse, Math, tools, 1, Promise.resolve(1)];
      const found = [];
      for (const p of probes) for (const key of ["constructor", "__proto__", "prototype", "call", "apply", "bind", "valueOf", "__defineGetter__"]) {
        if (p[key] !== undefined) found.push(typeof p + "." + key);
      }
      return found.length === 0 ? "nothing" : found.join(" ");
    `);
    expect(call.output).toBe("nothing");
    await nothingChanged();
  });

  it("fails the classic constructor chain with a TypeError", async () => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(`({}).constructor.constructor("globalThis.pwned = 1")();`);
    expect(call.error).toContain("TypeError: line 1: Cannot read properties of undefined (reading 'constructor')");
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    await nothingChanged();
  });

  it("has none of the host's globals", async () => {
    const { o, nothingChanged } = await attack();
    const names = [
      "globalThis",
      "window",
      "self",
      "global",
      "process",
      "require",
      "module",
      "eval",
      "Function",
      "Reflect",
      "Proxy",
      "Symbol",
      "fetch",
      "setTimeout",
      "setInterval",
      "queueMicrotask",
      "WebAssembly",
      "Worker",
      "RegExp",
      "Buffer",
      "Deno",
      "Bun",
      "XMLHttpRequest",
      "importScripts",
      "postMessage",
    ];
    const { call } = await o.program(`return [${names.map((n) => `typeof ${n}`).join(", ")}].filter((t) => t !== "undefined").length;`);
    expect(call.output).toBe("0");
    for (const name of ["eval", "Function", "globalThis", "process"]) {
      const direct = await o.program(`${name}("1");`);
      expect(direct.call.error).toContain(`ReferenceError: line 1: ${name} is not defined`);
    }
    expect((await o.program(`import("node:fs");`)).call.error).toContain("import() is not supported in execute");
    expect((await o.program(`new Proxy({}, {});`)).call.error).toContain("new Proxy is not supported in execute");
    expect((await o.program(`new Function("return 1");`)).call.error).toContain("new Function is not supported in execute");
    expect((await o.program(`(function () { return this; })()`)).call.error).toContain("this is not supported in execute");
    await nothingChanged();
  });

  it("keeps __proto__ and prototype an ordinary key: no host prototype is polluted, in the program or out", async () => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(`
      const o = {};
      o.__proto__ = { polluted: 1 };
      o["__proto__"].polluted = 2;
      const parsed = JSON.parse('{"__proto__": {"polluted": 3}, "constructor": {"prototype": {"polluted": 4}}}');
      const merged = Object.assign({}, parsed, { ["__proto__"]: { polluted: 5 } });
      try { await tools.read({ filePath: "a.txt", __proto__: { polluted: 6 }, constructor: { prototype: { polluted: 7 } } }); } catch (e) {}
      return [({}).polluted, [].polluted, merged.polluted, Object.keys(merged).join("+")];
    `);
    expect(JSON.parse(call.output ?? "null")).toEqual([null, null, null, "__proto__+constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await nothingChanged();
  });

  it("refuses getters and setters, and has no defineProperty to make one", async () => {
    const { o, nothingChanged } = await attack();
    expect((await o.program(`const o = { get x() { return 1; } };`)).call.error).toContain(
      "getters and setters are not supported in execute",
    );
    expect((await o.program(`const o = { set x(v) {} };`)).call.error).toContain("getters and setters are not supported in execute");
    expect((await o.program(`Object.defineProperty({}, "x", { get() { return 1; } });`)).call.error).toContain(
      "defineProperty is not a function",
    );
    // A program's own toString is data: the host never calls it behind the program's back.
    const quiet = await o.program(`let called = 0; const o = { toString() { called++; return "x"; }, toJSON() { called++; } };
      const s = "" + o + String(o) + [o].join() + JSON.stringify(o) + \`\${o}\`; return called;`);
    expect(quiet.call.output).toBe("0");
    await nothingChanged();
  });

  it("gives each program fresh globals: what one program overwrote, the next does not see", async () => {
    const { o, nothingChanged } = await attack();
    await o.program(`JSON.parse = () => "fake"; tools.read = () => "fake"; Math.max = null;`);
    const { call } = await o.program(
      `return [JSON.parse("[1]")[0], Math.max(1, 2), (await tools.read({ filePath: "a.txt" })).includes("a")];`,
    );
    expect(JSON.parse(call.output ?? "null")).toEqual([1, 2, true]);
    await nothingChanged();
  });
});

describe("execute: exhausting the host", () => {
  it.each([
    ["a string repeated a billion times", `"x".repeat(2 ** 30);`, "grew to"],
    ["a string doubled forever", `let s = "x"; while (true) s += s;`, "grew to"],
    ["padding to a billion", `"x".padStart(1e9, "y");`, "grew to"],
    ["an array doubled forever", `let a = [1]; while (true) a = a.concat(a);`, "grew to"],
    ["a sparse index far out", `const a = []; a[4294967294] = 1;`, "grew to"],
    ["an array pushed forever", `const a = []; while (true) a.push(a.length);`, "steps"],
    [
      "one big array printed a thousand times",
      `const big = Array.from("x".repeat(100000)); const many = []; for (let i = 0; i < 1000; i++) many.push(big); JSON.stringify(many);`,
      "grew to",
    ],
    [
      "many big strings kept",
      `const s = "y".repeat(900000); const kept = []; for (let i = 0; i < 100; i++) kept.push(s.toUpperCase());`,
      "in all",
    ],
    [
      "a join of a thousand big strings",
      `const s = "y".repeat(900000); const a = []; for (let i = 0; i < 1000; i++) a.push(s); a.join("");`,
      "grew to",
    ],
    ["replaceAll that multiplies", `"ab".repeat(400000).replaceAll("a", "aaaaaaaaaa");`, "grew to"],
  ])("%s: stopped at a limit", async (_name, code, says) => {
    const { o, nothingChanged } = await attack();
    const started = Date.now();
    const { call } = await o.program(code);
    expect(call.status).toBe("error");
    expect(call.error).toContain("The program was stopped:");
    expect(call.error).toContain(says);
    expect(Date.now() - started).toBeLessThan(30_000);
    await nothingChanged();
  });

  it.each([
    ["direct recursion", `function f(n) { return f(n + 1); } f(0);`],
    ["recursion through callbacks", `const f = (n) => [n].map(f); f(0);`],
    ["async recursion", `const f = async (n) => await f(n + 1); await f(0);`],
    ["mutual recursion", `function a(n) { return b(n); } function b(n) { return a(n); } a(0);`],
  ])("%s: stopped at the call depth limit", async (_name, code) => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(code);
    expect(call.error).toContain("nested more than 100 calls deep");
    await nothingChanged();
  });

  it.each([
    ["parentheses", `${"(".repeat(5000)}1${")".repeat(5000)}`],
    ["arrays", `${"[".repeat(100000)}`],
    ["a member chain", `let a = {}; a${".b".repeat(3000)};`],
    ["nested blocks", `${"{".repeat(3000)}${"}".repeat(3000)}`],
  ])("deeply nested %s: refused before running", async (_name, code) => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(code);
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/nests (more than 200 levels deep|too deep to parse)|does not parse/);
    await nothingChanged();
  });

  it("has no regular expressions to backtrack catastrophically", async () => {
    const { o, nothingChanged } = await attack();
    expect((await o.program(`/(a+)+$/.test("a".repeat(40) + "b");`)).call.error).toContain(
      "regular expressions are not supported in execute",
    );
    expect((await o.program(`new RegExp("(a+)+$");`)).call.error).toContain("new RegExp is not supported in execute");
    expect((await o.program(`"aaa".match("a");`)).call.error).toContain("regular expressions are not supported in execute");
    await nothingChanged();
  });
});

describe("execute: getting around the session", () => {
  it("cannot run a denied tool: the inner call is refused like a direct one, and nothing ran", async () => {
    const { o, nothingChanged } = await attack({ permission: { bash: "deny", edit: "deny" } });
    const { call, inner } = await o.program(`
      const out = [];
      for (const [name, args] of [["bash", { command: "echo x > pwned.txt", description: "x" }], ["write", { filePath: "pwned.txt", content: "x" }]]) {
        try { await tools[name](args); out.push(name + " ran"); } catch (e) { out.push(name + " refused"); }
      }
      return out.join(", ");
    `);
    expect(call.output).toBe("bash refused, write refused");
    expect(inner.map((c) => [c.tool, c.status])).toEqual([
      ["bash", "error"],
      ["write", "error"],
    ]);
    await nothingChanged();
  });

  it("cannot read or write outside the workspace without the person's yes", async () => {
    const { o, sentinel, nothingChanged } = await attack();
    const { call } = await o.program(`
      const out = [];
      try { out.push(await tools.read({ filePath: ${JSON.stringify(sentinel.file)} })); } catch (e) { out.push("read refused"); }
      try { await tools.write({ filePath: ${JSON.stringify(sentinel.file)}, content: "pwned" }); out.push("written"); } catch (e) { out.push("write refused"); }
      return out.join(", ");
    `);
    expect(call.output).toBe("read refused, write refused");
    sentinel.assertNotLeaked(call.output);
    await nothingChanged();
  });

  it("cannot call execute or batch from inside, by any name", async () => {
    const { o, nothingChanged } = await attack({ experimental: { batch_tool: true } });
    const before = o.session.session.calls.length;
    const { call, inner } = await o.program(`
      const out = [];
      const t = tools;
      for (const run of [() => tools.execute({ code: "1" }), () => t["execute"]({ code: "1" }), () => tools.batch({ tool_calls: [] })]) {
        try { await run(); out.push("ran"); } catch (e) { out.push(e.message); }
      }
      return out.join("\\n");
    `);
    expect(call.output).toBe(
      [
        "execute cannot call execute: write the whole program in one execute call.",
        "execute cannot call execute: write the whole program in one execute call.",
        "batch cannot run inside execute: start the calls together and await them with Promise.all([...]).",
      ].join("\n"),
    );
    expect(inner).toEqual([]);
    expect(o.session.session.calls.length).toBe(before + 1);
    await nothingChanged();
  });

  it("cannot act after its call has ended: an async function left running starts no more calls", async () => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(`
      (async () => { for (let i = 0; i < 3; i++) await null; await tools.write({ filePath: "late.txt", content: "x" }); })();
      (async () => { while (true) {} })();
      return "done";
    `);
    expect(call.output).toBe("done");
    const calls = o.session.session.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(o.session.session.calls.length).toBe(calls);
    await expect(o.read("late.txt")).rejects.toThrow();
    await nothingChanged();
  });

  it("names the tools there are when a program calls one that is not", async () => {
    const { o, nothingChanged } = await attack();
    const { call } = await o.program(`await tools.rm({ path: "/" });`);
    expect(call.error).toMatch(/there is no tool named 'rm'\. The tools are: .*read/);
    expect(call.error).not.toMatch(/The tools are: .*execute/);
    await nothingChanged();
  });
});
