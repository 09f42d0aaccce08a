/**
 * Stack lines name the program's own source, as Node's do: the file (a file URL for an ES module), the
 * line and column of the call in the text the person wrote (not in the rewritten ES module or the
 * stripped TypeScript), `<anonymous>` for anonymous functions, and node:test's failure list names where
 * the test was declared. JavaScript cases are judged against real node 20 on a copy of the files; a
 * TypeScript case (node 20 cannot run one) against the position of the throw in the file's own text.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { writeTree } from "../support/text-trees.js";

const ROOT = "/workspace";

/** The stack lines that point into the program's folder (written as `shown`), without what follows a frame. */
function ownFrames(text: string, folder: string, shown = folder): string[] {
  return text
    .replaceAll(folder, shown)
    .split("\n")
    .map((line) => line.trim().replace(/ \{$/, ""))
    .filter((line) => line.startsWith("at ") && line.includes(`${shown}/`));
}

const cases: { name: string; files: Record<string, string>; command: string }[] = [
  {
    name: "an ES module: an anonymous callback's column in the written text, after imports that get rewritten",
    files: {
      "main.mjs": `import assert from "node:assert";
import { helper } from "./helper.mjs";
class Runner { run(fn) { return fn.call(this); } }
try {
  new Runner().run(() => { assert.equal(helper(1), 3); });
} catch (error) { console.log(error.stack); }
`,
      "helper.mjs": `export function helper(n) {\n  return n + 1;\n}\n`,
    },
    command: "node main.mjs",
  },
  {
    name: "an ES module: an imported function that throws, called at the top level after a template literal",
    files: {
      "main.mjs": `import { boom } from "./lib.mjs";
const label = \`run \${1 + 1}\`;
console.log(label); boom(label);
`,
      "lib.mjs": `export function boom(why) {\n  throw new Error("boom: " + why);\n}\n`,
    },
    command: "node main.mjs",
  },
  {
    name: "CommonJS: a throw on the first line and in a named function, uncaught",
    files: {
      "main.js": `const lib = require("./lib"); lib.fail();\n`,
      "lib.js": `exports.fail = function fail() {\n  const value = { size: 2 };\n  throw new TypeError("bad size " + value.size);\n};\n`,
    },
    command: "node main.js",
  },
  {
    name: "node:test: the failure list names the test's place and the assertion's line",
    files: {
      "package.json": `{ "type": "module" }`,
      "math.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";

test("adds", () => {
  assert.equal(1 + 1, 2);
});

test("subtracts", () => {
  assert.equal(5 - 3, 1);
});
`,
    },
    command: "node --test math.test.js",
  },
];

describe("stack lines point at the written source, as Node's do", () => {
  let runtime: EmbeddedRuntime;
  let scratch: string;

  beforeAll(async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    scratch = mkdtempSync(join(tmpdir(), "node-stack-"));
  });

  afterAll(async () => {
    await runtime.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function copyIn(folder: string, files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      await runtime.fs.mkdir(dirname(`${folder}/${path}`), { recursive: true });
      await runtime.fs.writeFile(`${folder}/${path}`, text);
    }
  }

  for (const [index, testCase] of cases.entries()) {
    it(testCase.name, { timeout: 90_000 }, async () => {
      const real = join(scratch, `case-${index}`);
      writeTree(real, testCase.files);
      // The spec reporter, as a terminal shows it (node 20 picks TAP when stdout is not a terminal).
      const command = testCase.command.replace("--test", "--test --test-reporter=spec");
      const expected = spawnSync("bash", ["-c", command], { cwd: real, encoding: "utf8", env: { PATH: process.env.PATH, HOME: real } });
      const folder = `${ROOT}/case-${index}`;
      await copyIn(folder, testCase.files);
      const actual = await runtime.exec(testCase.command, { cwd: folder });
      const want = ownFrames(expected.stdout + expected.stderr, real, folder);
      expect(want.length).toBeGreaterThan(0);
      expect(ownFrames(actual.stdout + actual.stderr, folder)).toEqual(want);
      const places = (text: string) => [...text.matchAll(/^test at (.*)$/gm)].map((match) => match[1]);
      expect(places(actual.stdout)).toEqual(places(expected.stdout));
    });
  }

  it("TypeScript: the throw's line and column in the .ts file as written, types and all", { timeout: 90_000 }, async () => {
    const source = `interface Box<T> { value: T; label?: string }

type Pair = [number, number];

function open<T extends object>(box: Box<T>, pair: Pair = [1, 2]): T {
  const sum: number = pair[0] + pair[1];
  if (sum > 2) throw new RangeError("too big: " + (box.label as string));
  return box.value;
}

open<{ a: number }>({ value: { a: 1 }, label: "x" });
`;
    const folder = `${ROOT}/ts-case`;
    await copyIn(folder, { "main.ts": source });
    const actual = await runtime.exec("node main.ts", { cwd: folder });
    expect(actual.exitCode).toBe(1);
    const lines = source.split("\n");
    const throwLine = lines.findIndex((line) => line.includes("new RangeError")) + 1;
    const throwColumn = lines[throwLine - 1]!.indexOf("new RangeError") + 1;
    const callLine = lines.findIndex((line) => line.startsWith("open<")) + 1;
    expect(ownFrames(actual.stderr, folder).slice(0, 2)).toEqual([
      `at open (${folder}/main.ts:${throwLine}:${throwColumn})`,
      `at Object.<anonymous> (${folder}/main.ts:${callLine}:1)`,
    ]);
  });
});
