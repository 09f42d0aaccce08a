/**
 * python3 on the embedded runtime (the CLI's sandbox: Pyodide in a child process), against real python3 in
 * the same run: the first command (Pyodide loaded from nothing), a warm `python3 -c pass` against the shell's
 * own `true` and against starting real python3, and a compute-heavy script's own time in both (the ratio is
 * the interpreter's speed: the goal is under 2x). `pageBytes` is what the page fetches on its first python3
 * command (Pyodide's five files, from our own origin; the browser caches them after).
 */
import { spawnSync } from "node:child_process";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { nodePythonSandboxFactory } from "../src/runtime/embedded/python/node-sandbox.js";

/** Pure Python work of several kinds: integer loops, a dict, strings, a sort, recursion. */
const HEAVY = `
import time
start = time.perf_counter()
total = 0
for i in range(1_500_000):
    total += i * i % 7
counts = {}
for word in ("alpha beta gamma delta " * 40_000).split():
    counts[word] = counts.get(word, 0) + 1
items = sorted((i * 7919) % 100_003 for i in range(200_000))
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
fib(24)
print(round((time.perf_counter() - start) * 1000, 1))
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
}

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function benchPythonRun(runs = 7) {
  const pyodideDir = dirname(createRequire(import.meta.url).resolve("pyodide"));
  let pageBytes = 0;
  for (const file of ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]) {
    pageBytes += (await stat(join(pyodideDir, file))).size;
  }
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, python: nodePythonSandboxFactory });
  try {
    await runtime.warm();
    let firstOutput = "";
    const firstRunMs = await timed(async () => {
      firstOutput = (await runtime.exec("python3 -c 'print(1)'", { timeoutMs: 180_000 })).stdout;
    });
    if (firstOutput !== "1\n") throw new Error(`python3's first run printed ${JSON.stringify(firstOutput)}`);
    const warm: number[] = [];
    const shellTrue: number[] = [];
    const realStart: number[] = [];
    for (let i = 0; i < runs; i++) {
      warm.push(await timed(() => runtime.exec("python3 -c pass")));
      shellTrue.push(await timed(() => runtime.exec("true")));
      realStart.push(await timed(() => spawnSync("python3", ["-c", "pass"])));
    }
    await runtime.fs.writeFile(`${runtime.root}/heavy.py`, HEAVY);
    const ours: number[] = [];
    const real: number[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await runtime.exec("python3 heavy.py", { cwd: runtime.root, timeoutMs: 120_000 });
      ours.push(Number(result.stdout));
      real.push(Number(spawnSync("python3", ["-c", HEAVY], { encoding: "utf8" }).stdout));
    }
    return {
      benchmark: "python-run",
      reference: "real python3 on this machine, same run",
      results: {
        pageBytes,
        firstRunMs: Number(firstRunMs.toFixed(0)),
        warmPassMs: median(warm),
        shellTrueMs: median(shellTrue),
        realPythonStartMs: median(realStart),
        heavyScriptMs: { embedded: median(ours), real: median(real) },
        ratioHeavyToReal: Number((median(ours) / median(real)).toFixed(2)),
      },
    };
  } finally {
    await runtime.dispose();
  }
}
