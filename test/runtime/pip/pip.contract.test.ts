/**
 * What the embedded pip promises where real pip cannot be compared line for line: where it installs (the
 * `.venv` python3 reads), where the index comes from (flag, PIP_INDEX_URL, pip.conf), what it refuses and
 * how it says so (a bad hash, a missing project, a non-pure wheel, no network, a conflict), that a failure
 * leaves nothing behind, and that uninstall takes away exactly what install put there.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { PYTHON_FULL_VERSION, PYTHON_VERSION } from "../../../src/runtime/embedded/pip/environment.js";
import { startPipIndex, type PipIndex } from "../../support/pip-index.js";
import { embeddedFiles, pythonRuntime, ROOT, START_MS } from "../python/support.js";
import { readFile } from "node:fs/promises";

const project = `${ROOT}/proj`;
const site = `${ROOT}/.venv/lib/python${PYTHON_VERSION}/site-packages`;

let index: PipIndex;
let htmlIndex: PipIndex;
let runtime: EmbeddedRuntime;

beforeAll(async () => {
  index = await startPipIndex();
  htmlIndex = await startPipIndex({ htmlOnly: true });
  runtime = await pythonRuntime();
}, START_MS);

afterAll(async () => {
  await runtime?.dispose();
  await index?.close();
  await htmlIndex?.close();
});

beforeEach(async () => {
  for (const path of [project, `${ROOT}/.venv`, `${ROOT}/pip.conf`]) await runtime.fs.rm(path, { recursive: true, force: true });
  await runtime.fs.mkdir(project, { recursive: true });
});

const exists = (path: string) =>
  runtime.fs.stat(path).then(
    () => true,
    () => false,
  );
const pip = (args: string, options: { cwd?: string; env?: Record<string, string> } = {}) =>
  runtime.exec(`pip ${args}`, { cwd: options.cwd ?? project, env: options.env, timeoutMs: 120_000 });

describe("where pip installs and python3 finds it", () => {
  it("pip install puts the package and its dependency in the workspace's .venv, and python3 imports them from anywhere in it", {
    timeout: START_MS,
  }, async () => {
    const result = await pip(`install -i ${index.url} tinyx`);
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.replace(/\(\d+\.\d kB\)/g, "(N kB)").split("\n");
    expect(lines).toEqual([
      `Looking in indexes: ${index.url}`,
      "Collecting tinyx",
      "  Downloading tinyx-1.0-py3-none-any.whl (N kB)",
      "Collecting helperlib>=1.1 (from tinyx)",
      "  Downloading helperlib-1.2-py3-none-any.whl (N kB)",
      "Installing collected packages: helperlib, tinyx",
      "Successfully installed helperlib-1.2 tinyx-1.0",
      "",
    ]);
    expect(await exists(`${site}/tinyx/__init__.py`)).toBe(true);
    // Neither the extra's, the other platform's nor the old Python's dependency was asked for.
    expect(index.requestedPaths().filter((path) => /extraonly|winonly|oldpython/.test(path))).toEqual([]);
    const run = "python3 -c 'import tinyx, helperlib; print(tinyx.answer(), helperlib.VERSION)'";
    expect((await runtime.exec(run, { cwd: project, timeoutMs: START_MS })).stdout).toBe("42 1.2\n");
    expect((await runtime.exec(run, { cwd: ROOT, timeoutMs: 60_000 })).stdout).toBe("42 1.2\n");
  });

  it("python3 -m pip is the same pip, and an existing .venv in the project is the one used", { timeout: 120_000 }, async () => {
    const local = `${project}/.venv/lib/python3.12/site-packages`;
    await runtime.fs.mkdir(local, { recursive: true });
    const result = await runtime.exec(`python3 -m pip install --index-url=${index.url} helperlib==1.0`, {
      cwd: project,
      timeoutMs: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await exists(`${local}/helperlib.py`)).toBe(true);
    expect(await exists(`${site}/helperlib.py`)).toBe(false);
    expect((await pip("freeze")).stdout).toBe("helperlib==1.0\n");
  });

  it("a second install of what is there fetches nothing; --upgrade replaces the old version's files", { timeout: 120_000 }, async () => {
    expect((await pip(`install -i ${index.url} helperlib==1.0`)).exitCode).toBe(0);
    const before = index.requestedPaths().length;
    const again = await pip(`install -i ${index.url} helperlib`);
    expect(again.stdout).toContain("Requirement already satisfied: helperlib (1.0)");
    expect(index.requestedPaths().length).toBe(before);
    const upgraded = await pip(`install -U -i ${index.url} helperlib`);
    expect(upgraded.exitCode, upgraded.stderr).toBe(0);
    expect(upgraded.stdout).toContain("Successfully uninstalled helperlib-1.0");
    expect(upgraded.stdout).toContain("Successfully installed helperlib-1.2");
    expect(await exists(`${site}/helperlib-1.0.dist-info`)).toBe(false);
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${site}/helperlib.py`))).toContain("'1.2'");
  });

  it("pip uninstall removes every file install wrote and nothing else", { timeout: 120_000 }, async () => {
    expect((await pip(`install -i ${index.url} helperlib`)).exitCode).toBe(0);
    const withHelper = await embeddedFiles(runtime, site);
    expect((await pip(`install --no-deps -i ${index.url} tinyx`)).exitCode).toBe(0);
    const removed = await pip("uninstall -y tinyx");
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stdout).toBe("Found existing installation: tinyx 1.0\nUninstalling tinyx-1.0:\n  Successfully uninstalled tinyx-1.0\n");
    expect(await embeddedFiles(runtime, site)).toEqual(withHelper);
    const missing = await pip("uninstall -y tinyx");
    expect(missing.stderr).toBe("WARNING: Skipping tinyx as it is not installed.\n");
    expect((await pip("show tinyx")).exitCode).toBe(1);
  });
});

describe("which index", () => {
  it("PIP_INDEX_URL, then a pip.conf from the current folder up, name the index; an HTML-only index works too", {
    timeout: 120_000,
  }, async () => {
    const viaEnv = await pip("install helperlib==1.0", { env: { PIP_INDEX_URL: htmlIndex.url } });
    expect(viaEnv.exitCode, viaEnv.stderr).toBe(0);
    expect(htmlIndex.requestedPaths()).toContain("/simple/helperlib/");
    await runtime.fs.writeFile(`${ROOT}/pip.conf`, `[global]\nindex-url = ${index.url}\n`);
    const viaConf = await pip("install -U helperlib");
    expect(viaConf.exitCode, viaConf.stderr).toBe(0);
    expect(viaConf.stdout).toContain(`Looking in indexes: ${index.url}`);
    expect(viaConf.stdout).toContain("Successfully installed helperlib-1.2");
  });
});

describe("what pip refuses, and that a refusal installs nothing", () => {
  const refusals: Array<[string, RegExp]> = [
    ["badhash", /THESE PACKAGES DO NOT MATCH THE HASHES FROM THE PACKAGE INDEX[\s\S]*Expected sha256 0{64}/],
    [
      "needsmissing",
      /the index has no project 'nosuchpkg': 404 at [^\n]*\/simple\/nosuchpkg\/\)\nNo matching distribution found for nosuchpkg\n/,
    ],
    [
      "native",
      /native has no pure-Python wheel \(py3-none-any\)[^\n]*native-1\.0-cp311-cp311-manylinux_2_17_x86_64\.whl[\s\S]*pure-Python wheels only/,
    ],
    ["'helperlib>=5'", /Could not find a version that satisfies the requirement helperlib>=5 \(from versions: 1\.0, 1\.2, 2\.0b1\)/],
    ["tinyx 'helperlib<1.1'", /helperlib>=1\.1 \(from tinyx\) conflicts with helperlib 1\.0, chosen for helperlib<1\.1\./],
  ];
  for (const [args, message] of refusals) {
    it(`pip install ${args}`, { timeout: 60_000 }, async () => {
      const result = await pip(`install -i ${index.url} ${args}`);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/^ERROR: /);
      expect(result.stderr).toMatch(message);
      expect(await exists(`${ROOT}/.venv`)).toBe(false);
    });
  }

  it("an index that cannot be reached says pip needs the network, and how to point it elsewhere", { timeout: 60_000 }, async () => {
    const result = await pip("install -i http://127.0.0.1:1/simple/ tinyx");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("Could not reach the package index: GET http://127.0.0.1:1/simple/tinyx/ failed");
    expect(result.stderr).toContain("pip install needs the network");
    expect(await exists(`${ROOT}/.venv`)).toBe(false);
  });

  it("options this pip does not act on are said to be ignored", { timeout: 60_000 }, async () => {
    const result = await pip(`install --extra-index-url http://127.0.0.1:1/simple/ --pre -i ${index.url} helperlib==1.0`);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      "WARNING: --extra-index-url is not supported by this pip and was ignored.\nWARNING: --pre is not supported by this pip and was ignored.\n",
    );
  });

  it("bad command lines get pip's usage errors", async () => {
    expect((await pip("install")).stderr).toBe('ERROR: You must give at least one requirement to install (see "pip help")\n');
    expect((await pip("install 'x @ https://example.com/x.whl'")).stderr).toContain("requirements from a URL are not supported here");
    expect((await pip("frobnicate")).stderr).toContain('unknown command "frobnicate"');
    expect((await pip("install -r nofile.txt")).stderr).toContain("Could not open requirements file");
  });
});

describe("the Python it installs for", () => {
  it("is the Python version Pyodide's lock file says, which names site-packages", async () => {
    const lock = JSON.parse(await readFile(new URL("../../../node_modules/pyodide/pyodide-lock.json", import.meta.url), "utf8"));
    expect(lock.info.python).toBe(PYTHON_FULL_VERSION);
  });
});
