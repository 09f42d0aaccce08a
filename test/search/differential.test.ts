/**
 * The differential suite: every argument set in differential-cases.ts runs through real ripgrep
 * (/usr/bin/rg, Debian's 13.0.0, installed by .ci/run) and through `workbench rg` in the same folder,
 * and the two must agree on the sorted output lines and the exit code (and, where a case asks, the
 * sorted messages). Every case runs our side three times: on the node runtime (in process), on the
 * node runtime's search threads (every file handed to them, however small the search), and on the
 * embedded runtime, whose search is split among three search workers over ZenFS (the fixtures copied in at the same
 * absolute path, so even absolute paths in the output agree). A handful also go through the real
 * `node bin/workbench.mjs rg`.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rgMain } from "../../src/cli/rg.js";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { createNodeSearchService } from "../../src/runtime/node/parallel-search.js";
import { createNodeSearchFs } from "../../src/runtime/node/search-fs.js";
import { SearchPool } from "../../src/runtime/node/search-pool.js";
import type { Runtime } from "../../src/runtime/types.js";
import { copyTreeInto } from "../support/copy-tree.js";
// @ts-expect-error a plain ES module script without type declarations
import { makeSearchFixtures } from "../../scripts/make-search-fixtures.mjs";
import { differentialCases, type DiffCase } from "./differential-cases.js";

const RG = "/usr/bin/rg";
const hasRg = existsSync(RG);
const repoRoot = resolve(__dirname, "../..");
const decoder = new TextDecoder();

let base = "";
let home = "";

/** Output lines, sorted; invalid UTF-8 compared as U+FFFD on both sides. */
function lines(text: string): string[] {
  const list = text.split("\n");
  if (list[list.length - 1] === "") list.pop();
  return list.sort();
}

function argsFor(c: DiffCase): string[] {
  return c.args.map((a) => (a.startsWith("@abs:") ? join(base, a.slice(5)) : a));
}

function runRg(c: DiffCase): { code: number | null; out: string; err: string } {
  const result = spawnSync(RG, argsFor(c), {
    cwd: join(base, c.cwd),
    // No user or global git configuration: ripgrep would read a global gitignore from there.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 28,
  });
  return { code: result.status, out: decoder.decode(result.stdout), err: decoder.decode(result.stderr) };
}

async function runOurs(c: DiffCase, runtime: Runtime): Promise<{ code: number; out: string; err: string }> {
  const cwd = join(base, c.cwd);
  let out = "";
  let err = "";
  const code = await rgMain(
    argsFor(c),
    { out: (t) => (out += t), err: (t) => (err += t) },
    { search: runtime.search, fs: runtime.fs, cwd },
  );
  return { code, out, err };
}

function runBin(c: DiffCase): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(repoRoot, "bin/workbench.mjs"), "rg", ...argsFor(c)],
      { cwd: join(base, c.cwd), encoding: "buffer", maxBuffer: 1 << 28 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        done({ code: typeof code === "number" ? code : 1, out: decoder.decode(stdout), err: decoder.decode(stderr) });
      },
    );
  });
}

/** The cases that also run through the real command (slow to start, so only a few). */
const throughBin = [
  "literal, -nH",
  "--field-match-separator",
  "--files --hidden (includes .git)",
  "--follow: files, folders, dangling, loop",
  "small binary files found by the walk",
  "look-around is an error",
];

describe.skipIf(!hasRg && !process.env.CI)("search: differential against ripgrep", () => {
  let node: Runtime;
  let threaded: Runtime;
  let pool: SearchPool;
  let embedded: Runtime;
  beforeAll(async () => {
    base = makeSearchFixtures(mkdtempSync(join(tmpdir(), "search-diff-")));
    home = mkdtempSync(join(tmpdir(), "search-diff-home-"));
    node = createNodeRuntime({ root: base, searchThreads: 0 });
    pool = new SearchPool({ threads: 2 });
    expect(await pool.ready()).toBe(true);
    threaded = { ...node, search: createNodeSearchService(createNodeSearchFs(), pool, 2, { handOffAfter: 0 }) };
    // Three search workers, so every case also goes through splitting a search and merging it back.
    embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root: base, searchWorkers: 3 });
    await copyTreeInto(embedded.fs, base, base);
  });
  afterAll(async () => {
    await embedded?.dispose();
    await pool?.dispose();
    if (base) rmSync(base, { recursive: true, force: true });
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("has ripgrep 13 to compare with", () => {
    expect(hasRg).toBe(true);
    expect(spawnSync(RG, ["--version"]).stdout.toString()).toMatch(/^ripgrep 13\./);
  });

  it("has at least 60 argument sets", () => {
    expect(differentialCases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(differentialCases.map((c) => c.what)).size).toBe(differentialCases.length);
  });

  for (const c of differentialCases) {
    it(`${c.what}: rg ${c.args.join(" ")}`, async () => {
      const theirs = runRg(c);
      for (const [name, runtime] of [
        ["node", node],
        ["node threads", threaded],
        ["embedded", embedded],
      ] as const) {
        const ours = await runOurs(c, runtime);
        expect({ runtime: name, code: ours.code, out: lines(ours.out) }).toEqual({
          runtime: name,
          code: theirs.code,
          out: lines(theirs.out),
        });
        if (c.stderr) expect({ runtime: name, err: lines(ours.err) }).toEqual({ runtime: name, err: lines(theirs.err) });
      }
    });
  }

  it("agrees through the real `workbench rg` command too", async () => {
    const cases = throughBin.map((what) => {
      const found = differentialCases.find((c) => c.what === what);
      if (!found) throw new Error(`no case "${what}"`);
      return found;
    });
    const results = await Promise.all(cases.map((c) => runBin(c)));
    cases.forEach((c, k) => {
      const theirs = runRg(c);
      const ours = results[k]!;
      expect({ what: c.what, code: ours.code, out: lines(ours.out) }).toEqual({ what: c.what, code: theirs.code, out: lines(theirs.out) });
      if (c.stderr) expect(lines(ours.err)).toEqual(lines(theirs.err));
    });
  }, 120_000);
});
