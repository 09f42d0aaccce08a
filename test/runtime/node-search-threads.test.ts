/**
 * The node runtime's search threads (src/runtime/node/search-pool.ts, parallel-search.ts) keep the
 * promises of the search in one thread: the same results in the same order with the same messages
 * and counts, whatever share of the files the threads take (property, over random queries on a
 * generated tree of a few thousand files); an abort ends the search at once and the threads stop;
 * a thread that dies fails the search with a clear error instead of leaving it waiting; threads that
 * cannot start leave the search in this thread; dispose ends the threads, and idle threads never
 * keep a process alive.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FileResult, SearchQuery, SearchService } from "../../src/search/index.js";
import { createLocalSearchService } from "../../src/search/index.js";
import { createNodeSearchService } from "../../src/runtime/node/parallel-search.js";
import { createNodeSearchFs } from "../../src/runtime/node/search-fs.js";
import { SearchPool, SearchThreadError } from "../../src/runtime/node/search-pool.js";

const repoRoot = resolve(__dirname, "../..");
const FILES = 2000;

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

const words = ["alpha", "beta", "needle", "Needle", "NEEDLE", "neeedle", "hay", "stack", "return", "const", "naïve", "日本"];

/** Every kind of file the search treats differently, FILES of them in nested folders. */
function generateTree(root: string, seed: number): void {
  const random = rng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const put = (path: string, content: string | Uint8Array) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  const text = (lines: number, eol = "\n") =>
    Array.from({ length: lines }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(words)).join(" ")).join(eol) + eol;
  mkdirSync(join(root, ".git"), { recursive: true });
  put(".gitignore", "ignored/\n*.skip\n!keep.skip\n");
  for (let i = 0; i < FILES; i++) {
    const dir = `d${i % 7}/e${Math.floor(i / 7) % 11}${i % 5 === 0 ? "/f" : ""}`;
    const kind = random();
    let name = `file${i}.txt`;
    let content: string | Uint8Array;
    if (kind < 0.55) content = text(1 + Math.floor(random() * 20));
    else if (kind < 0.62) content = text(10, "\r\n");
    else if (kind < 0.66) content = `\ufeff${text(5)}`;
    else if (kind < 0.68) content = new Uint8Array([0xff, 0xfe, ...Buffer.from(text(3), "utf16le")]);
    else if (kind < 0.72) content = Buffer.concat([Buffer.from(text(3)), Buffer.from([0]), Buffer.from(text(3))]);
    else if (kind < 0.73) content = Buffer.concat([Buffer.from(text(3000)), Buffer.from([0]), Buffer.from(text(3))]);
    else if (kind < 0.77) content = Buffer.concat([Buffer.from("needle "), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(" needle\n")]);
    else if (kind < 0.79) content = "";
    else if (kind < 0.82) content = "needle without a final newline";
    else if (kind < 0.86) {
      name = `.hidden${i}.txt`;
      content = text(4);
    } else if (kind < 0.9) {
      name = `file${i}.${pick(["skip", "md"])}`;
      content = text(4);
    } else if (kind < 0.93) {
      name = `ignored/file${i}.txt`;
      content = text(4);
    } else content = text(100);
    put(`${dir}/${name}`, content);
  }
  put("keep.skip", "needle kept\n");
  put("explicit/one.txt", "needle one\n");
  put("explicit/bin.dat", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0]), Buffer.from("needle\n")]));
  symlinkSync("../d1", join(root, "d0/to-d1"));
  symlinkSync("../explicit/one.txt", join(root, "d0/to-one"));
  symlinkSync("nowhere", join(root, "d0/dangling"));
  symlinkSync("..", join(root, "d2/loop"));
}

interface Outcome {
  results: FileResult[];
  messages: string[];
  errored: boolean;
  filesSearched: number;
}

async function run(service: SearchService, query: SearchQuery): Promise<Outcome> {
  const messages: string[] = [];
  const run = service.search(query, { onMessage: (text, kind) => messages.push(`${kind}: ${text}`) });
  const results: FileResult[] = [];
  for await (const result of run) results.push(result);
  const { errored, filesSearched } = run.stats();
  return { results, messages: messages.sort(), errored, filesSearched };
}

