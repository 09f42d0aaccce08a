/** The node backend kills a command's whole process tree, background children included. */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";

/** Running, as opposed to gone or a zombie waiting to be reaped (which has ended all the same). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

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
