/**
 * The embedded shell's `node` (the CLI's embedded runtime: a sandbox worker thread) against real node in the
 * same run: a compute-heavy program (JSON round trips of tens of MB, a regex-heavy transform, a numeric loop;
 * the program times its own work, so the ratio is the engine's, apart from start-up), `node -e 1` warm
 * (back to back, and after a pause that lets the spare sandbox start), the first run of a fresh runtime and
 * the runtime script's size, `require` of a 500-module dependency tree, a real third-party suite
 * (minimist's own tests under tape 5 from node_modules, as test/runtime/embedded-node-third-party.test.ts
 * runs them); then `node -e 1` again on the 1,500-file workspace of the page's benchmark (node-page.ts):
 * its first run and warm runs.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { nodeRuntimeScript } from "../src/runtime/embedded/node/runtime-bundle.node.js";
import { packageTree } from "../test/support/package-tree.js";
import { nodeWorkspaceFiles } from "./node-workspace.js";

export const COMPUTE = `const started = performance.now();
const rows = Array.from({ length: 120000 }, (_, i) => ({ id: i, name: "item-" + i, tags: ["a", "b", String(i % 7)], score: i * 1.5 }));
let text = "";
for (let round = 0; round < 3; round++) text = JSON.stringify(JSON.parse(JSON.stringify(rows)));
const json = performance.now();
const transformed = text.replace(/"name":"item-(\\d+)"/g, (_, n) => '"name":"ITEM_' + (n * 2) + '"').replace(/\\d+\\.5/g, "x");
const regex = performance.now();
let sum = 0;
for (let i = 0; i < 30_000_000; i++) sum = (sum + i * i) % 1000003;
const numeric = performance.now();
console.log(JSON.stringify({ megabytes: Math.round(text.length / 1e6), length: transformed.length, sum, jsonMs: json - started, regexMs: regex - json, numericMs: numeric - regex, totalMs: numeric - started }));
`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
};

function writeTree(base: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
}

/** 500 packages, each requiring the next two levels down (a tree with shared leaves, as node_modules is). */
function dependencyTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 500; i++) {
    const deps = [2 * i + 1, 2 * i + 2].filter((n) => n < 500);
    files[`node_modules/dep-${i}/package.json`] = JSON.stringify({ name: `dep-${i}`, main: "lib/index.js" });
    files[`node_modules/dep-${i}/lib/index.js`] = `${deps.map((n) => `require("dep-${n}");`).join("\n")}\nmodule.exports = ${i};\n`;
  }
  files["tree.js"] =
    `const t = performance.now(); require("dep-0"); console.log(JSON.stringify({ modules: Object.keys(require.cache).length, ms: performance.now() - t }));\n`;
  return files;
}

async function copyInto(runtime: EmbeddedRuntime, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await runtime.fs.mkdir(dirname(`/workspace/${path}`), { recursive: true });
    await runtime.fs.writeFile(`/workspace/${path}`, text);
  }
}

function realNode(dir: string, args: string[]): { ms: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`real node failed: ${result.stderr}`);
  return { ms: performance.now() - started, stdout: result.stdout };
}

async function embeddedNode(runtime: EmbeddedRuntime, command: string): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const result = await runtime.exec(command);
  if (result.exitCode !== 0) throw new Error(`embedded node failed: ${result.stderr}`);
  return { ms: performance.now() - started, stdout: result.stdout };
}

