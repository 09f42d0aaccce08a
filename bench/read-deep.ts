/**
 * The read tool deep into a 200 MB file on the node runtime: time and peak memory of reading a window
 * near the end, against `tail -n` on the same file in the same run, and against reading the whole file
 * into one string (what a naive tool would do).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import { ToolSession } from "../src/session/host/tool-session.js";
import { builtinTools } from "../src/tools/builtins.js";

async function peak<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; peakHeapMB: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let top = base;
  const timer = setInterval(() => (top = Math.max(top, process.memoryUsage().heapUsed)), 2);
  const start = performance.now();
  const value = await run();
  const ms = performance.now() - start;
  clearInterval(timer);
  top = Math.max(top, process.memoryUsage().heapUsed);
  return { value, ms: Number(ms.toFixed(1)), peakHeapMB: Number(((top - base) / 2 ** 20).toFixed(1)) };
}

export async function benchReadDeep(megabytes = 200) {
  const base = await mkdtemp(join(tmpdir(), "wb-bench-read-"));
  const runtime = createNodeRuntime({ root: base });
  try {
    const path = join(base, "big.log");
    const line = `${"y".repeat(99)}\n`;
    const block = line.repeat(10_000);
    for (let i = 0; i < megabytes; i++) await runtime.fs.appendFile(path, block);
    const totalLines = megabytes * 10_000;
    const session = await ToolSession.open({ runtime, dataDir: join(base, "data"), home: base, builtins: builtinTools, trusted: false });
    const tool = await peak(() => session.run("read", { filePath: "big.log", offset: totalLines - 10 }));
    if (tool.value.status !== "completed") throw new Error(tool.value.error);
    const tail = await peak(() => runtime.exec(`tail -n 10 ${path}`));
    const naive = await peak(
      async () =>
        new TextDecoder()
          .decode(await runtime.fs.readFile(path))
          .split("\n")
          .slice(-11).length,
    );
    return {
      benchmark: "read-deep",
      fileMB: megabytes,
      readTool: { ms: tool.ms, peakHeapMB: tool.peakHeapMB },
      reference: { tailMs: tail.ms, wholeFileMs: naive.ms, wholeFilePeakHeapMB: naive.peakHeapMB },
      ratioToTail: Number((tool.ms / tail.ms).toFixed(1)),
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
