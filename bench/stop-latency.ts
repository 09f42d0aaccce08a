/**
 * How long a stopped command takes to hand control back: a runaway `while true` loop on the embedded
 * runtime (its worker is terminated after a grace period) against `sleep` killed on the node backend.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import type { Runtime } from "../src/runtime/types.js";

async function stopTimes(runtime: Runtime, command: string, runs: number): Promise<{ runs: number; medianMs: number; maxMs: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 150);
    const result = await runtime.exec(command, { signal: controller.signal });
    if (!result.aborted) throw new Error(`${runtime.kind}: ${command} was not aborted`);
    times.push(performance.now() - abortedAt);
  }
  times.sort((a, b) => a - b);
  return { runs, medianMs: Number(times[Math.floor(runs / 2)]!.toFixed(1)), maxMs: Number(times[runs - 1]!.toFixed(1)) };
}

export async function benchStopLatency(runs = 8) {
  const root = await mkdtemp(join(tmpdir(), "workbench-bench-"));
  const node = createNodeRuntime({ root });
  const embedded = await createEmbeddedRuntime({
    workerFactory: nodeShellWorkerFactory,
    limits: { maxLoopIterations: null, maxCommandCount: null },
  });
  try {
    const loop = await stopTimes(embedded, "while true; do :; done", runs);
    const sleep = await stopTimes(embedded, "sleep 30", runs);
    const nodeSleep = await stopTimes(node, "sleep 30 & sleep 30; wait", runs);
    return {
      benchmark: "stop-latency",
      reference: "node backend killing a process group, same run",
      results: {
        embeddedRunawayLoop: loop,
        embeddedSleep: sleep,
        nodeProcessGroup: nodeSleep,
        ratioLoopToNode: Number((loop.medianMs / nodeSleep.medianMs).toFixed(2)),
      },
    };
  } finally {
    await embedded.dispose();
    await rm(root, { recursive: true, force: true });
  }
}
