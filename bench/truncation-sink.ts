/**
 * Memory and throughput of the streaming truncation sink on the node runtime: 500 MB of numbered lines in
 * 8 KiB chunks go through it to a real file, while rss and heapUsed are sampled every few ms and at every
 * batch flush. The reference, measured in the same run, is the naive way (concatenate the whole output
 * into one string before truncating, as a whole-text truncation must), on a 10x smaller sample.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import { OutputStore, TruncationSink, WRITE_BATCH_BYTES, type TruncationDirection } from "../src/tools/truncation/index.js";

const MB = 1024 * 1024;
const CHUNK_BYTES = 8 * 1024;
const LINE_BYTES = 64; // 128 lines per chunk, so every chunk is exactly 8 KiB of ASCII

/** A full GC before each baseline, so the deltas measure the workload and not leftovers. */
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

class MemorySampler {
  private readonly baseline = process.memoryUsage();
  peakRss = 0;
  peakHeapUsed = 0;
  samples = 0;
  private readonly timer = setInterval(() => this.sample(), 2);

  sample(): void {
    const { rss, heapUsed } = process.memoryUsage();
    this.samples++;
    this.peakRss = Math.max(this.peakRss, rss - this.baseline.rss);
    this.peakHeapUsed = Math.max(this.peakHeapUsed, heapUsed - this.baseline.heapUsed);
  }

  stop(): { peakRssDeltaMB: number; peakHeapUsedDeltaMB: number; samples: number } {
    clearInterval(this.timer);
    this.sample();
    const mb = (bytes: number) => Number((bytes / MB).toFixed(2));
    return { peakRssDeltaMB: mb(this.peakRss), peakHeapUsedDeltaMB: mb(this.peakHeapUsed), samples: this.samples };
  }
}

/** Chunk after chunk of "line 0000000001 xxxx...\n", numbered across the whole output. */
function* numberedChunks(totalBytes: number): Generator<string> {
  const filler = "x".repeat(LINE_BYTES - "line 0000000000 ".length - 1);
  let line = 0;
  for (let produced = 0; produced < totalBytes; produced += CHUNK_BYTES) {
    const lines: string[] = [];
    for (let i = 0; i < CHUNK_BYTES / LINE_BYTES; i++) lines.push(`line ${String(++line).padStart(10, "0")} ${filler}\n`);
    // join() gives a flat string, like the chunks a process's output decoder hands over.
    yield lines.join("");
  }
}

async function throughSink(root: string, totalBytes: number, direction: TruncationDirection, gc: () => void) {
  const runtime = createNodeRuntime({ root });
  const store = new OutputStore(runtime, { dataDir: `${root}/data` });
  gc();
  const memory = new MemorySampler();
  const started = performance.now();
  const sink = new TruncationSink(store, { direction }, { taskAvailable: false });
  let pushed = 0;
  for (const chunk of numberedChunks(totalBytes)) {
    await sink.write(chunk);
    pushed += chunk.length;
    if (pushed % WRITE_BATCH_BYTES === 0) memory.sample(); // a batch is full: it goes to the runtime now
  }
  const result = await sink.finish();
  const seconds = (performance.now() - started) / 1000;
  const peaks = memory.stop();
  if (!result.truncated) throw new Error(`a ${totalBytes / MB} MB output must be truncated`);
  const saved = await runtime.fs.stat(result.outputPath);
  if (saved.size !== pushed) throw new Error(`saved ${saved.size} bytes, pushed ${pushed}`);
  await runtime.fs.rm(result.outputPath);
  return {
    direction,
    totalBytes: pushed,
    savedFileBytes: saved.size,
    lines: sink.lines,
    previewChars: result.content.length,
    seconds: Number(seconds.toFixed(2)),
    mbPerSecond: Number((pushed / MB / seconds).toFixed(1)),
    ...peaks,
  };
}

/** The reference: the same chunks concatenated into one string (then flattened, as split() would). */
function naiveConcatenation(totalBytes: number, gc: () => void) {
  gc();
  const memory = new MemorySampler();
  let whole = "";
  let pushed = 0;
  for (const chunk of numberedChunks(totalBytes)) {
    whole += chunk;
    pushed += chunk.length;
    if (pushed % WRITE_BATCH_BYTES === 0) memory.sample();
  }
  const lastNewline = whole.lastIndexOf("\n"); // forces the rope into one flat string, still held in `whole`
  memory.sample();
  const peaks = memory.stop();
  if (lastNewline !== whole.length - 1) throw new Error("unexpected sample");
  return { totalBytes: pushed, ...peaks };
}

export async function benchTruncationSink(totalBytes = 500 * MB, naiveBytes = 50 * MB, tailBytes = 500 * MB) {
  const gc = collector();
  const root = await mkdtemp(join(tmpdir(), "workbench-bench-"));
  try {
    const head = await throughSink(root, totalBytes, "head", gc);
    const tail = await throughSink(root, tailBytes, "tail", gc);
    const naive = naiveConcatenation(naiveBytes, gc);
    return {
      benchmark: "truncation-sink",
      reference: `naive concatenation of a ${naiveBytes / MB} MB sample into one string, same run`,
      results: {
        head,
        tail,
        naive,
        // How much more heap the naive way needs for 10x less output (higher is better for the sink).
        ratioNaiveSampleHeapToSinkHeap: Number((naive.peakHeapUsedDeltaMB / head.peakHeapUsedDeltaMB).toFixed(1)),
        ratioNaiveSampleRssToSinkRss: Number((naive.peakRssDeltaMB / head.peakRssDeltaMB).toFixed(1)),
      },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
