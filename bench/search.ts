/**
 * The search matcher against ripgrep: the same queries (a literal, a regex with alternation, a
 * case-insensitive word, a rare and a common term, a glob-only listing, and the pathological
 * `(a+)+$` over 100 KB of `a`s) over two trees, a generated one (a few thousand files, ~50 MB) and
 * this repository's own node_modules, timed for real `rg`, for `workbench rg` on the node runtime
 * (in process) and on the embedded runtime (files preloaded in memory). Reported as wall times,
 * ratios against rg (median of several runs, warm cache) and peak memory.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { rgMain } from "../src/cli/rg.js";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import type { RuntimeFs } from "../src/runtime/types.js";
import { walk } from "../src/search/index.js";

const RG = "/usr/bin/rg";

interface Query {
  name: string;
  args: string[];
}

const queries: Query[] = [
  { name: "literal", args: ["-nH", "connectionTimeout"] },
  { name: "regex alternation", args: ["-nH", "(get|set|update)[A-Z][a-z]+(Handler|Listener)"] },
  { name: "case-insensitive word", args: ["-nH", "-i", "deprecated"] },
  { name: "rare term", args: ["-nH", "zq_unique_marker_42"] },
  { name: "common term", args: ["-nH", "return"] },
  { name: "glob-only listing", args: ["--files", "-g", "*.ts"] },
  { name: "pathological (a+)+$", args: ["-nH", "(a+)+$"] },
];

/** A deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (
  "const let var function return if else for while import export from default class extends new this " +
  "value result error data item list map set get update handler listener request response options config " +
  "timeout retry count index length buffer stream promise async await true false null undefined string number " +
  "object array deprecated legacy parse format render state props context event target source path file"
).split(" ");

/** Writes the generated tree: `files` files of about 16 KB in nested folders. Returns total bytes. */
export function generateTree(root: string, files: number): number {
  const random = rng(42);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "dist/\n*.min.js\n");
  let total = 0;
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${i % 10}`, `mod${Math.floor(i / 10) % 12}`, `part${Math.floor(i / 120) % 5}`);
    const ext = i % 3 === 0 ? "ts" : i % 3 === 1 ? "js" : "md";
    const lines: string[] = [];
    let size = 0;
    while (size < 16_000) {
      const n = 4 + Math.floor(random() * 10);
      let line = "  ".repeat(Math.floor(random() * 4));
      for (let w = 0; w < n; w++) line += (w ? " " : "") + pick(words);
      const r = random();
      if (r < 0.002) line += " connectionTimeout = 30";
      else if (r < 0.004) line += ` ${pick(["get", "set", "update"])}${pick(["User", "Item", "Config"])}${pick(["Handler", "Listener"])}()`;
      else if (r < 0.006) line += " // DEPRECATED: use the new api";
      if (i === 1234 && lines.length === 7) line += " zq_unique_marker_42";
      lines.push(line);
      size += line.length + 1;
    }
    const text = `${lines.join("\n")}\n`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.${ext}`), text);
    total += text.length;
  }
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(join(root, "dist", "bundle.js"), "return connectionTimeout\n".repeat(1000));
  // The pathological input: 100 KB of `a`s and a `b`.
  writeFileSync(join(root, "aaaa.txt"), `${"a".repeat(100_000)}b\n`);
  total += 100_002;
  return total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** rg's wall time (spawn included) and, through python's getrusage, its peak RSS. */
function timeRg(cwd: string, args: string[], runs: number): { ms: number; lines: number; peakRssMB: number | null } {
  const times: number[] = [];
  let lines = 0;
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), XDG_CONFIG_HOME: tmpdir() };
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(RG, args, { cwd, env, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
    times.push(performance.now() - start);
    lines = result.stdout.toString("utf8").split("\n").length - 1;
  }
  let peakRssMB: number | null = null;
  const probe = spawnSync(
    "python3",
    ["-c", "import resource,subprocess,sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)", RG, ...args],
    { cwd, env },
  );
  if (probe.status === 0) peakRssMB = round(Number(probe.stdout.toString().trim()) / 1024);
  return { ms: round(median(times)), lines, peakRssMB };
}

/**
 * Our matcher through `workbench rg` in this process, on the given file system. Timed runs do not force
 * a garbage collection first (that alone slows the next run down); one more run, after a collection,
 * samples the heap for the peak.
 */
