/**
 * The node runtime's search reads synchronously (fast), yet never holds the thread for the whole
 * search: a timer set before it starts still fires during it, so an abort from a timer stops it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../src/runtime/node/index.js";

let root = "";
const FILES = 5000;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "node-search-yields-"));
  for (let i = 0; i < FILES; i++) {
    if (i % 100 === 0) mkdirSync(join(root, `d${i / 100}`));
    writeFileSync(join(root, `d${Math.floor(i / 100)}`, `f${i}.txt`), "needle\n".repeat(50));
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("lets a timer abort a search of thousands of files part way", async () => {
  const runtime = createNodeRuntime({ root });
  const controller = new AbortController();
  let files = 0;
  setTimeout(() => controller.abort(), 1);
  const run = (async () => {
    for await (const _ of runtime.search.search({ root, patterns: ["needle"] }, { signal: controller.signal })) files++;
  })();
  await expect(run).rejects.toThrow();
  expect(files).toBeLessThan(FILES);
  // And the same search, left alone, finds every file.
  let all = 0;
  for await (const _ of runtime.search.search({ root, patterns: ["needle"] })) all++;
  expect(all).toBe(FILES);
});
