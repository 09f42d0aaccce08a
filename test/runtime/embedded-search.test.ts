/**
 * The embedded runtime's search runs in a worker beside the files: the page only serves the first
 * reads, later searches answer from the worker's memory, and yet every change (through fs or through
 * the shell) shows in the next search. Aborting or breaking off a search frees the worker.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { GlobError, SearchPatternError, type SearchQuery } from "../../src/search/index.js";

let runtime: EmbeddedRuntime;
const root = "/workspace";

async function grep(pattern: string, extra: Partial<SearchQuery> = {}): Promise<string[]> {
  const lines: string[] = [];
  for await (const file of runtime.search.search({ root, patterns: [pattern], hidden: true, follow: true, ...extra })) {
    for (const match of file.matches) lines.push(`${match.displayPath}:${match.lineNumber}:${match.line}`);
  }
  return lines;
}

/** Counts the reads the page serves (the worker's file requests land on the host's methods). */
function countReads(): { readonly count: number } {
  const fs = runtime.fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const counter = { count: 0 };
  for (const op of ["readFile", "readdir", "stat", "lstat", "realpath"]) {
    const original = fs[op]!.bind(runtime.fs);
    fs[op] = (...args: unknown[]) => {
      counter.count++;
      return original(...args);
    };
  }
  return counter;
}

/** Many files, 100 a folder (ZenFS rewrites a folder's whole listing on every file added to it). */
async function writeMany(count: number, text: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    if (i % 100 === 0) await runtime.fs.mkdir(`${root}/many/${i / 100}`, { recursive: true });
    await runtime.fs.writeFile(`${root}/many/${Math.floor(i / 100)}/${i}.txt`, text);
  }
}

beforeEach(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root });
  for (let i = 0; i < 30; i++) await runtime.fs.writeFile(`${root}/f${String(i).padStart(2, "0")}.txt`, `line ${i}\nneedle ${i}\n`);
});
afterEach(async () => runtime.dispose());

describe("embedded search worker", () => {
  it("reads the files from the page once; the next search reads nothing", async () => {
    const reads = countReads();
    const first = await grep("needle");
    expect(first).toHaveLength(30);
    const afterFirst = reads.count;
    expect(afterFirst).toBeGreaterThanOrEqual(30);
    expect(await grep("needle")).toEqual(first);
    expect(reads.count).toBe(afterFirst);
  });

  it("sees every change, whether made through fs or by a shell command", async () => {
    await grep("needle");
    await runtime.fs.writeFile(`${root}/f00.txt`, "needle changed\n");
    await runtime.fs.rm(`${root}/f01.txt`);
    await runtime.fs.mkdir(`${root}/sub`);
    await runtime.fs.writeFile(`${root}/sub/new.txt`, "needle new\n");
    let lines = await grep("needle");
    expect(lines).toContain("f00.txt:1:needle changed");
    expect(lines.some((l) => l.startsWith("f01.txt"))).toBe(false);
    expect(lines).toContain("sub/new.txt:1:needle new");

    const shell = await runtime.exec(
      "echo 'needle from shell' > f02.txt && mv sub moved && rm f03.txt && mkdir -p deep/er && echo needle deep > deep/er/d.txt",
    );
    expect(shell.exitCode).toBe(0);
    lines = await grep("needle");
    expect(lines).toContain("f02.txt:1:needle from shell");
    expect(lines).toContain("moved/new.txt:1:needle new");
    expect(lines).toContain("deep/er/d.txt:1:needle deep");
    expect(lines.some((l) => l.startsWith("sub/") || l.startsWith("f03.txt"))).toBe(false);
  });

  it("sees changes reached through links, and reports a link loop instead of hanging", async () => {
    await runtime.fs.mkdir(`${root}/real`);
    await runtime.fs.writeFile(`${root}/real/r.txt`, "needle real\n");
    await runtime.fs.symlink("real", `${root}/via`);
    expect(await grep("needle real")).toEqual(["real/r.txt:1:needle real", "via/r.txt:1:needle real"]);
    await runtime.fs.writeFile(`${root}/real/r.txt`, "needle updated\n");
    expect(await grep("needle updated")).toEqual(["real/r.txt:1:needle updated", "via/r.txt:1:needle updated"]);
    await runtime.fs.symlink("loop", `${root}/loop`);
    const messages: string[] = [];
    const run = runtime.search.search({ root, patterns: ["needle updated"], follow: true }, { onMessage: (text) => messages.push(text) });
    let files = 0;
    for await (const _ of run) files++;
    expect(files).toBe(2);
    expect(messages).toEqual(["./loop: Too many levels of symbolic links (os error 40)"]);
    expect(run.stats().errored).toBe(true);
  });

  it("stops on abort, and searches again afterwards", async () => {
    await writeMany(1000, "needle\n".repeat(20));
    const controller = new AbortController();
    let seen = 0;
    const attempt = (async () => {
      for await (const _ of runtime.search.search({ root, patterns: ["needle"] }, { signal: controller.signal })) {
        if (++seen === 5) controller.abort();
      }
    })();
    await expect(attempt).rejects.toThrow();
    expect(seen).toBe(5);
    expect(await grep("line 7")).toEqual(["f07.txt:1:line 7"]);
  });

  it("waits for a slow reader and stops when it breaks off", async () => {
    await writeMany(1000, "needle\n");
    let taken = 0;
    for await (const _ of runtime.search.list({ root })) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (++taken === 10) break;
    }
    expect(taken).toBe(10);
    const listed: string[] = [];
    for await (const file of runtime.search.list({ root, globs: ["f0*.txt"], stat: true })) listed.push(`${file.displayPath}:${file.size}`);
    expect(listed).toHaveLength(10);
    expect(listed[0]).toBe("f00.txt:16");
  });

  it("throws the library's own errors for a bad pattern or glob", async () => {
    await expect(grep("a(?=b)")).rejects.toBeInstanceOf(SearchPatternError);
    await expect(grep("a(")).rejects.toThrow(/regex parse error/);
    await expect(grep("a", { globs: ["a{b"] })).rejects.toBeInstanceOf(GlobError);
    expect(await grep("line 3")).toEqual(["f03.txt:1:line 3"]);
  });
});
