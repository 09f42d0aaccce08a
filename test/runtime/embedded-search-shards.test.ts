/**
 * A grep in the embedded runtime is split among several search workers by path, and the page merges
 * what they find back into walk order. Split or not, a search must give the same lines in the same
 * order, the same messages once each, and the same counts; each file searched must be read by one
 * worker only;
 * and when one worker dies, the search in progress fails plainly and the next one works.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import type { ShellWorkerFactory } from "../../src/runtime/embedded/shell-pool.js";
import type { SearchQuery } from "../../src/search/index.js";
import { ownsPath } from "../../src/search/shard.js";

const root = "/workspace";
const runtimes: EmbeddedRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
});

async function runtimeWith(searchWorkers: number, workerFactory: ShellWorkerFactory = nodeShellWorkerFactory): Promise<EmbeddedRuntime> {
  const runtime = await createEmbeddedRuntime({ workerFactory, root, searchWorkers });
  runtimes.push(runtime);
  return runtime;
}

/** 400 files in 8 folders; every third matches, one is binary, one folder holds a link loop. */
async function fill(runtime: EmbeddedRuntime): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const dir = `${root}/d${i % 8}`;
    if (i < 8) await runtime.fs.mkdir(dir, { recursive: true });
    const text = i % 3 === 0 ? `head ${i}\nneedle ${i}\ntail\nneedle again ${i}\n` : `nothing here ${i}\n`;
    await runtime.fs.writeFile(`${dir}/f${String(i).padStart(3, "0")}.txt`, text);
  }
  await runtime.fs.writeFile(`${root}/d3/bin.dat`, new Uint8Array([110, 101, 101, 100, 108, 101, 10, 0, 1, 2]));
  await runtime.fs.symlink(".", `${root}/d5/loop`);
}

interface Outcome {
  lines: string[];
  messages: string[];
  stats: { errored: boolean; filesSearched: number };
}

async function grep(runtime: EmbeddedRuntime, pattern: string, extra: Partial<SearchQuery> = {}): Promise<Outcome> {
  const messages: string[] = [];
  const run = runtime.search.search({ root, patterns: [pattern], follow: true, ...extra }, { onMessage: (text) => messages.push(text) });
  const lines: string[] = [];
  for await (const file of run) {
    for (const match of file.matches) lines.push(`${match.displayPath}:${match.lineNumber}:${match.line}`);
    if (file.binary) lines.push(`${file.displayPath}: binary at ${file.binary.offset}`);
  }
  return { lines, messages, stats: run.stats() };
}