export async function benchNodeRun(runs = 7) {
  const dir = mkdtempSync(join(tmpdir(), "workbench-node-run-"));
  const files = { "compute.js": COMPUTE, ...dependencyTree() };
  writeTree(dir, files);
  const script = await nodeRuntimeScript();
  const firstStarted = performance.now();
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  try {
    await copyInto(runtime, files);
    const first = await embeddedNode(runtime, "node -e 1");
    const firstMs = performance.now() - firstStarted;

    const compute = { embedded: [] as number[], real: [] as number[], embeddedWall: [] as number[], realWall: [] as number[] };
    for (let i = 0; i < 3; i++) {
      const ours = await embeddedNode(runtime, "node compute.js");
      const theirs = realNode(dir, ["compute.js"]);
      compute.embedded.push(JSON.parse(ours.stdout).totalMs);
      compute.real.push(JSON.parse(theirs.stdout).totalMs);
      compute.embeddedWall.push(ours.ms);
      compute.realWall.push(theirs.ms);
    }

    const backToBack: number[] = [];
    const afterPause: number[] = [];
    const realEval: number[] = [];
    for (let i = 0; i < runs; i++) {
      backToBack.push((await embeddedNode(runtime, "node -e 1")).ms);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      afterPause.push((await embeddedNode(runtime, "node -e 1")).ms);
      realEval.push(realNode(dir, ["-e", "1"]).ms);
    }

    const tree = { embedded: [] as number[], real: [] as number[] };
    for (let i = 0; i < 3; i++) {
      tree.embedded.push(JSON.parse((await embeddedNode(runtime, "node tree.js")).stdout).ms);
      tree.real.push(JSON.parse(realNode(dir, ["tree.js"]).stdout).ms);
    }

    // The page benchmark's workspace (about 1,500 files), written in one go as an upload is.
    const big = nodeWorkspaceFiles();
    await runtime.writeMany(
      Object.entries(big).map(([path, text]) => ({ path: `/workspace/big/${path}`, data: new TextEncoder().encode(text) })),
    );
    const inBig = async () => {
      const started = performance.now();
      const result = await runtime.exec("node -e 1", { cwd: "/workspace/big/sample-project" });
      if (result.exitCode !== 0) throw new Error(`embedded node failed: ${result.stderr}`);
      return performance.now() - started;
    };
    const bigFirst = await inBig();
    const bigBackToBack: number[] = [];
    const bigAfterPause: number[] = [];
    for (let i = 0; i < runs; i++) {
      bigBackToBack.push(await inBig());
      await new Promise((resolve) => setTimeout(resolve, 1500));
      bigAfterPause.push(await inBig());
    }

    return {
      benchmark: "node-run",
      reference: "real node (this process' binary) on a copy of the same files, same run",
      runtimeScript: { kib: Number((script.length / 1024).toFixed(1)), gzipKiB: Number((gzipSync(script).length / 1024).toFixed(1)) },
      firstRun: {
        ms: Number(firstMs.toFixed(1)),
        nodeEvalMs: Number(first.ms.toFixed(1)),
        note: "a fresh runtime: shell worker, runtime script, sandbox",
      },
      compute: {
        embeddedMs: median(compute.embedded),
        realMs: median(compute.real),
        ratio: Number((median(compute.embedded) / median(compute.real)).toFixed(2)),
        embeddedWallMs: median(compute.embeddedWall),
        realWallMs: median(compute.realWall),
      },
      evalWarm: { backToBackMs: median(backToBack), afterPauseMs: median(afterPause), realNodeMs: median(realEval) },
      evalWarm1500Files: {
        files: Object.keys(big).length + Object.keys(files).length,
        firstAfterWriteMs: Number(bigFirst.toFixed(1)),
        backToBackMs: median(bigBackToBack),
        afterPauseMs: median(bigAfterPause),
        targetMs: 50,
      },
      require500: {
        embeddedMs: median(tree.embedded),
        realMs: median(tree.real),
        ratio: Number((median(tree.embedded) / median(tree.real)).toFixed(2)),
      },
      childExec: await benchChildExec(runtime, dir),
      thirdPartySuite: await benchThirdPartySuite(runtime, dir),
    };
  } finally {
    await runtime.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** minimist's tests under tape (126 packages, some 4,000 files in node_modules): wall time of the whole run, ours and real node's. */
async function benchThirdPartySuite(runtime: EmbeddedRuntime, dir: string) {
  const files = packageTree(process.cwd(), ["minimist", "tape"]);
  for (const [path, data] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  await runtime.writeMany([...files].map(([path, data]) => ({ path: `/workspace/${path}`, data })));
  const args = ["../tape/bin/tape", "test/*.js"];
  const embedded: number[] = [];
  const real: number[] = [];
  for (let i = 0; i < 3; i++) {
    embedded.push((await embeddedNode(runtime, `cd node_modules/minimist && node ${args[0]} '${args[1]}'`)).ms);
    real.push(realNode(join(dir, "node_modules/minimist"), args).ms);
  }
  return {
    files: files.size,
    embeddedMs: median(embedded),
    realMs: median(real),
    ratio: Number((median(embedded) / median(real)).toFixed(2)),
    note: "wall time: includes the snapshot of every workspace file the program starts with",
  };
}

/** A program's child_process round trip: ten `exec("echo")` one after another, timed by the program itself. */
const CHILD_EXEC = `const { exec } = require("child_process");
const started = performance.now();
let left = 10;
const next = () => exec("echo hi", () => (--left === 0 ? console.log(JSON.stringify({ ms: (performance.now() - started) / 10 })) : next()));
next();
`;

async function benchChildExec(runtime: EmbeddedRuntime, dir: string) {
  writeFileSync(join(dir, "child-exec.js"), CHILD_EXEC);
  await runtime.fs.writeFile("/workspace/child-exec.js", CHILD_EXEC);
  const embedded: number[] = [];
  const real: number[] = [];
  for (let i = 0; i < 3; i++) {
    embedded.push(JSON.parse((await embeddedNode(runtime, "node child-exec.js")).stdout).ms);
    real.push(JSON.parse(realNode(dir, ["child-exec.js"]).stdout).ms);
  }
  return {
    perExecMs: median(embedded),
    realPerExecMs: median(real),
    ratio: Number((median(embedded) / median(real)).toFixed(2)),
    note: "each exec writes the program's changes, snapshots the workspace before and after the child, and runs it in the shell",
  };
}
