/**
 * Long literal patterns (issue 15, item 10): `workbench rg -n -e PATTERN FILE` against real `rg` on the
 * same files, for literals of 10,000, 40,000 and 100,000 characters (before the fix, 40,000 took
 * 23 s and 100,000 over 100 s; ripgrep 0.14 s), case-sensitive and -i, and one near-miss text
 * (runs of `a` one short of the literal) at 20,000 characters, where verifying each candidate from its
 * start would cost the whole literal. Ours runs in this process on the node runtime (compile included);
 * rg's time includes its process start. Median of 3 runs after an untimed one.
 *
 * `node --import ./src/cli/register.mjs bench/search-long-pattern.ts` runs this benchmark alone.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { rgMain } from "../src/cli/rg.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";

const RG = "/usr/bin/rg";
const RUNS = 3;

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function letters(length: number, seed: number): string {
  let out = "";
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out += String.fromCharCode(97 + (state % 26));
  }
  return out;
}

interface Case {
  name: string;
  pattern: string;
  text: string;
  caseInsensitive: boolean;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const length of [10_000, 40_000, 100_000]) {
    const literal = letters(length, length);
    // The literal, near copies of it, and plain lines: a file of about 1 MB.
    const text =
      [
        literal,
        `x ${literal} y`,
        literal.slice(1),
        literal.slice(0, -1),
        ...Array.from({ length: 200 }, (_, k) => letters(4_000, k + 1)),
      ].join("\n") + "\n";
    for (const caseInsensitive of [false, true]) {
      out.push({ name: `literal ${length}${caseInsensitive ? " -i" : ""}`, pattern: literal, text, caseInsensitive });
    }
  }
  const runs = `${"a".repeat(19_999)}b`;
  out.push({
    name: "near misses 20000",
    pattern: "a".repeat(20_000),
    text: `${runs.repeat(10)}${"a".repeat(20_000)}\n`,
    caseInsensitive: false,
  });
  return out;
}

export async function benchSearchLongPattern() {
  const base = mkdtempSync(join(tmpdir(), "wb-bench-long-pattern-"));
  const runtime = createNodeRuntime({ root: base, searchThreads: 0 });
  try {
    const results = [];
    for (const c of cases()) {
      writeFileSync(join(base, "text.txt"), c.text);
      // One argument of up to 100,000 bytes: within Linux's 128 KiB limit on a single argument.
      const args = [...(c.caseInsensitive ? ["-i"] : []), "-n", "-e", c.pattern, "text.txt"];
      const rgOnce = () => {
        const start = performance.now();
        const result = spawnSync(RG, args, { cwd: base, stdio: ["ignore", "pipe", "ignore"] });
        return { ms: performance.now() - start, out: result.stdout.toString("utf8").trim() };
      };
      const oursOnce = async () => {
        let out = "";
        const start = performance.now();
        await rgMain(args, { out: (t) => (out += t), err: () => undefined }, { search: runtime.search, fs: runtime.fs, cwd: base });
        return { ms: performance.now() - start, out: out.trim() };
      };
      rgOnce();
      await oursOnce();
      const rg = [];
      const ours = [];
      for (let k = 0; k < RUNS; k++) {
        rg.push(rgOnce());
        ours.push(await oursOnce());
      }
      const rgMs = median(rg.map((r) => r.ms));
      const oursMs = median(ours.map((r) => r.ms));
      results.push({
        case: c.name,
        patternLength: c.pattern.length,
        textKB: round(c.text.length / 1024),
        rgMs: round(rgMs),
        oursMs: round(oursMs),
        ratioToRg: round(oursMs / rgMs, 2),
        matchingLines: ours[0]!.out === "" ? 0 : ours[0]!.out.split("\n").length,
        // The same lines printed: the times mean nothing otherwise.
        agree: rg[0]!.out === ours[0]!.out,
      });
    }
    return {
      benchmark: "search-long-pattern",
      note: "workbench rg -n -e PATTERN on the node runtime in this process (compile included) against rg (process start included)",
      runsPerCase: RUNS,
      results,
    };
  } finally {
    await runtime.dispose();
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchSearchLongPattern(), null, 2));
}
