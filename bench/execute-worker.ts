/**
 * What running Code Mode's programs in a worker costs, against the same interpreter on the calling thread
 * in the same run: a program of 50 sequential tool calls (a message round trip each), a busy loop (the
 * walker's own speed), the time from Stop to the call's end for a tight loop, and the time a worker takes
 * to be ready, both from the TypeScript sources (tests, `npm run bench`) and from the CLI's bundle.
 */
import { Interpreter, parseProgram } from "../src/tools/execute/interpreter.js";
import { DEFAULT_LIMITS, type ExecuteLimits } from "../src/tools/execute/limits.js";
import { startNodeProgramThread } from "../src/tools/execute/node-program-thread.js";
import type { StartProgramThread } from "../src/tools/execute/program-thread.js";
import { runProgramInWorker } from "../src/tools/execute/run-in-worker.js";
import { startProgramThread } from "../src/tools/execute/start-program-thread.js";
// @ts-expect-error: plain JavaScript run by node, with no types of its own.
import { cliBundle } from "../scripts/cli-bundle.mjs";

const LIMITS: ExecuteLimits = { ...DEFAULT_LIMITS, maxSteps: Number.MAX_SAFE_INTEGER, maxToolCalls: 1_000 };
const CALLS = `let total = 0; for (let i = 0; i < 50; i++) total += (await tools.probe({ i })).length; return total;`;
const LOOP = `let n = 0; for (let i = 0; i < 200000; i++) n += i % 7; return n;`;
const answer = async () => ({ ok: true as const, output: "ok" });

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
}

async function inThread(code: string): Promise<number> {
  const started = performance.now();
  const interpreter = new Interpreter({
    limits: LIMITS,
    signal: new AbortController().signal,
    tools: ["probe"],
    refused: new Map(),
    callTool: answer,
  });
  await interpreter.run(parseProgram(code, LIMITS));
  return performance.now() - started;
}

/** The whole run in a worker, and the part after its worker was ready. */
async function inWorker(code: string, start: StartProgramThread): Promise<{ total: number; afterReady: number }> {
  let readyAt = 0;
  const watched: StartProgramThread = async () => {
    const thread = await start();
    thread.onMessage((message) => {
      if ((message as { kind?: string }).kind === "ready") readyAt = performance.now();
    });
    return thread;
  };
  const started = performance.now();
  const outcome = await runProgramInWorker({
    code,
    limits: LIMITS,
    tools: ["probe"],
    refused: new Map(),
    signal: new AbortController().signal,
    start: watched,
    callTool: answer,
  });
  if (!outcome.ok) throw new Error(`the program failed: ${outcome.reason.message}`);
  const ended = performance.now();
  return { total: ended - started, afterReady: ended - readyAt };
}

async function stopLatency(start: StartProgramThread): Promise<number> {
  const controller = new AbortController();
  let stoppedAt = 0;
  const watched: StartProgramThread = async () => {
    const thread = await start();
    thread.onMessage((message) => {
      if ((message as { kind?: string }).kind !== "ready") return;
      setTimeout(() => {
        stoppedAt = performance.now();
        controller.abort();
      }, 150);
    });
    return thread;
  };
  const outcome = await runProgramInWorker({
    code: "while (true) {}",
    limits: LIMITS,
    tools: [],
    refused: new Map(),
    signal: controller.signal,
    start: watched,
    callTool: answer,
  });
  if (outcome.ok) throw new Error("the loop was not stopped");
  return performance.now() - stoppedAt;
}

export async function benchExecuteWorker(runs = 7) {
  const bundleUrl = await cliBundle();
  const fromBundle: StartProgramThread = () => startNodeProgramThread(new URL("./execute-worker.js", bundleUrl));
  const measure = async (run: () => Promise<number>) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await run());
    return median(times);
  };
  const calls = {
    inThreadMs: await measure(() => inThread(CALLS)),
    workerAfterReadyMs: await measure(async () => (await inWorker(CALLS, fromBundle)).afterReady),
  };
  const loop = {
    inThreadMs: await measure(() => inThread(LOOP)),
    workerAfterReadyMs: await measure(async () => (await inWorker(LOOP, fromBundle)).afterReady),
  };
  const ready = {
    bundleMs: await measure(async () => {
      const run = await inWorker("return 1;", fromBundle);
      return run.total - run.afterReady;
    }),
    sourcesMs: await measure(async () => {
      const run = await inWorker("return 1;", startProgramThread);
      return run.total - run.afterReady;
    }),
  };
  return {
    benchmark: "execute-worker",
    reference: "the same interpreter on the calling thread, same run",
    results: {
      fiftyToolCalls: { ...calls, ratio: Number((calls.workerAfterReadyMs / calls.inThreadMs).toFixed(2)) },
      busyLoop200kTurns: { ...loop, ratio: Number((loop.workerAfterReadyMs / loop.inThreadMs).toFixed(2)) },
      stopToEndMs: await measure(() => stopLatency(fromBundle)),
      workerReady: ready,
    },
  };
}
