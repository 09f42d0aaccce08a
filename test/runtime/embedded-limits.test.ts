/**
 * The embedded shell's limits let ordinary work run (issue 17, item 1), still stop a runaway (the timeout
 * and Stop do), can be changed while the page runs, and their message says where to change them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { adviseLimits } from "../../src/runtime/embedded/shell-limits.js";

let runtime: EmbeddedRuntime | undefined;

async function open(): Promise<EmbeddedRuntime> {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  await runtime.warm();
  return runtime;
}

afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe("embedded shell: default limits let real work run", () => {
  it("counts a million-line pipeline", { timeout: 60_000 }, async () => {
    const result = await (await open()).exec("seq 1 1000000 | wc -l");
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("1000000");
    expect(result.exitCode).toBe(0);
  });

  it("runs a loop past just-bash's own 100,000 iterations and commands", { timeout: 60_000 }, async () => {
    const result = await (await open()).exec("n=0; for ((i=0; i<250000; i++)); do n=$((n+2)); done; echo $n");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("500000\n");
  });

  it("runs a recursive function a few thousand calls deep", { timeout: 60_000 }, async () => {
    const result = await (await open()).exec("down() { if [ $1 -gt 0 ]; then down $(($1 - 1)); else echo bottom; fi; }; down 3000");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("bottom\n");
  });

  it("still ends `while true; do :; done` at its timeout, and on Stop", { timeout: 30_000 }, async () => {
    const rt = await open();
    const timed = await rt.exec("while true; do :; done", { timeoutMs: 400 });
    expect(timed.timedOut).toBe(true);
    expect(timed.exitCode).toBeNull();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const stopped = await rt.exec("while true; do :; done", { signal: controller.signal });
    expect(stopped.aborted).toBe(true);
    expect(stopped.exitCode).toBeNull();
    // The shell still answers afterwards.
    expect((await rt.exec("echo alive")).stdout).toBe("alive\n");
  });
});

describe("embedded shell: limits set while the page runs", () => {
  it("applies new limits to the next command, and says where to change them", { timeout: 30_000 }, async () => {
    const rt = await open();
    rt.setLimits({ maxLoopIterations: 1000 });
    const result = await rt.exec("for ((i=0; i<5000; i++)); do :; done; echo done");
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("too many iterations (1000)");
    expect(result.stderr).toContain("Settings > Shell limits (Loop iterations)");
    expect(result.stderr).toContain('"workbench": { "shell": { "maxLoopIterations": ... } } in opencode.json');
    expect(result.stderr).not.toContain("executionLimits");
    rt.setLimits({});
    expect((await rt.exec("for ((i=0; i<5000; i++)); do :; done; echo done")).stdout).toBe("done\n");
  });

  it("names the call-depth setting when recursion goes too deep", { timeout: 30_000 }, async () => {
    const rt = await open();
    rt.setLimits({ maxCallDepth: 50 });
    const result = await rt.exec("down() { down; }; down");
    expect(result.stderr).toContain("maximum recursion depth (50)");
    expect(result.stderr).toContain("Settings > Shell limits (Function call depth)");
  });
});

describe("adviseLimits", () => {
  it("rewrites each of just-bash's three limit messages and leaves other text alone", () => {
    expect(adviseLimits("bash: too many commands executed (>5), increase executionLimits.maxCommandCount\n")).toBe(
      'bash: too many commands executed (>5). Raise it in Settings > Shell limits (Commands per run), or set "workbench": { "shell": { "maxCommandCount": ... } } in opencode.json\n',
    );
    expect(adviseLimits("while loop: too many iterations (7), increase executionLimits.maxLoopIterations")).toContain("(Loop iterations)");
    expect(adviseLimits("plain error, see executionLimits.maxOutputSize")).toBe("plain error, see executionLimits.maxOutputSize");
  });

  it("tells seq's two limits apart: the loop limit names its setting, the fixed one says to split the range", () => {
    expect(adviseLimits("bash: seq: iteration limit exceeded (500)\n", 500)).toContain(
      "seq: iteration limit exceeded (500). Raise it in Settings > Shell limits (Loop iterations)",
    );
    expect(adviseLimits("bash: seq: iteration limit exceeded (1000000)\n", 10_000_000)).toContain(
      "seq writes at most 1,000,000 numbers here",
    );
  });

  it("a seq past a million values says how to get them", { timeout: 30_000 }, async () => {
    const result = await (await open()).exec("seq 1 1000001 | wc -l");
    expect(result.stderr).toContain("split the range");
  });
});
