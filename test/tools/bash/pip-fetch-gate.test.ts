/**
 * The embedded pip's fetches go through the webfetch permission as npm's do (ExecOptions.fetchGate, asked
 * by the bash tool): one ask per index origin with the project page's URL; a refusal fetches nothing,
 * installs nothing, and ends the call with the refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import type { AskInput } from "../../../src/tools/permission/types.js";
import { pythonRuntime, ROOT, START_MS } from "../../runtime/python/support.js";
import { startPipIndex, type PipIndex } from "../../support/pip-index.js";
import { runBash } from "./harness.js";

let index: PipIndex;
let runtime: EmbeddedRuntime;
const dir = `${ROOT}/app`;
const exists = (path: string) =>
  runtime.fs.stat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  index = await startPipIndex();
  runtime = await pythonRuntime();
}, START_MS);

afterAll(async () => {
  await runtime?.dispose();
  await index?.close();
});

beforeEach(async () => {
  await runtime.fs.rm(`${ROOT}/.venv`, { recursive: true, force: true });
  await runtime.fs.mkdir(dir, { recursive: true });
});

const webfetchAsks = (asks: AskInput[]) => asks.filter((ask) => ask.permission === "webfetch");

describe("pip install and the webfetch permission", () => {
  it("asks once for the index's origin, with the project page's URL, and installs when allowed", { timeout: 60_000 }, async () => {
    const { result, asks } = await runBash(runtime, {
      command: `pip install -i ${index.url} tinyx`,
      workdir: dir,
      description: "Installs",
    });
    expect(result.metadata.exit, result.output).toBe(0);
    const asked = webfetchAsks(asks);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.patterns).toEqual([`${index.url}tinyx/`]);
    expect(await exists(`${ROOT}/.venv/lib/python3.14/site-packages/tinyx/__init__.py`)).toBe(true);
  });

  it("a refusal fetches nothing, installs nothing, and ends the call refused", { timeout: 60_000 }, async () => {
    const before = index.requestedPaths().length;
    const refused = new Error("the user refused webfetch");
    const answer = async (ask: AskInput) => {
      if (ask.permission === "webfetch") throw refused;
    };
    const command = `python3 -m pip install -i ${index.url} tinyx`;
    await expect(runBash(runtime, { command, workdir: dir, description: "Installs" }, { answer })).rejects.toBe(refused);
    expect(index.requestedPaths().slice(before)).toEqual([]);
    expect(await exists(`${ROOT}/.venv`)).toBe(false);
  });

  it("pip list, show and uninstall fetch nothing and ask nothing of webfetch", { timeout: 60_000 }, async () => {
    const { asks } = await runBash(runtime, {
      command: "pip list; pip show x; pip uninstall -y x; echo done",
      workdir: dir,
      description: "Lists",
    });
    expect(webfetchAsks(asks)).toEqual([]);
  });
});
