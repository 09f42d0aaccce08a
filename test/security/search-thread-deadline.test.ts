/**
 * Issue 25 (after item 8): the node runtime's search threads stopped only on a cancel, never at the
 * search's deadline, so a costly pattern handed to them (`a{1000}{1000}` on 1 MB lines) held every thread
 * for minutes while the local search would have stopped in time. Now the deadline reaches the threads,
 * inside a long match too, and the search ends with SearchDeadlineError; the part searched in the
 * walking thread before the hand-off keeps it as well.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeSearchService } from "../../src/runtime/node/parallel-search.js";
import { createNodeSearchFs } from "../../src/runtime/node/search-fs.js";
import { SearchPool } from "../../src/runtime/node/search-pool.js";
import { SearchDeadlineError } from "../../src/search/index.js";

const FILES = 4;
let root: string;
let pool: SearchPool;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "wb-thread-deadline-"));
  for (let i = 0; i < FILES; i++) await writeFile(join(root, `big${i}.txt`), "a".repeat(1_000_000));
  pool = new SearchPool({ threads: 2 });
  expect(await pool.ready()).toBe(true);
});
afterAll(async () => {
  await pool.dispose();
  await rm(root, { recursive: true, force: true });
});

async function drain(handOffAfter: number, pattern: string, deadlineMs: number): Promise<{ files: number; error: unknown; ms: number }> {
  const service = createNodeSearchService(createNodeSearchFs(), pool, 2, { handOffAfter });
  const started = Date.now();
  let files = 0;
  try {
    for await (const _ of service.search({ root, patterns: [pattern], deadlineMs })) files++;
    return { files, error: null, ms: Date.now() - started };
  } catch (error) {
    return { files, error, ms: Date.now() - started };
  }
}

describe("the node runtime's search threads keep the search's deadline", () => {
  it("a costly pattern handed to the threads stops with SearchDeadlineError, and the threads are free again", async () => {
    const readBefore = pool.filesRead;
    const { error, ms } = await drain(0, "(?:a|aa){1,10000}b", 1_000);
    expect(error).toBeInstanceOf(SearchDeadlineError);
    expect((error as Error).message).toContain("simpler pattern");
    // The threads let go of their batches soon after (they stop inside the match, not minutes later)...
    const waitedFrom = Date.now();
    while (pool.pendingBatches > 0 && Date.now() - waitedFrom < 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.pendingBatches).toBe(0);
    // ...having had the files (the walking thread searched none); the next search runs on the same
    // threads and finds every file.
    expect(pool.filesRead - readBefore).toBeGreaterThan(0);
    const after = await drain(0, "a+", 120_000);
    expect(after.error).toBeNull();
    expect(after.files).toBe(FILES);
    // Far from the minutes the pattern takes; generous for a loaded machine.
    expect(ms).toBeLessThan(30_000);
  }, 120_000);

  it("searched in the walking thread before the hand-off, the deadline holds as well", async () => {
    const readBefore = pool.filesRead;
    const { error } = await drain(1_000, "a{1000}{1000}", 1_000);
    expect(error).toBeInstanceOf(SearchDeadlineError);
    expect(pool.filesRead - readBefore).toBe(0);
  }, 120_000);
});
