/**
 * The edit tool on a 10,000-line file (node runtime), exact and fuzzy matches, against a plain
 * `String.replace` of the same text in the same run (the floor: no I/O, no diff, no matching). Where the
 * time goes: the matching engine alone (`replace`) and the diff the tool shows and asks with (`fileDiff`)
 * are timed on their own; the rest of a call is the session, the lock, reading, checking and writing.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import { ToolSession } from "../src/session/host/tool-session.js";
import { builtinTools } from "../src/tools/builtins.js";
import { replace } from "../src/tools/edit/index.js";
import { fileDiff } from "../src/tools/files/diff.js";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(2));
}

export async function benchEditLarge(runs = 15) {
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
    const parts: Record<string, { replaceMs: number; diffMs: number }> = {};
    for (const [name, edit] of Object.entries(cases)) {
      const matching: number[] = [];
      const diffing: number[] = [];
      for (let i = 0; i < runs; i++) {
        let start = performance.now();
        const after = replace(text, edit.oldString, edit.newString).content;
        matching.push(performance.now() - start);
        start = performance.now();
        fileDiff("big.ts", "big.ts", text, after);
        diffing.push(performance.now() - start);
      }
      parts[name] = { replaceMs: median(matching), diffMs: median(diffing) };
    }
    const floor: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      text.replace(cases.exact.oldString, () => cases.exact.newString);
      floor.push(performance.now() - start);
    }
    const reference = median(floor);
    const ratio = Object.fromEntries(
      Object.entries(results).map(([name, r]) => [name, reference > 0 ? Math.round(r.toolMs / reference) : null]),
    );
    return {
      benchmark: "edit-large",
      lines: 10_000,
      runs,
      results,
      whereTimeGoes: parts,
      reference: { stringReplaceMs: reference },
      ratioToStringReplace: ratio,
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