/**
 * `actual` equals `expected`. Deep equality over tens of thousands of matches is slow in expect, so
 * results are compared as JSON, and only a differing file goes through expect (for a readable diff).
 */
function expectSame(actual: Outcome, expected: Outcome, label: object): void {
  expect({
    ...label,
    messages: actual.messages,
    errored: actual.errored,
    filesSearched: actual.filesSearched,
    files: actual.results.length,
  }).toEqual({
    ...label,
    messages: expected.messages,
    errored: expected.errored,
    filesSearched: expected.filesSearched,
    files: expected.results.length,
  });
  for (let k = 0; k < expected.results.length; k++) {
    if (JSON.stringify(actual.results[k]) !== JSON.stringify(expected.results[k]))
      expect({ ...label, k, result: actual.results[k] }).toEqual({ ...label, k, result: expected.results[k] });
  }
}

let root = "";
let socketServer: Server | undefined;
const fs = createNodeSearchFs();
const local = createLocalSearchService(fs);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "node-search-threads-"));
  generateTree(root, 7);
  // A socket among the files: a walk skips it (as rg does), but one that lists it as a file (see the
  // test below) fails to open it, a read error to report.
  socketServer = createServer();
  await new Promise<void>((done) => socketServer!.listen(join(root, "d3", "socket.txt"), done));
});
afterAll(async () => {
  await new Promise((done) => socketServer?.close(done));
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("search threads: the same results as one thread (property)", () => {
  let pool: SearchPool;
  beforeAll(async () => {
    pool = new SearchPool({ threads: 2 });
    expect(await pool.ready()).toBe(true);
  });
  afterAll(() => pool.dispose());

  const patterns = [
    "needle",
    "ne+dle|NEEDLE",
    "\\bneedle\\b",
    "(?i)needle",
    "^needle",
    "edle$",
    "na.ve|日本",
    "zzz_not_there",
    "[a-z]+ [a-z]+",
  ];
  const random = rng(2024);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const queries: Array<Omit<SearchQuery, "root">> = [
    { patterns: ["needle"] },
    { patterns: ["needle"], hidden: true, follow: true },
    { patterns: ["needle"], paths: ["explicit/one.txt", "explicit/bin.dat"] },
    { patterns: ["needle"], paths: ["explicit", "d1", "keep.skip"] },
    ...Array.from({ length: 7 }, () => ({
      patterns: [pick(patterns), ...(random() < 0.2 ? [pick(patterns)] : [])],
      caseInsensitive: random() < 0.3,
      hidden: random() < 0.3,
      follow: random() < 0.3,
      positions: random() < 0.5,
      ...(random() < 0.3 ? { globs: [pick(["*.txt", "!d1/**", "*.md", "!*.txt"])] } : {}),
    })),
  ];

  for (const [k, query] of queries.entries()) {
    it(`query ${k}: ${JSON.stringify(query)}`, async () => {
      const full = { root, ...query };
      const expected = await run(local, full);
      expect(expected.filesSearched).toBeGreaterThan(0);
      for (const handOffAfter of [0, 1 + Math.floor(random() * 300)]) {
        const read = pool.filesRead;
        const threaded = await run(createNodeSearchService(fs, pool, 2, { handOffAfter }), full);
        expectSame(threaded, expected, { handOffAfter });
        // The threads took the files past the first handOffAfter (one of those may be the unreadable one).
        const byThreads = pool.filesRead - read;
        expect(byThreads).toBeLessThanOrEqual(Math.max(0, expected.filesSearched - handOffAfter));
        expect(byThreads).toBeGreaterThanOrEqual(expected.filesSearched - handOffAfter - 1);
      }
    });
  }

  it("reports a file it cannot read, in its place, as one thread does", async () => {
    // The walk is told the socket is a file (as if it were swapped in after the listing): the read
    // must then fail at open, in this thread and in the search threads alike.
    const stale = {
      ...fs,
      readdir: async (path: string) =>
        (await fs.readdir(path)).map((entry) => (entry.type === "socket" ? { ...entry, type: "file" as const } : entry)),
    };
    const expected = await run(createLocalSearchService(stale), { root, patterns: ["needle"] });
    expect(expected.messages.some((m) => m.startsWith("error: d3/socket.txt: ") && m.includes("not a regular file: it is a socket"))).toBe(
      true,
    );
    expect(expected.errored).toBe(true);
    expectSame(await run(createNodeSearchService(stale, pool, 2, { handOffAfter: 0 }), { root, patterns: ["needle"] }), expected, {});
    // Walked as it is, the socket is skipped, as ripgrep skips it: no error at all.
    const walked = await run(local, { root, patterns: ["needle"] });
    expect(walked.messages.filter((m) => m.includes("socket.txt"))).toEqual([]);
  });
});

describe("search threads: abort, crash, dispose", () => {
  it("an abort ends the search at once: no result after it, the threads stop and take the next search", async () => {
    const pool = new SearchPool({ threads: 2 });
    try {
      expect(await pool.ready()).toBe(true);
      const service = createNodeSearchService(fs, pool, 2, { handOffAfter: 0 });
      const controller = new AbortController();
      const read = pool.filesRead;
      let after = 0;
      const iteration = (async () => {
        for await (const _ of service.search({ root, patterns: ["[a-z]"] }, { signal: controller.signal })) {
          if (controller.signal.aborted) after++;
          else controller.abort();
        }
      })();
      await expect(iteration).rejects.toMatchObject({ name: "AbortError" });
      expect(after).toBe(0);
      await vi.waitFor(() => expect(pool.pendingBatches).toBe(0));
      expect(pool.filesRead - read).toBeLessThan(FILES / 2);
      // Nothing of the aborted search is left in the threads' way.
      expectSame(await run(service, { root, patterns: ["needle"] }), await run(local, { root, patterns: ["needle"] }), {});
    } finally {
      await pool.dispose();
    }
  });

  it("a thread that dies fails the search with a clear error, not a hang", async () => {
    const pool = new SearchPool({ threads: 2, entry: new URL("./fixtures/search-thread-crash.mjs", import.meta.url) });
    try {
      expect(await pool.ready()).toBe(true);
      const service = createNodeSearchService(fs, pool, 2, { handOffAfter: 0 });
      const iteration = run(service, { root, patterns: ["needle"] });
      await expect(iteration).rejects.toThrow(SearchThreadError);
      await expect(iteration).rejects.toThrow(/stopped unexpectedly with code 3.*run it again/);
    } finally {
      await pool.dispose();
    }
  });

  it("threads that cannot start leave every search in this thread, with the same results", async () => {
    const pool = new SearchPool({ threads: 2, entry: new URL("./fixtures/search-thread-broken.mjs", import.meta.url) });
    try {
      expect(await pool.ready()).toBe(false);
      expect(pool.liveThreads).toBe(0);
      const service = createNodeSearchService(fs, pool, 2, { handOffAfter: 0 });
      expectSame(await run(service, { root, patterns: ["needle"] }), await run(local, { root, patterns: ["needle"] }), {});
    } finally {
      await pool.dispose();
    }
  });

  it("dispose ends the threads, settles a search still using them, and later searches run here", async () => {
    const pool = new SearchPool({ threads: 2 });
    expect(await pool.ready()).toBe(true);
    expect(pool.liveThreads).toBe(2);
    const service = createNodeSearchService(fs, pool, 2, { handOffAfter: 0 });
    const iteration = (async () => {
      let files = 0;
      for await (const _ of service.search({ root, patterns: ["[a-z]"] })) if (files++ === 0) await pool.dispose();
      return files;
    })();
    // Either every batch had been answered already, or the search fails with the pool's error.
    const settled = await iteration.then(
      () => "done",
      (error: unknown) => (error instanceof SearchThreadError ? "thread error" : `other: ${String(error)}`),
    );
    expect(["done", "thread error"]).toContain(settled);
    expect(pool.liveThreads).toBe(0);
    expectSame(await run(service, { root, patterns: ["needle"] }), await run(local, { root, patterns: ["needle"] }), {});
  });

  it("idle threads do not keep the process alive (a CLI run ends without disposing)", () => {
    const result = spawnSync(
      process.execPath,
      ["--import", join(repoRoot, "src/cli/register.mjs"), join(__dirname, "fixtures/search-without-dispose.ts"), root],
      { cwd: repoRoot, encoding: "utf8", timeout: 30_000 },
    );
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
    expect(Number(result.stdout.trim())).toBeGreaterThan(100);
  }, 40_000);
});
