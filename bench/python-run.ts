/**
 * python3 on the embedded runtime (the CLI's sandbox: Pyodide in a child process), against real python3 in
 * the same run: the first command (Pyodide loaded from nothing), a warm `python3 -c pass` against the shell's
 * own `true` and against starting real python3, and a compute-heavy script's own time in both (the ratio is
 * the interpreter's speed: the goal is under 2x). `pageBytes` is the size of Pyodide's five files on disk.
 *
 * `page` is the same in Chromium on the built page (a fresh in-memory workspace, typed into the terminal as a
 * person would): the bytes the browser fetched for the first `python3 -c 'print(1)'` (every response after
 * Enter, headers and bodies as sent), the ms from Enter to the line `1` on the screen and to the prompt
 * coming back, then warm `python3 -c pass` and the terminal's own `true` from Enter to the prompt, against
 * real CPython started for `print(1)` and for `pass` on this machine in the same run.
 */
import { spawnSync } from "node:child_process";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { nodePythonSandboxFactory } from "../src/runtime/embedded/python/node-sandbox.js";
import { LAUNCH_ARGS, NAME_SHIM, serve, stop } from "./ui-stream.js";

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

/**
 * Real CPython itself, not a version manager's shim in front of it (pyenv's is a bash script that costs
 * hundreds of ms per start on a loaded machine).
 */
const REAL_PYTHON = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim() || "python3";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
}

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Types a command line into the terminal and returns the moment Enter went down. */
async function typeCommand(page: Page, line: string): Promise<number> {
  await page.locator(".xterm").click();
  await page.keyboard.type(line);
  const start = Date.now();
  await page.keyboard.press("Enter");
  return start;
}

async function promptBack(page: Page): Promise<void> {
  await page.locator("[data-testid=terminal]:not([data-busy])").waitFor({ timeout: 180_000 });
}

/** Enter to the prompt coming back, in ms. */
async function timedCommand(page: Page, line: string): Promise<number> {
  const start = await typeCommand(page, line);
  await promptBack(page);
  return Date.now() - start;
}

async function inChromium(runs: number) {
  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(NAME_SHIM);
    await page.addInitScript(() => window.localStorage.setItem("workbench-welcome-dismissed", "1"));
    // Every response the browser receives (the page's and its workers'), with what it cost on the wire.
    const fetched: Array<{ url: string; bytes: number; at: number }> = [];
    context.on("requestfinished", (request) => {
      void request.sizes().then(
        (sizes) => fetched.push({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize, at: Date.now() }),
        () => {},
      );
    });
    await page.goto(`${url}/?workspace=bench-python-${Date.now().toString(36)}&memory=1`);
    await page.locator(".xterm-rows").getByText("user@workbench").first().waitFor({ timeout: 60_000 });
    await promptBack(page);
    await page.waitForTimeout(500); // Let the first paint's late requests settle before counting.
    const pyodideBeforeFirstRun = fetched.filter((entry) => entry.url.includes("/pyodide/")).length;

    const start = await typeCommand(page, "python3 -c 'print(1)'");
    // The program's first line on the screen: a row that reads exactly `1`.
    await page.waitForFunction(
      () => [...document.querySelectorAll(".xterm-rows > div")].some((row) => row.textContent?.trim() === "1"),
      undefined,
      { polling: 5, timeout: 180_000 },
    );
    const firstLineMs = Date.now() - start;
    await promptBack(page);
    const firstDoneMs = Date.now() - start;
    await page.waitForTimeout(200);
    const firstRun = fetched.filter((entry) => entry.at >= start);
    const warm: number[] = [];
    const shellTrue: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.keyboard.type("clear");
      await page.keyboard.press("Enter");
      await promptBack(page);
      warm.push(await timedCommand(page, "python3 -c pass"));
      shellTrue.push(await timedCommand(page, "true"));
    }
    const realPrint: number[] = [];
    const realPass: number[] = [];
    for (let i = 0; i < runs; i++) {
      realPrint.push(await timed(() => spawnSync(REAL_PYTHON, ["-c", "print(1)"])));
      realPass.push(await timed(() => spawnSync(REAL_PYTHON, ["-c", "pass"])));
    }
    return {
      pyodideRequestsBeforeFirstRun: pyodideBeforeFirstRun,
      firstRun: {
        bytesFetched: firstRun.reduce((sum, entry) => sum + entry.bytes, 0),
        requests: firstRun.length,
        msToFirstLine: firstLineMs,
        msToPrompt: firstDoneMs,
        realPythonPrintMs: median(realPrint),
        ratioToReal: Number((firstLineMs / median(realPrint)).toFixed(0)),
      },
      warmPassMs: median(warm),
      shellTrueMs: median(shellTrue),
      realPythonPassMs: median(realPass),
      ratioWarmPassToReal: Number((median(warm) / median(realPass)).toFixed(1)),
    };
  } finally {
    await browser.close();
    stop(server);
  }
}

async function inCli(runs: number) {
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
      realStart.push(await timed(() => spawnSync(REAL_PYTHON, ["-c", "pass"])));
    }
    await runtime.fs.writeFile(`${runtime.root}/heavy.py`, HEAVY);
    const ours: number[] = [];
    const real: number[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await runtime.exec("python3 heavy.py", { cwd: runtime.root, timeoutMs: 120_000 });
      ours.push(Number(result.stdout));
      real.push(Number(spawnSync(REAL_PYTHON, ["-c", HEAVY], { encoding: "utf8" }).stdout));
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

export async function benchPythonRun(runs = 7) {
  const cli = await inCli(runs);
  // After the CLI's sandbox is gone, so the two do not share the machine.
  return { ...cli, results: { ...cli.results, page: await inChromium(runs) } };
}
