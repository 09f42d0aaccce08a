/**
 * Shared by the python3 tests: an embedded runtime with the CLI's python3 sandbox, and real python3 run the
 * same way (bash -c in a folder of its own) as the oracle, with the files each leaves behind.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { nodePythonSandboxFactory } from "../../../src/runtime/embedded/python/node-sandbox.js";

export const ROOT = "/workspace";

/** Loading Pyodide takes seconds (over 10 on a busy machine): once per test file. */
export const START_MS = 180_000;

export function pythonRuntime(): Promise<EmbeddedRuntime> {
  return createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root: ROOT, python: nodePythonSandboxFactory });
}

export type Files = Record<string, string | Uint8Array>;

export interface Outcome {
  stdout: string;
  exitCode: number | null;
  files: Record<string, string>;
}

/** Every file under `dir` (a real folder), as hex of its bytes so binary files compare too. */
async function realFiles(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      out[`${rel}/`] = "";
      Object.assign(out, await realFiles(dir, rel));
    } else out[rel] = Buffer.from(await readFile(join(dir, rel))).toString("hex");
  }
  return out;
}

export async function embeddedFiles(runtime: EmbeddedRuntime, dir = ROOT, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await runtime.fs.readdir(prefix ? `${dir}/${prefix}` : dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.type === "directory") {
      out[`${rel}/`] = "";
      Object.assign(out, await embeddedFiles(runtime, dir, rel));
    } else out[rel] = Buffer.from(await runtime.fs.readFile(`${dir}/${rel}`)).toString("hex");
  }
  return out;
}

/** Real python3 (no bytecode caches, which Pyodide does not write either) on a fresh copy of `files`. */
export async function runReal(files: Files, command: string): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), "wb-python-"));
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    const result = spawnSync("bash", ["-c", command], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, PYTHONDONTWRITEBYTECODE: "1", LC_ALL: "C.UTF-8" },
      encoding: "buffer",
      timeout: 30_000,
    });
    return { stdout: result.stdout.toString("utf8").replaceAll(dir, ROOT), exitCode: result.status, files: await realFiles(dir) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The same in the embedded runtime, in a fresh folder under the workspace (the interpreter stays warm). */
export async function runEmbedded(runtime: EmbeddedRuntime, files: Files, command: string): Promise<Outcome> {
  const dir = `${ROOT}/case-${Math.random().toString(36).slice(2)}`;
  await runtime.fs.mkdir(dir, { recursive: true });
  try {
    for (const [path, content] of Object.entries(files)) {
      await runtime.fs.mkdir(dirname(`${dir}/${path}`), { recursive: true });
      await runtime.fs.writeFile(`${dir}/${path}`, content);
    }
    const result = await runtime.exec(command, { cwd: dir, timeoutMs: 60_000 });
    return { stdout: result.stdout.replaceAll(dir, ROOT), exitCode: result.exitCode, files: await embeddedFiles(runtime, dir) };
  } finally {
    await runtime.fs.rm(dir, { recursive: true, force: true });
  }
}
