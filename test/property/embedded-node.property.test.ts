/**
 * Generated programs (fast-check) run by the embedded shell's `node` and by real node on identical copies of
 * a folder: each program logs generated values (console.log's formatting of nested data), writes, appends
 * and removes generated files, and ends with a generated exit code. Stdout, the exit code and the files left
 * must match.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { readTree, readRuntimeTree } from "../support/text-trees.js";

const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    "new Map([[1, 'a'], ['b', [2, 3]]])",
    "new Set(['x', 1])",
    "[undefined, null, -0, 2n]",
    "Buffer.from('hi')",
    "new Date(0)",
    "/x+/gi",
  ),
);
const step = fc.oneof(
  value.map((v) => (typeof v === "string" && /^(new |\[|Buffer|\/)/.test(v) ? `console.log(${v});` : `console.log(${JSON.stringify(v)});`)),
  fc.tuple(value, value).map(([a, b]) => `console.log(${JSON.stringify(a)}, ${JSON.stringify(b)});`),
  fc
    .tuple(name, fc.string({ maxLength: 40 }))
    .map(([file, text]) => `fs.writeFileSync(${JSON.stringify(`out/${file}.txt`)}, ${JSON.stringify(text)});`),
  fc
    .tuple(name, fc.string({ maxLength: 20 }))
    .map(([file, text]) => `fs.appendFileSync(${JSON.stringify(`out/${file}.txt`)}, ${JSON.stringify(text)});`),
  name.map((file) => `fs.rmSync(${JSON.stringify(`out/${file}.txt`)}, { force: true });`),
  fc
    .tuple(name, name)
    .map(([dir, file]) => `fs.mkdirSync("out/${dir}", { recursive: true }); fs.writeFileSync("out/${dir}/${file}", "${dir}");`),
  fc.constant(`console.log(fs.readdirSync("out").sort().join(","));`),
);
const program = fc
  .tuple(fc.array(step, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 3 }))
  .map(
    ([steps, code]) =>
      `const fs = require("fs");\nfs.mkdirSync("out", { recursive: true });\n${steps.join("\n")}\nprocess.exitCode = ${code};\n`,
  );

describe("generated programs: embedded node against real node", () => {
  let runtime: EmbeddedRuntime;
  let scratch: string;

  beforeAll(async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    scratch = mkdtempSync(join(tmpdir(), "node-property-"));
  });

  afterAll(async () => {
    await runtime.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("print the same, exit the same and leave the same files", { timeout: 180_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(program, async (source) => {
        run++;
        const real = join(scratch, `run-${run}`);
        mkdirSync(real, { recursive: true });
        writeFileSync(join(real, "program.js"), source);
        const expected = spawnSync(process.execPath, ["program.js"], { cwd: real, encoding: "utf8" });
        const folder = `/workspace/run-${run}`;
        await runtime.fs.mkdir(folder, { recursive: true });
        await runtime.fs.writeFile(`${folder}/program.js`, source);
        const actual = await runtime.exec("node program.js", { cwd: folder });
        expect(actual.stdout).toBe(expected.stdout);
        expect(actual.exitCode).toBe(expected.status);
        expect(await readRuntimeTree(runtime.fs, folder)).toEqual(readTree(real));
      }),
      { numRuns: 25 },
    );
  });
});
