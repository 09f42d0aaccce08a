import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePattern, SearchDeadlineError, SearchPatternError, searchFiles } from "../../src/search/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import { bashBackends } from "../tools/bash/harness.js";

/**
 * Issue 25, item 8: `a{5000}` stalled grep for minutes on a 1 MB file and ignored Ctrl-C (`a{10000}`,
 * `a{1000}{1000}`, `(?:a|aa){1,10000}b` likewise), and `\w{1000}\w{1000}\w{1000}` took 17 s to compile.
 * Counted repetitions are budgeted as ripgrep's regex crate does (the same patterns rejected with its
 * message, compared with the real rg), and a search that still runs too long ends with an error at its
 * deadline, even inside the match of one long line.
 */
const patterns = [
  "a{5000}",
  "a{10000}",
  "a{1000}{1000}",
  "(?:a|aa){1,10000}b",
  "\\w{1000}\\w{1000}\\w{1000}",
  "\\w{1000}",
  "\\w{100}",
  "[a-z]{10000}",
  "(?:ab|cd){1000}{10}",
];

let empty: string;
beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), "wb-rg-empty-"));
  await writeFile(join(empty, "e.txt"), "");
});
afterAll(async () => rm(empty, { recursive: true, force: true }));

describe("counted repetitions are budgeted as rg budgets them (differential, real rg)", () => {
  it.each(patterns)(
    "%j: rejected with rg's message exactly when rg rejects it",
    (pattern) => {
      // An empty file: rg compiles the pattern and has nothing to match, so only compiling is compared.
      const rg = spawnSync("rg", ["-e", pattern, join(empty, "e.txt")], { encoding: "utf8", timeout: 120_000 });
      expect(rg.error).toBeUndefined();
      const rgRejects = rg.status === 2;
      let ours: string | null = null;
      try {
        compilePattern([pattern]);
      } catch (error) {
        if (!(error instanceof SearchPatternError)) throw error;
        ours = error.message;
      }
      expect(ours !== null, `rg ${rgRejects ? "rejects" : "accepts"} it: ${rg.stderr}`).toBe(rgRejects);
      if (rgRejects) expect(ours).toBe(rg.stderr.trim());
    },
    180_000,
  );
});

describe("a costly search ends at its deadline, inside one long line too", () => {
  const backend = bashBackends.find((b) => b.name === "node")!;
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ runtime, cleanup } = await backend.create());
    await runtime.fs.writeFile(`${runtime.root}/big.txt`, "a".repeat(1_000_000));
  });
  afterAll(async () => cleanup());

  async function drain(pattern: string, deadlineMs: number): Promise<number> {
    let files = 0;
    for await (const _ of searchFiles(runtime.fs, { root: runtime.root, patterns: [pattern], deadlineMs })) files++;
    return files;
  }

  it.each(["a{1000}{1000}", "(?:a|aa){1,10000}b"])(
    "%j on a 1 MB line stops with SearchDeadlineError",
    async (pattern) => {
      const error = await drain(pattern, 1_000).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SearchDeadlineError);
      expect((error as Error).message).toContain("simpler pattern");
    },
    120_000,
  );

  it("a pattern within the budget still finds its match", async () => {
    expect(await drain("a+", 120_000)).toBe(1);
  }, 120_000);
});
