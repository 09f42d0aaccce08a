/** The node backend kills a command's whole process tree, background children included. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import { gone } from "../support/processes.js";

describe("node runtime: process trees", () => {
  let root: string;
  let runtime: Runtime;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "workbench-tree-"));
    runtime = createNodeRuntime({ root });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  for (const stop of ["abort", "timeout"] as const) {
    it(`kills a background child on ${stop}`, async () => {
      const controller = new AbortController();
      let pid = 0;
      const result = await runtime.exec("sleep 100 & echo $!; wait", {
        signal: controller.signal,
        timeoutMs: stop === "timeout" ? 500 : undefined,
        onOutput: (chunk) => {
          pid ||= Number.parseInt(chunk.text, 10);
          if (stop === "abort") setTimeout(() => controller.abort(), 100);
        },
      });
      expect(pid).toBeGreaterThan(0);
      expect(stop === "abort" ? result.aborted : result.timedOut).toBe(true);
      expect(await gone(pid)).toBe(true);
    });
  }

  it("returns when the shell exits even if a background child holds the output open, and ends it", async () => {
    const result = await runtime.exec("sleep 100 & echo $!", { timeoutMs: 20_000 });
    const pid = Number.parseInt(result.stdout, 10);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(await gone(pid)).toBe(true);
  });
});
