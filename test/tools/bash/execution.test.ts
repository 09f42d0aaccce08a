/**
 * The bash tool's execution, on every backend: exit codes, stderr, live output, timeout and abort (the call
 * completes with what was printed and a note), workdir, and no state carried between calls.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../../src/runtime/types.js";
import { DEFAULT_TIMEOUT_MS } from "../../../src/tools/bash.js";
import { bashBackends, footer, runBash } from "./harness.js";
import { gone } from "../../support/processes.js";

/** Defines the test only where the backend can keep that promise (so nothing is reported skipped). */
function where(condition: boolean): typeof it {
  return condition ? it : ((() => undefined) as unknown as typeof it);
}

describe.each(bashBackends)("bash tool on $name", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ runtime, cleanup } = await backend.create());
    // A first command starts the embedded shell's worker, so a stop sent later meets a running command.
    await runtime.exec("true");
  });
  afterEach(async () => cleanup());

  it("reports the exit code in metadata, titles the call with its description, and completes on failure", async () => {
    const ok = await runBash(runtime, { command: "echo hi", description: "Says hi" });
    expect(ok.result.output).toBe("hi\n");
    expect(ok.result.title).toBe("Says hi");
    expect(ok.result.metadata).toMatchObject({ exit: 0, description: "Says hi", output: "hi\n", truncated: false });
    const failed = await runBash(runtime, { command: "echo partial; exit 3", description: "Fails" });
    expect(failed.result.metadata.exit).toBe(3);
    expect(failed.result.output).toBe("partial\n");
  });

  it("includes stderr with stdout", async () => {
    const { result } = await runBash(runtime, { command: "echo out; echo err >&2; ls no-such-file", description: "Mixes streams" });
    expect(result.output).toContain("out\n");
    expect(result.output).toContain("err\n");
    expect(result.output).toContain("no-such-file");
    expect(result.metadata.exit).not.toBe(0);
  });

  it("publishes live output: first empty, then growing, ending with what the model gets", async () => {
    const { result, updates } = await runBash(runtime, { command: "echo one; echo two; echo three", description: "Counts" });
    expect(updates[0]).toEqual({ output: "", description: "Counts" });
    for (let i = 1; i < updates.length; i++) expect(updates[i]!.output.startsWith(updates[i - 1]!.output)).toBe(true);
    expect(updates.at(-1)!.output).toBe("one\ntwo\nthree\n");
    expect(result.metadata.output).toBe("one\ntwo\nthree\n");
    if (backend.streams) expect(updates.length).toBeGreaterThan(1);
  });

  where(backend.streams)(
    "publishes a statement's output while the command still runs (the abort is sent only on seeing it)",
    async () => {
      const controller = new AbortController();
      const { result, updates } = await runBash(
        runtime,
        { command: "echo first; sleep 30; echo never", description: "Waits", timeout: 20_000 },
        {
          signal: controller.signal,
          onUpdate: (output) => output.includes("first") && controller.abort(),
        },
      );
      expect(updates.some((u) => u.output === "first\n")).toBe(true);
      expect(result.output).toBe(`first\n${footer("User aborted the command")}`);
      expect(result.metadata.exit).toBeNull();
    },
    30_000,
  );

  it("stops at the timeout and completes with the output so far and the note", async () => {
    const { result } = await runBash(runtime, { command: "echo before; sleep 30; echo after", description: "Sleeps", timeout: 700 });
    const note = footer("bash tool terminated command after exceeding timeout 700 ms");
    expect(result.output).toBe(backend.streams ? `before\n${note}` : note);
    expect(result.metadata.exit).toBeNull();
    expect(result.metadata.output).toBe(result.output);
  });

  where(backend.endlessLoops)(
    "aborts a loop that never yields, and completes saying so",
    async () => {
      const controller = new AbortController();
      // Where output streams, the abort waits for "start", so it surely meets the loop running.
      if (!backend.streams) setTimeout(() => controller.abort(), 500);
      const { result } = await runBash(
        runtime,
        { command: "echo start; while true; do :; done", description: "Spins", timeout: 20_000 },
        {
          signal: controller.signal,
          onUpdate: (output) => output.includes("start") && setTimeout(() => controller.abort(), 200),
        },
      );
      expect(result.output).toBe(`${backend.streams ? "start\n" : ""}${footer("User aborted the command")}`);
      expect(result.metadata.exit).toBeNull();
    },
    30_000,
  );

  it("aborts a sleeping child", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const { result } = await runBash(runtime, { command: "sleep 30", description: "Sleeps" }, { signal: controller.signal });
    expect(result.output).toBe(footer("User aborted the command"));
    expect(result.metadata.exit).toBeNull();
  }, 30_000);

  where(backend.processes)("kills the whole process tree on abort: no orphan is left", async () => {
    const controller = new AbortController();
    let pid = 0;
    const { result } = await runBash(
      runtime,
      { command: "sh -c 'sleep 31 & echo $!; wait'; echo never", description: "Nests" },
      {
        signal: controller.signal,
        onUpdate: (output) => {
          if (pid || !/^\d+\n/.test(output)) return;
          pid = Number.parseInt(output, 10);
          controller.abort();
        },
      },
    );
    expect(pid).toBeGreaterThan(0);
    expect(result.output).toBe(`${pid}\n${footer("User aborted the command")}`);
    expect(await gone(pid)).toBe(true);
  });

  it("starts in the workspace by default, in workdir (relative or absolute) when given, and keeps no cwd", async () => {
    await runtime.fs.mkdir(`${runtime.root}/sub/deeper`, { recursive: true });
    expect((await runBash(runtime, { command: "pwd", description: "Where" })).result.output).toBe(`${runtime.root}\n`);
    expect((await runBash(runtime, { command: "pwd", description: "Where", workdir: "sub" })).result.output).toBe(`${runtime.root}/sub\n`);
    expect((await runBash(runtime, { command: "pwd", description: "Where", workdir: `${runtime.root}/sub/deeper` })).result.output).toBe(
      `${runtime.root}/sub/deeper\n`,
    );
    await runBash(runtime, { command: "cd sub && export KEPT=yes", description: "Moves" });
    expect((await runBash(runtime, { command: 'pwd; echo "[$KEPT]"', description: "Where" })).result.output).toBe(`${runtime.root}\n[]\n`);
  });

  it("refuses a workdir that is not a folder, saying what to pass", async () => {
    await runtime.fs.writeFile(`${runtime.root}/file.txt`, "x");
    for (const workdir of ["missing", "file.txt"]) {
      await expect(runBash(runtime, { command: "pwd", description: "Where", workdir })).rejects.toThrow(
        /is not an existing folder\. Pass a folder that exists/,
      );
    }
  });

  it("takes a timeout beyond what a timer can hold as the longest wait, not as none", async () => {
    const { result } = await runBash(runtime, { command: "sleep 0.3; echo done", description: "Waits a little", timeout: 1e12 });
    expect(result.output).toBe("done\n");
    expect(result.metadata.exit).toBe(0);
  });

  it("refuses a timeout that is not positive, with OpenCode's message", async () => {
    for (const timeout of [-5, 0]) {
      await expect(runBash(runtime, { command: "echo x", description: "Echo", timeout })).rejects.toThrow(
        `Invalid timeout value: ${timeout}. Timeout must be a positive number.`,
      );
    }
  });
});

describe("bash tool defaults", () => {
  it("waits two minutes by default", () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(120_000);
  });
});
