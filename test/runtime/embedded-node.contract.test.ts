/**
 * The embedded shell's `node`, promises with no real-node twin: the sample project's tests run with
 * `node --test` and report Node's spec summary; TypeScript runs with stack lines at the source's lines; a
 * module Node has and this runtime lacks, or a bad option, says so; `runNodeProgram` (what npm will call)
 * runs a program given argv, cwd, env and stdin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { runNodeProgram } from "../../src/runtime/embedded/node/command.js";
import { nodeRuntimeScript } from "../../src/runtime/embedded/node/runtime-bundle.node.js";
import { createNodeSandbox } from "../../src/runtime/embedded/sandbox/node-sandbox.js";
import { SAMPLE_FILES } from "../../src/workspace/sample-project.js";

let runtime: EmbeddedRuntime;

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  for (const [path, text] of Object.entries(SAMPLE_FILES)) {
    const full = `/workspace/sample/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
});

afterAll(async () => runtime.dispose());

const summary = (stdout: string) =>
  Object.fromEntries(
    [...stdout.matchAll(/^ℹ (tests|suites|pass|fail|skipped|todo) (\d+)$/gm)].map((match) => [match[1], Number(match[2])]),
  );

describe("node --test on the sample project", () => {
  it("runs src/greet.test.ts: three passing tests, exit 0", { timeout: 60_000 }, async () => {
    const result = await runtime.exec("cd sample && node --test");
    expect(result.exitCode).toBe(0);
    expect(summary(result.stdout)).toEqual({ tests: 3, suites: 0, pass: 3, fail: 0, skipped: 0, todo: 0 });
    expect(result.stdout).toContain('✔ greet("Ada") says Hello, Ada!');
  });

  it("a broken greeting fails two of them, names them with the source line, and exits 1", { timeout: 60_000 }, async () => {
    const before = await runtime.fs.readFile("/workspace/sample/src/greet.ts");
    await runtime.exec("cd sample && sed -i 's/Hello, /Hi, /' src/greet.ts");
    try {
      const result = await runtime.exec("cd sample && node --test src/greet.test.ts");
      expect(result.exitCode).toBe(1);
      expect(summary(result.stdout)).toMatchObject({ tests: 3, pass: 1, fail: 2 });
      expect(result.stdout).toContain("✖ failing tests:");
      // As Node names them: the test's place relative to the working directory, and the assertion's
      // line and column in the TypeScript as written (an ES module, so a file URL).
      const lines = SAMPLE_FILES["src/greet.test.ts"]!.split("\n");
      const testLine = lines.findIndex((line) => line.trimStart().startsWith("test(")) + 1;
      const testColumn = lines[testLine - 1]!.indexOf("test(") + 1;
      expect(result.stdout).toContain(`test at src/greet.test.ts:${testLine}:${testColumn}`);
      const assertLine = lines.findIndex((line) => line.includes("assert.equal")) + 1;
      const assertColumn = lines[assertLine - 1]!.indexOf("equal") + 1;
      expect(result.stdout).toContain(`(file:///workspace/sample/src/greet.test.ts:${assertLine}:${assertColumn})`);
    } finally {
      await runtime.fs.writeFile("/workspace/sample/src/greet.ts", before);
    }
  });

  it("reports describe/it, hooks, skip and todo as Node's spec reporter counts them", { timeout: 60_000 }, async () => {
    await runtime.fs.writeFile(
      "/workspace/suite.test.mjs",
      `import { describe, it, beforeEach } from "node:test";
import assert from "node:assert";
let runs = 0;
describe("outer", () => {
  beforeEach(() => runs++);
  it("passes", () => assert.equal(runs, 1));
  it("fails", () => assert.equal(1, 2));
  it("is skipped", { skip: true }, () => {});
  it.todo("is to do");
  describe("inner", () => { it("async", async () => { await new Promise((r) => setTimeout(r, 5)); }); });
});`,
    );
    const result = await runtime.exec("node --test suite.test.mjs");
    expect(result.exitCode).toBe(1);
    // What node 20's own --test prints for this file (spec reporter): 5 tests, 2 suites, 2 pass, 1 fail, 1 skip, 1 todo.
    expect(summary(result.stdout)).toEqual({ tests: 5, suites: 2, pass: 2, fail: 1, skipped: 1, todo: 1 });
  });
});

describe("node's other promises", () => {
  it("runs TypeScript with types stripped, stack lines at the source's line", async () => {
    await runtime.fs.writeFile(
      "/workspace/typed.ts",
      `interface Point { x: number; y: number }
type Pair = [Point, Point];
const pair: Pair = [{ x: 1, y: 2 }, { x: 3, y: 4 }];
function fail(message: string): never {
  throw new Error(message);
}
console.log(pair.map((p: Point) => p.x + p.y).join(","));
fail("at line five");
`,
    );
    const result = await runtime.exec("node typed.ts");
    expect(result.stdout).toBe("3,7\n");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("Error: at line five");
    expect(result.stderr).toMatch(/\/workspace\/typed\.ts:5:\d+/);
    expect(result.stderr).toMatch(/\/workspace\/typed\.ts:8:\d+/);
  });

  it("names a core module it lacks, a file that is not there, and a bad option", async () => {
    const missing = await runtime.exec("node -e 'require(\"worker_threads\")'");
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("node:worker_threads is not available in the workbench's embedded node");
    const noFile = await runtime.exec("node nothere.js");
    expect(noFile.exitCode).toBe(1);
    expect(noFile.stderr).toContain("Cannot find module '/workspace/nothere.js'");
    const option = await runtime.exec("node --frobnicate x.js");
    expect(option.exitCode).toBe(9);
    expect(option.stderr).toBe("node: bad option: --frobnicate\n");
    expect((await runtime.exec("node --version")).stdout).toMatch(/^v22\.\d+\.\d+\n$/);
  });

  it("runNodeProgram runs a program for another command (argv, cwd, env, stdin) and writes its changes back", async () => {
    await runtime.fs.mkdir("/workspace/pkg/bin", { recursive: true });
    await runtime.fs.writeFile(
      "/workspace/pkg/bin/tool.js",
      `const fs = require("fs");
const input = fs.readFileSync(0, "utf8");
fs.writeFileSync("made-by-tool.txt", process.argv.slice(2).join(" ") + ":" + process.env.npm_lifecycle_event + ":" + input);
process.stdout.write(process.cwd());`,
    );
    const script = await nodeRuntimeScript();
    const outcome = await runNodeProgram(
      { files: runtime.fs, openSandbox: async () => createNodeSandbox(script), roots: ["/workspace", "/tmp"] },
      {
        args: ["bin/tool.js", "--flag", "value"],
        cwd: "/workspace/pkg",
        env: { npm_lifecycle_event: "test" },
        stdin: new TextEncoder().encode("piped"),
      },
    );
    expect(outcome.exitCode).toBe(0);
    expect(new TextDecoder().decode(outcome.stdout)).toBe("/workspace/pkg");
    expect(new TextDecoder().decode(await runtime.fs.readFile("/workspace/pkg/made-by-tool.txt"))).toBe("--flag value:test:piped");
  });
});
