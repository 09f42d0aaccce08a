/**
 * Checkpoints (issue 31), on the embedded runtime with its files in memory:
 * - the cost of the checkpoint after a tool call that changed one file of a 3,000-file workspace (goal: under
 *   5 ms), against the reference of the write itself, timed in the same run;
 * - storage growth for 100 steps that each change one line of a 1 MB file (goal: proportional to the
 *   changes), against a whole copy per step;
 * - the time to undo those 100 steps at once, against writing the file once.
 */
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { Checkpoints } from "../src/workspace/checkpoints/checkpoints.js";
import { MemoryCheckpointStorage } from "../src/workspace/checkpoints/storage.js";
import { round } from "./ui-stream.js";

const FILES = 3000;
const SAMPLES = 60;
const STEPS = 100;

function percentile(values: number[], at: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))]!;
}

export async function benchCheckpoint() {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  try {
    const root = runtime.root;
    const encoder = new TextEncoder();
    await runtime.writeMany(
      Array.from({ length: FILES }, (_, i) => ({
        path: `${root}/src/d${i % 30}/f${i}.ts`,
        data: encoder.encode(`export const value${i} = ${i};\n${"// a line of a small source file\n".repeat(20)}`),
      })),
    );
    const storage = new MemoryCheckpointStorage();
    const openStart = performance.now();
    const checkpoints = await Checkpoints.open({ fs: runtime.fs, root, storage });
    const baselineMs = performance.now() - openStart;
    checkpoints.attach(runtime);

    const writeMs: number[] = [];
    const checkpointMs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const path = `${root}/src/d${i % 30}/f${i}.ts`;
      const started = performance.now();
      await runtime.fs.writeFile(path, `export const value${i} = ${-i};\n`);
      const written = performance.now();
      const checkpoint = await checkpoints.record({ kind: "call", sessionID: "bench", callID: `call${i}` });
      checkpointMs.push(performance.now() - written);
      writeMs.push(written - started);
      if (checkpoint?.changes.length !== 1) throw new Error(`a call that changed one file recorded ${checkpoint?.changes.length} changes`);
    }

    // 100 steps, each one line of a 1 MB file.
    const lines = Array.from({ length: 16_000 }, (_, i) => `line ${i.toString().padStart(5, "0")} ${"x".repeat(54)}`);
    const big = `${root}/big.txt`;
    await runtime.fs.writeFile(big, lines.join("\n"));
    const first = await checkpoints.record({ kind: "call", sessionID: "bench", callID: "big0" });
    const fileBytes = encoder.encode(lines.join("\n")).byteLength;
    const storedBefore = storage.blobBytes();
    let changedBytes = 0;
    for (let step = 1; step <= STEPS; step++) {
      const at = (step * 157) % lines.length;
      lines[at] = `line ${at} edited in step ${step}`;
      changedBytes += lines[at]!.length;
      await runtime.fs.writeFile(big, lines.join("\n"));
      await checkpoints.record({ kind: "call", sessionID: "bench", callID: `big${step}` });
    }
    const growth = storage.blobBytes() - storedBefore;

    const undoStart = performance.now();
    await checkpoints.restore(first!.seq, { confirm: true });
    const undoMs = performance.now() - undoStart;
    const writeOnceStart = performance.now();
    await runtime.fs.writeFile(`${root}/copy.txt`, await runtime.fs.readFile(big));
    const writeOnceMs = performance.now() - writeOnceStart;

    const median = percentile(checkpointMs, 0.5);
    const writeMedian = percentile(writeMs, 0.5);
    return {
      benchmark: "checkpoint",
      files: FILES,
      baselineMs: round(baselineMs),
      perCall: {
        medianMs: round(median),
        p95Ms: round(percentile(checkpointMs, 0.95)),
        goalMs: 5,
        reference: { writeMedianMs: round(writeMedian) },
        ratioToWrite: round(median / writeMedian),
      },
      storage: {
        fileBytes,
        steps: STEPS,
        changedBytes,
        growthBytes: growth,
        wholeCopiesBytes: fileBytes * STEPS,
        ratioToWholeCopies: Number((growth / (fileBytes * STEPS)).toFixed(4)),
      },
      undo: {
        steps: STEPS,
        ms: round(undoMs),
        reference: { writeFileOnceMs: round(writeOnceMs) },
        ratioToWriteOnce: round(undoMs / writeOnceMs),
      },
    };
  } finally {
    await runtime.dispose();
  }
}