describe("a grep split among search workers", () => {
  it("gives one worker's lines, order, messages and counts, with 2, 3 and 4 workers", async () => {
    const one = await runtimeWith(1);
    await fill(one);
    const expected = await grep(one, "needle");
    expect(expected.lines.length).toBeGreaterThan(250);
    expect(expected.messages).toEqual(["File system loop found: ./d5/loop points to an ancestor ./d5"]);
    for (const workers of [2, 3, 4]) {
      const split = await runtimeWith(workers);
      await fill(split);
      // The first search fills the workers' caches; the second answers from them.
      expect(await grep(split, "needle")).toEqual(expected);
      expect(await grep(split, "needle")).toEqual(expected);
      expect(await grep(split, "needle", { globs: ["d2/**", "d7/**"] })).toEqual(await grep(one, "needle", { globs: ["d2/**", "d7/**"] }));
      expect(await grep(split, "zz_nowhere")).toEqual(await grep(one, "zz_nowhere"));
    }
  });

  it("has each file read by one worker only", async () => {
    const runtime = await runtimeWith(3);
    await fill(runtime);
    const reads = new Map<string, number>();
    const fs = runtime.fs as unknown as { readFile: (path: string, ...rest: unknown[]) => Promise<unknown> };
    const original = fs.readFile.bind(runtime.fs);
    fs.readFile = (path, ...rest) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return original(path, ...rest);
    };
    await grep(runtime, "needle");
    // Every worker walks, so each reads the ignore files; the files searched are read once in all.
    const searched = [...reads].filter(([path]) => path.startsWith(`${root}/`));
    expect(searched).toHaveLength(401);
    expect(searched.filter(([, count]) => count !== 1)).toEqual([]);
  });

  it("hands results on while a worker that finds nothing is still walking (it reports its progress)", async () => {
    const runtime = await runtimeWith(2);
    await runtime.fs.mkdir(`${root}/d`, { recursive: true });
    // 300 files fall to worker 0, all matching; 200 fall to worker 1, none matching, and slow to read.
    let mine = 0;
    let theirs = 0;
    for (let i = 0; mine < 300 || theirs < 200; i++) {
      const path = `${root}/d/f${String(i).padStart(5, "0")}.txt`;
      if (ownsPath({ index: 0, count: 2 }, path)) {
        if (mine++ < 300) await runtime.fs.writeFile(path, "needle\n");
      } else if (theirs++ < 200) await runtime.fs.writeFile(path, "nothing\n");
    }
    const fs = runtime.fs as unknown as { readFile: (path: string, ...rest: unknown[]) => Promise<unknown> };
    const original = fs.readFile.bind(runtime.fs);
    let lastSlowRead = 0;
    fs.readFile = async (path, ...rest) => {
      if (path.endsWith(".txt") && !ownsPath({ index: 0, count: 2 }, path)) {
        lastSlowRead = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      return original(path, ...rest);
    };
    let firstResult = 0;
    let results = 0;
    for await (const _ of runtime.search.search({ root, patterns: ["needle"] })) {
      if (results++ === 0) firstResult = performance.now();
    }
    expect(results).toBe(300);
    // Without progress reports, worker 0's results would wait for worker 1 to finish: after its last read.
    expect(firstResult).toBeGreaterThan(0);
    expect(firstResult).toBeLessThan(lastSlowRead);
  });

  it("stops every worker when the reader aborts or breaks off, and searches again afterwards", async () => {
    const runtime = await runtimeWith(3);
    await fill(runtime);
    const controller = new AbortController();
    let seen = 0;
    const attempt = (async () => {
      for await (const _ of runtime.search.search({ root, patterns: ["needle"] }, { signal: controller.signal })) {
        if (++seen === 5) controller.abort();
      }
    })();
    await expect(attempt).rejects.toThrow(/abort/i);
    expect(seen).toBe(5);
    for await (const _ of runtime.search.search({ root, patterns: ["needle"] })) break;
    const again = await grep(runtime, "needle 399");
    expect(again.lines).toEqual(["d7/f399.txt:2:needle 399"]);
  });

  it("fails the search in progress when one worker dies, and starts them all afresh for the next", async () => {
    const crashes: Array<(message: string) => void> = [];
    let started = 0;
    const factory: ShellWorkerFactory = async (entry) => {
      const worker = await nodeShellWorkerFactory(entry);
      if (entry !== "search") return worker;
      started++;
      return {
        ...worker,
        onCrash: (handler) => {
          worker.onCrash(handler);
          crashes.push(handler);
        },
      };
    };
    const runtime = await runtimeWith(3, factory);
    await fill(runtime);
    expect((await grep(runtime, "needle")).lines.length).toBeGreaterThan(250);
    expect(started).toBe(3);
    const attempt = (async () => {
      let seen = 0;
      for await (const _ of runtime.search.search({ root, patterns: ["needle"] })) {
        // One of the three reports its death (as the worker factory does on an error or an exit).
        if (++seen === 3) crashes[1]!("out of memory");
      }
    })();
    await expect(attempt).rejects.toThrow("the search worker stopped (out of memory); run the search again");
    const after = await grep(runtime, "needle 399");
    expect(after.lines).toEqual(["d7/f399.txt:2:needle 399"]);
    expect(started).toBe(6);
  });
});
