/**
 * The edit tool on a 10,000-line file (node runtime), exact and fuzzy matches, against a plain
 * `String.replace` of the same text in the same run (the floor: no I/O, no diff, no matching).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import { ToolSession } from "../src/session/tool-session.js";
import { builtinTools } from "../src/tools/builtins.js";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(2));
}

export async function benchEditLarge(runs = 7) {
  const base = await mkdtemp(join(tmpdir(), "wb-bench-edit-"));
  try {
    const lines = Array.from({ length: 10_000 }, (_, i) => `    const value${i} = compute(${i}, "item-${i}"); // line ${i}`);
    const text = `${lines.join("\n")}\n`;
    const runtime = createNodeRuntime({ root: base });
    const session = await ToolSession.open({ runtime, dataDir: join(base, "data"), home: base, builtins: builtinTools, trusted: false });
    const cases = {
      exact: { oldString: lines[9_000]!, newString: lines[9_000]!.replace("compute", "recompute") },
      fuzzy: { oldString: `${lines[9_000]!.trim()}\n${lines[9_001]!.trim()}`, newString: "const replaced = true;\nconst again = true;" },
    };
    const results: Record<string, { toolMs: number; strategy: unknown }> = {};
    for (const [name, edit] of Object.entries(cases)) {
      const times: number[] = [];
      let strategy: unknown;
      for (let i = 0; i < runs; i++) {
        await writeFile(join(base, "big.ts"), text);
        await session.run("read", { filePath: "big.ts", limit: 1 });
        const start = performance.now();
        const call = await session.run("edit", { filePath: "big.ts", ...edit });
        times.push(performance.now() - start);
        if (call.status !== "completed") throw new Error(`${name}: ${call.error}`);
        strategy = call.metadata.strategy;
      }
      results[name] = { toolMs: median(times), strategy };
    }
    const floor: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      text.replace(cases.exact.oldString, () => cases.exact.newString);
      floor.push(performance.now() - start);
    }
    return { benchmark: "edit-large", lines: 10_000, runs, results, reference: { stringReplaceMs: median(floor) } };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
