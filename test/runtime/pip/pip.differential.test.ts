/**
 * The embedded pip against real pip, both reading the same loopback index (wheels built on this machine and
 * a published one): `pip install --target` leaves the same files, byte for byte (RECORD, INSTALLER and
 * REQUESTED included), the installed package imports and runs the same, and `pip list`, `pip freeze` and
 * `pip show` say the same.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { startPipIndex, type PipIndex } from "../../support/pip-index.js";
import { embeddedFiles, pythonRuntime, ROOT, START_MS } from "../python/support.js";

/** The real interpreter's folder first on PATH: pyenv's shims would rehash (and contend for a lock) after each pip install. */
const realBin = dirname(spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim());

let index: PipIndex;
let runtime: EmbeddedRuntime;
let realDir: string;

beforeAll(async () => {
  index = await startPipIndex();
  runtime = await pythonRuntime();
  realDir = await mkdtemp(join(tmpdir(), "wb-pip-real-"));
}, START_MS);

afterAll(async () => {
  await runtime?.dispose();
  await index?.close();
  if (realDir) await rm(realDir, { recursive: true, force: true });
});

/**
 * Real python3 and pip in `realDir`, with no bytecode written and no cache or version check. Asynchronous:
 * the index answering it runs in this process.
 */
function real(command: string): Promise<{ stdout: string; stderr: string; status: number | null }> {
  const child = spawn("bash", ["-c", command], {
    cwd: realDir,
    env: {
      PATH: `${realBin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: realDir,
      PYTHONDONTWRITEBYTECODE: "1",
      PIP_NO_CACHE_DIR: "1",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      PIP_ROOT_USER_ACTION: "ignore",
      LC_ALL: "C.UTF-8",
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) => child.on("close", (status) => resolve({ stdout: stdout.replaceAll(realDir, ROOT), stderr, status })));
}

async function realTree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      out[`${rel}/`] = "";
      Object.assign(out, await realTree(dir, rel));
    } else out[rel] = Buffer.from(await readFile(join(dir, rel))).toString("hex");
  }
  return out;
}

describe("pip install --target, against real pip from the same index", () => {
  it("leaves the same files for a package and its dependency, and the package runs the same", { timeout: 240_000 }, async () => {
    const install = `pip install --target t --index-url ${index.url} tinyx`;
    // Real pip compiles bytecode unless told not to; Pyodide never writes any.
    const theirs = await real(`python3 -m ${install} --no-compile`);
    expect(theirs.status, theirs.stderr).toBe(0);
    const ours = await runtime.exec(install, { cwd: ROOT, timeoutMs: 120_000 });
    expect(ours.exitCode, ours.stderr).toBe(0);
    expect(ours.stdout).toContain("Successfully installed helperlib-1.2 tinyx-1.0");
    const expected = await realTree(join(realDir, "t"));
    // What the test means to compare: a dependency, a subpackage, a data file, a .data/purelib module.
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining(["helperlib.py", "tinyx/sub/__init__.py", "tinyx/data.txt", "tinyx_extra.py", "tinyx-1.0.dist-info/RECORD"]),
    );
    expect(await embeddedFiles(runtime, `${ROOT}/t`)).toEqual(expected);

    const run = `PYTHONPATH=t python3 -c 'import tinyx, tinyx_extra, helperlib; print(tinyx.answer(), helperlib.VERSION, tinyx_extra.EXTRA)'`;
    expect((await runtime.exec(run, { cwd: ROOT, timeoutMs: 120_000 })).stdout).toBe((await real(run)).stdout);
    expect((await real(run)).stdout).toBe("42 1.2 True\n");
  });

  it("leaves the same files for a published wheel (setuptools, as ensurepip carries it)", { timeout: 240_000 }, async () => {
    const install = `pip install --target published --index-url ${index.url} setuptools`;
    const theirs = await real(`python3 -m ${install} --no-compile`);
    expect(theirs.status, theirs.stderr).toBe(0);
    const ours = await runtime.exec(install, { cwd: ROOT, timeoutMs: 200_000 });
    expect(ours.exitCode, ours.stderr).toBe(0);
    const expected = await realTree(join(realDir, "published"));
    expect(Object.keys(expected).length).toBeGreaterThan(100);
    expect(await embeddedFiles(runtime, `${ROOT}/published`)).toEqual(expected);
  });

  it("pip list, pip freeze and pip show describe what was installed as real pip does", { timeout: 240_000 }, async () => {
    for (const command of [
      "pip list --path t",
      "pip list --path t --format freeze",
      "pip list --path t --format=json",
      "pip freeze --path t",
    ]) {
      const theirs = await real(`python3 -m ${command}`);
      expect(theirs.status, theirs.stderr).toBe(0);
      expect((await runtime.exec(command, { cwd: ROOT })).stdout, command).toBe(theirs.stdout);
    }
    // pip show reads the environment: real pip's is its own plus PYTHONPATH; ours is the folder named.
    const theirs = await real(`PYTHONPATH=${realDir}/t python3 -m pip show tinyx helperlib`);
    expect(theirs.status, theirs.stderr).toBe(0);
    const ours = await runtime.exec("pip show --path t tinyx helperlib", { cwd: ROOT });
    expect(ours.stdout).toBe(theirs.stdout.replaceAll(`${ROOT}/t`, `${ROOT}/t`));
  });
});
