/**
 * How long the `workbench` command takes to start, as a person's shell runs it: `--help`, and `tool bash`
 * running `echo hi` on a small folder, each against `node -e 1` measured in the same run (the ratio is the
 * figure that holds across machines and loads). The same two commands run from the TypeScript sources
 * through tsx (what every start did before the CLI was bundled) give the before figure. The runs are
 * interleaved, so a change in the machine's load touches every command alike; medians are reported.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/workbench.mjs");
const FROM_SOURCES = ["--import", join(ROOT, "src/cli/register.mjs"), join(ROOT, "src/cli/bin.ts")];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
};

/** Milliseconds from spawn to exit; a command that fails spoils the benchmark, so it throws. */
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

export function benchCliStart(runs = 7) {
  const dir = mkdtempSync(join(tmpdir(), "wb-cli-start-"));
  writeFileSync(join(dir, "a.txt"), "hi\n");
  const bash = ["tool", "bash", "--dir", dir, "--args", JSON.stringify({ command: "echo hi", description: "Says hi" })];
  const commands: Record<string, string[]> = {
    nodeE1: ["-e", "1"],
    help: [BIN, "--help"],
    toolBashEcho: [BIN, ...bash],
    helpFromSources: [...FROM_SOURCES, "--help"],
    toolBashEchoFromSources: [...FROM_SOURCES, ...bash],
  };
  try {
    // Warm-up: the bundle is built if a source changed, and file caches are filled, before anything counts.
    for (const args of Object.values(commands)) timed(args);
    const ms: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
    for (let run = 0; run < runs; run++) for (const [name, args] of Object.entries(commands)) ms[name]!.push(timed(args));
    const m = Object.fromEntries(Object.entries(ms).map(([name, values]) => [name, median(values)]));
    const ratio = (name: string) => Number((m[name]! / m.nodeE1!).toFixed(2));
    return {
      benchmark: "cli-start",
      runs,
      medianMs: m,
      ratioToNodeE1: {
        help: ratio("help"),
        toolBashEcho: ratio("toolBashEcho"),
        helpFromSources: ratio("helpFromSources"),
        toolBashEchoFromSources: ratio("toolBashEchoFromSources"),
      },
      speedupOverSources: {
        help: Number((m.helpFromSources! / m.help!).toFixed(2)),
        toolBashEcho: Number((m.toolBashEchoFromSources! / m.toolBashEcho!).toFixed(2)),
      },
      target: "--help well under 500 ms on an idle machine (node -e 1 there: about 50 ms)",
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node --import ./src/cli/register.mjs bench/cli-start.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(benchCliStart(), null, 2));