async function timeOurs(fs: RuntimeFs, cwd: string, args: string[], runs: number): Promise<{ ms: number; lines: number; peakHeapMB: number }> {
  const times: number[] = [];
  let lines = 0;
  const once = async () => {
    let count = 0;
    const io = {
      out: (text: string) => {
        for (let k = text.indexOf("\n"); k >= 0; k = text.indexOf("\n", k + 1)) count++;
      },
      err: () => undefined,
    };
    await rgMain(args, io, { fs, cwd });
    return count;
  };
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    lines = await once();
    times.push(performance.now() - start);
  }
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let top = base;
  const timer = setInterval(() => (top = Math.max(top, process.memoryUsage().heapUsed)), 5);
  await once();
  clearInterval(timer);
  top = Math.max(top, process.memoryUsage().heapUsed);
  return { ms: round(median(times)), lines, peakHeapMB: round((top - base) / 2 ** 20) };
}

async function preload(fs: RuntimeFs, from: string, to: string): Promise<void> {
  const source = createNodeRuntime({ root: from }).fs;
  const made = new Set<string>();
  for await (const file of walk(source, { root: from, hidden: true })) {
    const target = join(to, relative(from, file.path));
    const dir = dirname(target);
    if (!made.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await fs.writeFile(target, await source.readFile(file.path));
  }
  await fs.mkdir(join(to, ".git"), { recursive: true });
  await fs.writeFile(join(to, ".gitignore"), await source.readFile(join(from, ".gitignore")));
}

export async function benchSearch(options: { files?: number; runs?: number } = {}) {
  const files = options.files ?? 3000;
  // Timings on a small shared machine are noisy: medians of several runs.
  const runs = options.runs ?? 4;
  const fewer = Math.max(1, runs - 2);
  const started = performance.now();
  const base = mkdtempSync(join(tmpdir(), "wb-bench-search-"));
  const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root: "/workspace" });
  try {
    const tree = join(base, "tree");
    const bytes = generateTree(tree, files);
    await preload(embedded.fs, tree, "/workspace/tree");
    const nodeFs = createNodeRuntime({ root: tree }).fs;
    // Warm the page cache and the lazy tables once.
    timeRg(tree, ["zzzz"], 1);
    await timeOurs(nodeFs, tree, ["zzzz"], 1);
    const generated = [];
    for (const q of queries) {
      const rg = timeRg(tree, q.args, runs);
      const node = await timeOurs(nodeFs, tree, q.args, runs);
      const emb = await timeOurs(embedded.fs, "/workspace/tree", q.args, fewer);
      generated.push({
        query: q.name,
        args: q.args.join(" "),
        rgMs: rg.ms,
        nodeMs: node.ms,
        embeddedMs: emb.ms,
        nodeRatio: round(node.ms / rg.ms, 2),
        embeddedRatio: round(emb.ms / rg.ms, 2),
        lines: { rg: rg.lines, node: node.lines, embedded: emb.lines },
        peakMB: { rgRss: rg.peakRssMB, nodeHeap: node.peakHeapMB, embeddedHeap: emb.peakHeapMB },
      });
    }
    const realTree = join(process.cwd(), "node_modules");
    const real = [];
    if (existsSync(realTree)) {
      const realFs = createNodeRuntime({ root: realTree }).fs;
      timeRg(realTree, ["zzzz"], 1);
      for (const q of queries.filter((x) => x.name !== "pathological (a+)+$")) {
        const rg = timeRg(realTree, q.args, fewer);
        const node = await timeOurs(realFs, realTree, q.args, fewer);
        real.push({
          query: q.name,
          rgMs: rg.ms,
          nodeMs: node.ms,
          nodeRatio: round(node.ms / rg.ms, 2),
          lines: { rg: rg.lines, node: node.lines },
          peakMB: { rgRss: rg.peakRssMB, nodeHeap: node.peakHeapMB },
        });
      }
    }
    return {
      benchmark: "search",
      generatedTree: { files: files + 2, megabytes: round(bytes / 2 ** 20) },
      runsPerQuery: { rgAndNode: runs, embeddedAndNodeModules: fewer },
      generated,
      nodeModules: real,
      totalSeconds: round((performance.now() - started) / 1000),
    };
  } finally {
    await embedded.dispose();
    rmSync(base, { recursive: true, force: true });
  }
}
