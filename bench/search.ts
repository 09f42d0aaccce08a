/**
 * The search matcher against ripgrep: the same queries (a literal, a regex with alternation, a
 * case-insensitive word, a rare and a common term, a glob-only listing, and the pathological
 * `(a+)+$` over 100 KB of `a`s) over two trees, a generated one (20,000 files, ~190 MB) and this
 * repository's own node_modules, timed for real `rg`, for `workbench rg` on the node runtime (in
 * process, with its search threads, and with every search kept to one thread for comparison) and on
 * the embedded runtime (files preloaded in memory, searched by its search workers). Reported as wall times,
 * ratios against rg (median of several runs after an untimed one, warm caches) and peak memory.
 *
 * `node --expose-gc --import ./src/cli/register.mjs bench/search.ts` runs this benchmark alone.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { rgMain } from "../src/cli/rg.js";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import type { Runtime, RuntimeFs } from "../src/runtime/types.js";

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

/** Writes the generated tree: `files` files of about `fileBytes` bytes in nested folders. Returns total bytes. */
export function generateTree(root: string, files: number, fileBytes = 10_000): number {
  const random = rng(42);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "dist/\n*.min.js\n");
  let total = 0;
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${i % 10}`, `mod${Math.floor(i / 10) % 20}`, `part${Math.floor(i / 200) % 10}`);
    const ext = i % 3 === 0 ? "ts" : i % 3 === 1 ? "js" : "md";
    const lines: string[] = [];
    let size = 0;
    while (size < fileBytes) {
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
  // Untimed first, like ours (the files it reads are in the page cache either way).
  spawnSync(RG, args, { cwd, env, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(RG, args, { cwd, env, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
    times.push(performance.now() - start);
    lines = result.stdout.toString("utf8").split("\n").length - 1;
  }
  let peakRssMB: number | null = null;
  const probe = spawnSync(
    "python3",
    [
      "-c",
      "import resource,subprocess,sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
      RG,
      ...args,
    ],
    { cwd, env },
  );
  if (probe.status === 0) peakRssMB = round(Number(probe.stdout.toString().trim()) / 1024);
  return { ms: round(median(times)), lines, peakRssMB };
}

/**
 * Our matcher through `workbench rg` in this process, on the given runtime's search (in process on
 * node; in the embedded runtime's worker, answering from memory). Timed runs do not force a garbage
 * collection first (that alone slows the next run down); one more run, after a collection, samples the
 * page's heap and the process's RSS (every thread, the search worker's included) for the peak.
 */
async function timeOurs(
  runtime: Pick<Runtime, "search" | "fs">,
  cwd: string,
  args: string[],
  runs: number,
): Promise<{ ms: number; lines: number; peakHeapMB: number; peakRssMB: number }> {
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
    await rgMain(args, io, { search: runtime.search, fs: runtime.fs, cwd });
    return count;
  };
  // One untimed run first: the search code this query takes gets compiled (and every search worker's
  // share of it), as it would be after a few searches in a session.
  await once();
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    lines = await once();
    times.push(performance.now() - start);
  }
  globalThis.gc?.();
  const base = process.memoryUsage();
  let topHeap = base.heapUsed;
  let topRss = base.rss;
  const sample = () => {
    const now = process.memoryUsage();
    topHeap = Math.max(topHeap, now.heapUsed);
    topRss = Math.max(topRss, now.rss);
  };
  const timer = setInterval(sample, 5);
  await once();
  clearInterval(timer);
  sample();
  return {
    ms: round(median(times)),
    lines,
    peakHeapMB: round((topHeap - base.heapUsed) / 2 ** 20),
    peakRssMB: round((topRss - base.rss) / 2 ** 20),
  };
}

/** Copies a tree (what the walk finds, hidden files included) into the embedded runtime's files (ZenFS, in memory). */
async function preload(fs: RuntimeFs, from: string, to: string): Promise<void> {
  const source = createNodeRuntime({ root: from });
  const made = new Set<string>();
  for await (const file of source.search.list({ root: from, hidden: true })) {
    const target = join(to, relative(from, file.path));
    const dir = dirname(target);
    if (!made.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await fs.writeFile(target, await source.fs.readFile(file.path));
  }
  // The generated tree is a git repository with a .gitignore (not hidden from the walk above, but the
  // .git folder is); node_modules has neither.
  if (existsSync(join(from, ".git"))) await fs.mkdir(join(to, ".git"), { recursive: true });
  if (existsSync(join(from, ".gitignore"))) await fs.writeFile(join(to, ".gitignore"), await source.fs.readFile(join(from, ".gitignore")));
}

interface Row {
  query: string;
  args: string;
  rgMs: number;
  nodeMs: number;
  nodeRatio: number;
  /** The node runtime with its search threads off. */
  nodeOneThreadMs: number;
  nodeOneThreadRatio: number;
  embeddedMs?: number;
  embeddedRatio?: number;
  lines: { rg: number; node: number; nodeOneThread: number; embedded?: number };
  peakMB: { rgRss: number | null; nodeHeap: number; nodeRss: number; embeddedPageHeap?: number; embeddedRss?: number };
}

async function compare(tree: string, runs: number, embedded?: { runtime: Runtime; cwd: string }): Promise<Row[]> {
  const node = createNodeRuntime({ root: tree });
  const oneThread = createNodeRuntime({ root: tree, searchThreads: 0 });
  // Warm the page cache and the lazy tables once; the embedded run also fills its worker's cache.
  // The node runtime's first big search starts its search threads (and runs here meanwhile): a second
  // one, a moment later, finds them up.
  timeRg(tree, ["zzzz"], 1);
  await timeOurs(node, tree, ["zzzz"], 1);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await timeOurs(node, tree, ["zzzz"], 1);
  await timeOurs(oneThread, tree, ["zzzz"], 1);
  if (embedded) await timeOurs(embedded.runtime, embedded.cwd, ["zzzz"], 1);
  const rows: Row[] = [];
  for (const q of queries) {
    const rg = timeRg(tree, q.args, runs);
    const ours = await timeOurs(node, tree, q.args, runs);
    const one = await timeOurs(oneThread, tree, q.args, runs);
    const emb = embedded ? await timeOurs(embedded.runtime, embedded.cwd, q.args, runs) : undefined;
    rows.push({
      query: q.name,
      args: q.args.join(" "),
      rgMs: rg.ms,
      nodeMs: ours.ms,
      nodeRatio: round(ours.ms / rg.ms, 2),
      nodeOneThreadMs: one.ms,
      nodeOneThreadRatio: round(one.ms / rg.ms, 2),
      ...(emb ? { embeddedMs: emb.ms, embeddedRatio: round(emb.ms / rg.ms, 2) } : {}),
      lines: { rg: rg.lines, node: ours.lines, nodeOneThread: one.lines, ...(emb ? { embedded: emb.lines } : {}) },
      peakMB: {
        rgRss: rg.peakRssMB,
        nodeHeap: ours.peakHeapMB,
        nodeRss: ours.peakRssMB,
        ...(emb ? { embeddedPageHeap: emb.peakHeapMB, embeddedRss: emb.peakRssMB } : {}),
      },
    });
  }
  await node.dispose();
  await oneThread.dispose();
  return rows;
}

export async function benchSearch(options: { files?: number; runs?: number } = {}) {
  const files = options.files ?? 20_000;
  // Timings on a small shared machine are noisy: medians of several runs.
  const runs = options.runs ?? 5;
  const started = performance.now();
  const base = mkdtempSync(join(tmpdir(), "wb-bench-search-"));
  // As many as a browser on this machine would start (navigator.hardwareConcurrency, at most 4).
  const searchWorkers = Math.min(4, Math.max(1, availableParallelism()));
  /** `tree` compared on every runtime, the embedded one holding a copy of it (a fresh one per tree). */
  const compareWithEmbedded = async (tree: string, name: string) => {
    const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root: "/workspace", searchWorkers });
    try {
      await preload(embedded.fs, tree, `/workspace/${name}`);
      return await compare(tree, runs, { runtime: embedded, cwd: `/workspace/${name}` });
    } finally {
      await embedded.dispose();
    }
  };
  try {
    const tree = join(base, "tree");
    const bytes = generateTree(tree, files);
    const generated = await compareWithEmbedded(tree, "tree");
    const realTree = join(process.cwd(), "node_modules");
    const real = existsSync(realTree) ? await compareWithEmbedded(realTree, "node_modules") : [];
    return {
      benchmark: "search",
      note: "rg includes its process start; ours runs in this process (node: walks here, reads and matches on its search threads; node one thread: sync reads here; embedded: its search workers, one per core up to 4, each caching its share of the files after a first search)",
      generatedTree: { files: files + 2, megabytes: round(bytes / 2 ** 20) },
      searchWorkers,
      runsPerQuery: runs,
      generated,
      nodeModules: real,
      totalSeconds: round((performance.now() - started) / 1000),
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchSearch(), null, 2));
}
