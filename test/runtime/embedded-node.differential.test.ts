/**
 * The embedded shell's `node` against real node (20, on this machine) on identical copies of a workspace:
 * the same command line must print the same stdout, exit the same way and leave the same files. Cases
 * stay where Node 20 behaves as Node 22 does; the real run's folder path is written as /workspace.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { readRuntimeTree, readTree, writeTree } from "../support/text-trees.js";

interface Case {
  name: string;
  files: Record<string, string>;
  command: string;
}

const cases: Case[] = [
  {
    name: "CommonJS: relative require with and without extension, index files, JSON, module.exports",
    files: {
      "main.js": `const a = require("./lib/a"); const b = require("./lib"); const data = require("./data.json");
console.log(a.name, b(), data.list.length, require("./lib/a.js") === a, typeof module.exports, require.main === module);`,
      "lib/a.js": `exports.name = "a";`,
      "lib/index.js": `module.exports = () => "index";`,
      "data.json": `{ "list": [1, 2, 3] }`,
    },
    command: "node main.js",
  },
  {
    name: "ES modules: named, default, namespace and dynamic imports; CommonJS from ESM; import.meta",
    files: {
      "main.mjs": `import def, { value } from "./m.mjs";
import * as ns from "./m.mjs";
import cjs from "./c.cjs";
const dyn = await import("./m.mjs");
console.log(def, value, ns.value, cjs.answer, dyn === ns, import.meta.url.endsWith("/main.mjs"));`,
      "m.mjs": `export const value = 7; export default "D";`,
      "c.cjs": `module.exports = { answer: 42 };`,
    },
    command: "node main.mjs",
  },
  {
    name: "packages: node_modules up the tree, exports conditions and subpaths, main, imports",
    files: {
      "package.json": `{ "name": "app", "imports": { "#util": "./src/util.js" } }`,
      "src/deep/main.js": `const pkg = require("pkg"); const sub = require("pkg/sub"); const legacy = require("legacy");
console.log(pkg, sub, legacy, require("#util"));
try { require("pkg/secret"); } catch (error) { console.log(error.code); }
import("pkg").then((m) => console.log("import", m.default));`,
      "src/util.js": `module.exports = "util";`,
      "node_modules/pkg/package.json": `{ "name": "pkg", "exports": { ".": { "import": "./m.mjs", "require": "./c.js" }, "./sub": "./sub.js" } }`,
      "node_modules/pkg/c.js": `module.exports = "pkg-cjs";`,
      "node_modules/pkg/m.mjs": `export default "pkg-esm";`,
      "node_modules/pkg/sub.js": `module.exports = "pkg-sub";`,
      "node_modules/pkg/secret.js": `module.exports = "secret";`,
      "node_modules/legacy/package.json": `{ "name": "legacy", "main": "lib/entry" }`,
      "node_modules/legacy/lib/entry.js": `module.exports = "legacy-main";`,
    },
    command: "node src/deep/main.js",
  },
  {
    name: "errors carry Node's codes; a missing module names itself",
    files: {
      "main.js": `for (const id of ["./nope", "nopkg", "node:nope"]) {
  try { require(id); } catch (error) { console.log(id, error.code, error.message.split("\\n")[0]); }
}
import("./nope.mjs").catch((error) => console.log("import", error.code));`,
    },
    command: "node main.js",
  },
  {
    name: "files: sync, callback, promise and stream calls leave the same tree",
    files: {
      "main.js": `const fs = require("fs"); const path = require("path");
fs.mkdirSync("out/deep", { recursive: true });
fs.writeFileSync("out/a.txt", "alpha\\n");
fs.appendFileSync("out/a.txt", "beta\\n");
fs.renameSync("old.txt", "out/renamed.txt");
fs.unlinkSync("gone.txt");
console.log(fs.readdirSync("out").sort(), fs.statSync("out/a.txt").size, fs.existsSync("gone.txt"));
fs.writeFile(path.join("out", "cb.txt"), "callback", (error) => {
  console.log("callback", error);
  fs.promises.writeFile("out/deep/p.txt", "promise").then(() => {
    const stream = fs.createWriteStream("out/stream.txt");
    stream.write("one ");
    stream.end("two", () => console.log("stream done", fs.readFileSync("out/stream.txt", "utf8")));
  });
});`,
      "old.txt": "old",
      "gone.txt": "gone",
    },
    command: "node main.js",
  },
  {
    name: "core modules: path, util, events, buffer, crypto, url, querystring, string_decoder, assert, zlib, os",
    files: {
      "main.js": `const util = require("util"); const { EventEmitter } = require("events"); const crypto = require("crypto");
const path = require("path"); const url = require("url"); const qs = require("querystring"); const assert = require("assert");
const zlib = require("zlib"); const { StringDecoder } = require("string_decoder");
console.log(path.join("/a/b", "../c", "d.txt"), path.extname("x.tar.gz"), path.relative("/a/b", "/a/c/d"), path.parse("/x/y.js").name);
console.log(util.format("%s=%d %j", "n", 42, { k: [1] }), util.inspect(new Map([["a", { b: [1, 2] }]])), util.types.isPromise(Promise.resolve()));
const events = new EventEmitter(); events.once("e", (v) => console.log("once", v)); events.emit("e", 1); events.emit("e", 2);
console.log(Buffer.from("héllo").toString("base64"), Buffer.concat([Buffer.from([1, 2]), Buffer.alloc(2)]), Buffer.byteLength("€"));
console.log(crypto.createHash("sha256").update("abc").digest("hex"), crypto.createHash("md5").update("abc").digest("base64"));
console.log(crypto.createHmac("sha1", "key").update("data").digest("hex"), crypto.randomBytes(8).length, crypto.randomUUID().length);
console.log(url.fileURLToPath("file:///a/b%20c.txt"), new URL("https://x.org/p?q=1").searchParams.get("q"), qs.stringify({ a: [1, 2], b: "c d" }));
const decoder = new StringDecoder("utf8"); console.log(decoder.write(Buffer.from([0xe2, 0x82])) + decoder.end(Buffer.from([0xac])));
assert.throws(() => assert.deepStrictEqual({ a: 1 }, { a: 2 }), assert.AssertionError); assert.ok(true);
console.log(zlib.gunzipSync(zlib.gzipSync("round trip")).toString(), require("os").EOL === "\\n");`,
    },
    command: "node main.js",
  },
  {
    name: "the event loop: nextTick before promises before timers; immediates; beforeExit and exit",
    files: {
      "main.js": `const order = [];
setTimeout(() => order.push("timeout"), 0);
setImmediate(() => order.push("immediate-ish"));
Promise.resolve().then(() => order.push("promise"));
process.nextTick(() => order.push("tick"));
order.push("sync");
let rounds = 0;
process.on("beforeExit", () => { if (rounds++ === 0) setTimeout(() => order.push("after beforeExit"), 1); });
process.on("exit", (code) => console.log(order.filter((step) => step !== "immediate-ish").join(","), code));`,
    },
    command: "node main.js",
  },
  {
    name: "exit codes: process.exitCode, process.exit with pending output, an uncaught throw, an unhandled rejection",
    files: {
      "code.js": `process.exitCode = 3; console.log("set");`,
      "exit.js": `for (let i = 0; i < 1000; i++) console.log("line", i); process.exit(5); console.log("never");`,
      "throw.js": `console.log("before"); setTimeout(() => { throw new Error("boom"); }, 1);`,
      "reject.js": `Promise.reject(new Error("nobody caught me")); setTimeout(() => console.log("never"), 50);`,
      "handled.js": `process.on("uncaughtException", (error) => console.log("caught", error.message)); setTimeout(() => { throw new Error("x"); }, 1);`,
    },
    command:
      "node code.js; echo $?; node exit.js | tail -1; echo ${PIPESTATUS[0]}; node throw.js 2>/dev/null; echo $?; node reject.js 2>/dev/null; echo $?; node handled.js; echo $?",
  },
  {
    name: "the command line: -e, -p, argv, env, stdin as script and as data, pipes and redirections",
    files: {
      "gen.js": `for (const word of ["pear", "apple", "fig"]) console.log(word); console.error("to stderr");`,
      "upper.js": `let text = ""; process.stdin.on("data", (chunk) => (text += chunk)); process.stdin.on("end", () => process.stdout.write(text.toUpperCase()));`,
      "args.js": `console.log(process.argv.slice(2), process.env.GREETING, process.cwd() === require("path").resolve("."));`,
    },
    command:
      "node -e 'console.log(1 + 1)'; node -p '[1, 2].map((n) => n * 3)'; node -p '\"text\"'; GREETING=hi node args.js a 'b c'; node gen.js 2>/dev/null | sort; node gen.js 2>&1 | wc -l; echo hello | node upper.js; echo 'console.log(\"from stdin\")' | node; node gen.js > out.txt 2> err.txt; cat out.txt err.txt",
  },
  {
    name: "-e and -p resolve packages from the working directory, as a module named [eval] there",
    files: { "node_modules/dep/index.js": "module.exports = 'dep';", "sub/.keep": "" },
    command:
      'node -e \'console.log(require("dep"), __filename, module.id)\'; cd sub && node -p \'require("dep") + require.resolve("dep").endsWith("/node_modules/dep/index.js")\'',
  },
  {
    name: "readline over piped stdin, and fs.readFileSync(0)",
    files: {
      "lines.js": `const rl = require("readline").createInterface({ input: process.stdin });
const seen = []; rl.on("line", (line) => seen.push(line.length)); rl.on("close", () => console.log(seen.join(" ")));`,
      "all.js": `console.log(require("fs").readFileSync(0, "utf8").split("\\n").length);`,
    },
    command:
      "printf 'a\\nbb\\nccc\\n' | node lines.js; printf 'x\\ny\\n' | node all.js; (for i in 1 2 3; do echo $i; done) | node -e 'require(\"readline\").createInterface({ input: process.stdin }).on(\"line\", (l) => console.log(l * 2))'",
  },
];

const ROOT = "/workspace";

describe("node in the embedded shell, against real node", () => {
  let runtime: EmbeddedRuntime;
  let scratch: string;

  beforeAll(async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    scratch = mkdtempSync(join(tmpdir(), "node-differential-"));
  });

  afterAll(async () => {
    await runtime.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const [index, testCase] of cases.entries()) {
    it(testCase.name, { timeout: 90_000 }, async () => {
      const real = join(scratch, `case-${index}`);
      writeTree(real, testCase.files);
      const expected = spawnSync("bash", ["-c", testCase.command], {
        cwd: real,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: real },
      });
      const folder = `${ROOT}/case-${index}`;
      for (const [path, text] of Object.entries(testCase.files)) {
        await runtime.fs.mkdir(dirname(`${folder}/${path}`), { recursive: true });
        await runtime.fs.writeFile(`${folder}/${path}`, text);
      }
      const actual = await runtime.exec(testCase.command, { cwd: folder });
      expect(actual.stdout).toBe(expected.stdout.replaceAll(real, folder));
      expect(actual.exitCode).toBe(expected.status);
      expect(await readRuntimeTree(runtime.fs, folder)).toEqual(readTree(real));
    });
  }
});
