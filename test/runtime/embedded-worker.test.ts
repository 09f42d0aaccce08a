/** The embedded runtime's promises about its shell worker: a runaway command never costs a file or the page. */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { isRuntimeError } from "../../src/runtime/errors.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
let runtime: EmbeddedRuntime | undefined;

async function unlimited(): Promise<EmbeddedRuntime> {
  runtime = await createEmbeddedRuntime({
    workerFactory: nodeShellWorkerFactory,
    limits: { maxLoopIterations: null, maxCommandCount: null },
  });
  await runtime.warm();
  return runtime;
}

afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe("embedded runtime: runaway commands", () => {
  it("stops `while true; do :; done` on abort within a second, keeping the main thread free", async () => {
    const rt = await unlimited();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 400);
    const result = await rt.exec("while true; do :; done", { signal: controller.signal });
    const stoppedIn = Date.now() - abortedAt;
    clearInterval(ticker);
    expect(result.aborted).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(stoppedIn).toBeLessThan(1_000);
    // The loop ran in the worker: this thread's timers kept firing while it spun.
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it("stops the same loop at its timeout within a second", async () => {
    const rt = await unlimited();
    const started = Date.now();
    const result = await rt.exec("i=0; while true; do i=$((i+1)); done", { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_300);
  });

  it("keeps every file across the worker's termination, and runs the next command", async () => {
    const rt = await unlimited();
    await rt.exec("mkdir -p kept && echo safe > kept/file.txt");
    // Long enough for the first command to finish on a loaded machine: the point is what survives the kill.
    const killed = await rt.exec("echo partial > half.txt; while true; do :; done", { timeoutMs: 2_000 });
    expect(killed.timedOut).toBe(true);
    expect(text(await rt.fs.readFile(`${rt.root}/kept/file.txt`))).toBe("safe\n");
    expect(text(await rt.fs.readFile(`${rt.root}/half.txt`))).toBe("partial\n");
    expect((await rt.exec("cat kept/file.txt")).stdout).toBe("safe\n");
  });

  it("stopping one command leaves another running command alone", async () => {
    const rt = await unlimited();
    const controller = new AbortController();
    const slow = rt.exec("sleep 1; echo finished", {});
    const runaway = rt.exec("while true; do :; done", { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect((await runaway).aborted).toBe(true);
    const result = await slow;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("finished\n");
  });

  it("keeps a loop limit when it is not lifted, with a clear message", async () => {
    runtime = await createEmbeddedRuntime({
      workerFactory: nodeShellWorkerFactory,
      limits: { maxLoopIterations: 1000, maxCommandCount: 5000 },
    });
    const result = await runtime.exec("while true; do :; done");
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/too many (iterations|commands)/);
  });
});

describe("embedded runtime: a read-only workspace", () => {
  it("refuses changes with EROFS, through fs and through the shell, and still reads", async () => {
    // A second view of the same files, as a second tab gets.
    const { InMemory, resolveMountConfig } = await import("@zenfs/core");
    const backing = await resolveMountConfig({ backend: InMemory });
    const first = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, backing });
    await first.fs.writeFile(`${first.root}/seen.txt`, "shared");
    await first.dispose();
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, backing, readOnly: true });
    expect(text(await runtime.fs.readFile(`${runtime.root}/seen.txt`))).toBe("shared");
    const error = await runtime.fs.writeFile(`${runtime.root}/new.txt`, "x").catch((e: unknown) => e);
    expect(isRuntimeError(error, "EROFS")).toBe(true);
    expect(String((error as Error).message)).toMatch(/read-only/);
    expect((await runtime.exec("cat seen.txt")).stdout).toBe("shared");
    // just-bash ends the whole command line when a redirect's write fails, so this is all one error.
    const result = await runtime.exec("echo nope > new.txt");
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/EROFS: read-only workspace/);
    expect(await runtime.fs.stat(`${runtime.root}/new.txt`).catch((e: unknown) => e)).toSatisfy((e) => isRuntimeError(e, "ENOENT"));
  });
});

describe("embedded runtime: /dev/null", () => {
  it("swallows what is redirected to it and reads as empty, without touching the workspace", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const quiet = await runtime.exec(
      "ls no-such-file 2>/dev/null; echo rc=$?; echo gone > /dev/null; echo more >> /dev/null; wc -c < /dev/null",
    );
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toBe("rc=2\n0\n");
    expect((await runtime.exec("test -e /dev/null && echo exists")).stdout).toBe("exists\n");
    await expect(runtime.fs.stat("/dev/null")).rejects.toThrow();
  });

  it("is read as empty by commands, shown alone in /dev, and never stored", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const read = await runtime.exec("cat /dev/null; head -c 5 /dev/null; tail /dev/null; wc -c < /dev/null; echo rc=$?");
    expect(read.stderr).toBe("");
    expect(read.stdout).toBe("0\nrc=0\n");
    // The workbench's statement-stream devices stay out of the listing.
    expect((await runtime.exec("ls /dev; find /dev")).stdout).toBe("null\n/dev\n/dev/null\n");
    await expect(runtime.fs.stat("/dev")).rejects.toThrow();
  });
});

describe("embedded runtime: which", () => {
  it("finds the shell's commands on PATH as a Debian bash does, without storing files for them", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const found = await runtime.exec("which ls git; echo rc=$?; which -a cat; which ls nosuch-wb; echo rc=$?; which -s ls; echo rc=$?");
    expect(found.stderr).toBe("");
    expect(found.stdout).toBe("/usr/bin/ls\n/usr/bin/git\nrc=0\n/usr/bin/cat\n/bin/cat\n/usr/bin/ls\nrc=1\nrc=0\n");
    expect((await runtime.exec("ls /usr/bin | grep -cE '^(ls|git|cat)$'")).stdout).toBe("3\n");
    await expect(runtime.fs.stat("/usr")).rejects.toThrow();
    await expect(runtime.fs.stat("/bin")).rejects.toThrow();
  });
});
