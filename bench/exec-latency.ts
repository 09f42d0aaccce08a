/**
 * Exec latency of the embedded runtime (just-bash in a worker_threads worker, files over a message
 * port) against the node backend (bash in a real process) running the same commands in the same run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import type { Runtime } from "../src/runtime/types.js";

export interface LatencyStats {
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
}

async function measure(runtime: Runtime, command: string, runs: number, expect: (out: string) => boolean): Promise<LatencyStats> {
  for (let i = 0; i < 3; i++) await runtime.exec(command); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = await runtime.exec(command);
    times.push(performance.now() - start);
    if (result.exitCode !== 0 || !expect(result.stdout))
      throw new Error(`${runtime.kind}: unexpected result for ${command}: ${JSON.stringify(result).slice(0, 300)}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3));
  return { runs, medianMs: at(0.5), p90Ms: at(0.9), minMs: at(0) };
}

export async function benchExecLatency(runs = 40) {
  const root = await mkdtemp(join(tmpdir(), "workbench-bench-"));
  const node = createNodeRuntime({ root });
  const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  await embedded.warm();
  const cases = [
    { name: "echo hi", command: "echo hi", check: (out: string) => out === "hi\n" },
    {
      name: "1,000-line pipeline",
      command: "seq 1 1000 | sed 's/$/ line/' | grep -v 7 | sort -r | head -n 1000 | wc -l",
      check: (out: string) => out.trim() === "729",
    },
  ];
  const results = [];
  try {
    for (const c of cases) {
      const embeddedStats = await measure(embedded, c.command, runs, c.check);
      const nodeStats = await measure(node, c.command, runs, c.check);
      results.push({
        case: c.name,
        command: c.command,
        embedded: embeddedStats,
        node: nodeStats,
        ratioMedian: Number((embeddedStats.medianMs / nodeStats.medianMs).toFixed(3)),
      });
    }
  } finally {
    await embedded.dispose();
    await rm(root, { recursive: true, force: true });
  }
  return { benchmark: "exec-latency", reference: "node backend (bash child process), same commands, same run", results };
}
