/**
 * What python3 in the embedded runtime promises beyond what real python3 can be compared on: a `.venv`'s
 * packages import (there is no other python to run them), venv and ensurepip answer with a clear error, a runtime
 * without a sandbox has no python3 at all, and the copy of the workspace Python gets is bounded
 * and follows each change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { WorkspaceMirror } from "../../../src/runtime/embedded/python/workspace-mirror.js";
import { pythonRuntime, ROOT, START_MS } from "./support.js";

let runtime: EmbeddedRuntime;
beforeAll(async () => {
  runtime = await pythonRuntime();
  await runtime.exec("python3 -c pass", { timeoutMs: START_MS });
}, START_MS);
afterAll(() => runtime?.dispose());

describe("the shell's commands", () => {
  it("python3, python, pip and pip3 are found on PATH, and a missing command's hint no longer says there is no python", async () => {
    expect((await runtime.exec("command -v python3 python pip pip3; which python3")).stdout).toBe(
      "/usr/bin/python3\n/usr/bin/python\n/usr/bin/pip\n/usr/bin/pip3\n/usr/bin/python3\n",
    );
    const missing = await runtime.exec("nosuchcmd");
    expect(missing.stderr).toMatch(
      /^bash: nosuchcmd: command not found\nhint: the embedded shell runs only its own commands \(node, npm, python among them; no other/,
    );
    expect(missing.stderr).toMatch(/ python3 /);
  }, 60_000);
});

describe("packages in the workspace", () => {
  it("a .venv's site-packages import from its folder and from below it", async () => {
    await runtime.fs.mkdir(`${ROOT}/proj/.venv/lib/python3.12/site-packages/tinypkg`, { recursive: true });
    await runtime.fs.writeFile(`${ROOT}/proj/.venv/lib/python3.12/site-packages/tinypkg/__init__.py`, "NAME = 'tiny'\n");
    await runtime.fs.mkdir(`${ROOT}/proj/src`, { recursive: true });
    const command = "python3 -c 'import tinypkg; print(tinypkg.NAME)'";
    expect((await runtime.exec(command, { cwd: `${ROOT}/proj` })).stdout).toBe("tiny\n");
    expect((await runtime.exec(command, { cwd: `${ROOT}/proj/src` })).stdout).toBe("tiny\n");
    const outside = await runtime.exec(command, { cwd: ROOT });
    expect(outside.exitCode).toBe(1);
    expect(outside.stderr).toContain("ModuleNotFoundError: No module named 'tinypkg'");
  }, 60_000);

  it("python3 -m venv and ensurepip say they are not here, and that pip install is", async () => {
    for (const command of ["python3 -m venv .venv", "python3 -m ensurepip"]) {
      const result = await runtime.exec(command);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain("venv and ensurepip are not available here");
      expect(result.stderr).toContain("pip install NAME");
    }
  }, 60_000);
});

describe("without a sandbox", () => {
  it("python3 is a command the shell does not have, and the hint says so", async () => {
    const bare = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    try {
      const result = await bare.exec("python3 -c 'print(1)'");
      expect(result.exitCode).toBe(127);
      expect(result.stderr).toMatch(/^bash: python3: command not found\nhint: [^\n]*\(node, npm among them; no python or/);
      expect((await bare.exec("command -v python3 pip")).stdout).toBe("");
    } finally {
      await bare.dispose();
    }
  });
});

describe("the workspace copy", () => {
  it("is bounded, says what it left out, and then sends only what changed", async () => {
    const bare = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    try {
      const root = `${ROOT}/bounded`;
      await bare.fs.mkdir(`${root}/sub`, { recursive: true });
      await bare.fs.mkdir(`${root}/node_modules/x`, { recursive: true });
      await bare.fs.mkdir(`${root}/.git`, { recursive: true });
      for (const name of ["a.py", "b.py", "sub/c.py", "sub/d.py", "node_modules/x/i.js", ".git/HEAD"])
        await bare.fs.writeFile(`${root}/${name}`, "x = 1\n");
      const mirror = new WorkspaceMirror(bare.fs, root, { maxFiles: 3, maxBytes: 1024 });
      const first = await mirror.sync();
      expect(first.sync.writes.map((file) => file.path).sort()).toEqual([`${root}/a.py`, `${root}/b.py`, `${root}/sub/c.py`]);
      expect(first.sync.dirs).toEqual([`${root}/sub`]);
      expect(first.note).toContain("1 workspace file(s) were left out");

      await bare.fs.writeFile(`${root}/a.py`, "x = 2\n");
      await bare.fs.rm(`${root}/sub`, { recursive: true });
      mirror.markChanged([`${root}/a.py`, `${root}/sub`]);
      const second = await mirror.sync();
      expect(second.sync.writes.map((file) => [file.path, new TextDecoder().decode(file.data)])).toEqual([[`${root}/a.py`, "x = 2\n"]]);
      expect(second.sync.removes).toEqual([`${root}/sub`]);
      expect(second.note).toBeUndefined();

      // A byte budget: a file that would pass it is left out, the others still go.
      await bare.fs.writeFile(`${root}/big.py`, "#".repeat(2048));
      mirror.markChanged([`${root}/big.py`]);
      const third = await mirror.sync();
      expect(third.sync.writes).toEqual([]);
      expect(third.note).toContain("1 workspace file(s) were left out");
    } finally {
      await bare.dispose();
    }
  });
});
