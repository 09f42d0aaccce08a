/**
 * Attacks through pip on the workspace: a wheel whose entries climb out of site-packages, a RECORD that
 * names files outside it for uninstall to delete, and names that are paths. Each is refused, and every
 * file of the workspace is as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { embeddedFiles, pythonRuntime, ROOT, START_MS } from "../runtime/python/support.js";
import { startPipIndex, type PipIndex } from "../support/pip-index.js";

let index: PipIndex;
let runtime: EmbeddedRuntime;
const site = `${ROOT}/proj/.venv/lib/python3.14/site-packages`;

beforeAll(async () => {
  index = await startPipIndex();
  runtime = await pythonRuntime();
  await runtime.fs.mkdir(site, { recursive: true });
  await runtime.fs.writeFile(`${ROOT}/victim.txt`, "keep me\n");
  await runtime.fs.writeFile(`${ROOT}/proj/.venv/victim.txt`, "keep me too\n");
}, START_MS);

afterAll(async () => {
  await runtime?.dispose();
  await index?.close();
});

describe("pip attacks", () => {
  it("a wheel with an entry that climbs out of site-packages is refused whole", { timeout: 60_000 }, async () => {
    const before = await embeddedFiles(runtime);
    const result = await runtime.exec(`pip install -i ${index.url} evil`, { cwd: `${ROOT}/proj` });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("holds a file outside its install folder ('../escaped.py'); nothing of it was installed");
    expect(await embeddedFiles(runtime)).toEqual(before);
  });

  it("uninstall never deletes what a planted RECORD names outside site-packages", { timeout: 60_000 }, async () => {
    const info = `${site}/planted-1.0.dist-info`;
    await runtime.fs.mkdir(info, { recursive: true });
    await runtime.fs.writeFile(`${info}/METADATA`, "Metadata-Version: 2.1\nName: planted\nVersion: 1.0\n");
    await runtime.fs.writeFile(`${site}/planted.py`, "X = 1\n");
    const record = [
      "planted.py,,",
      "../victim.txt,,",
      "../../../../victim.txt,,",
      `${ROOT}/victim.txt,,`,
      "planted-1.0.dist-info/METADATA,,",
      "planted-1.0.dist-info/RECORD,,",
    ].join("\n");
    await runtime.fs.writeFile(`${info}/RECORD`, record);
    const before = await embeddedFiles(runtime);
    const result = await runtime.exec("pip uninstall -y planted", { cwd: `${ROOT}/proj` });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("WARNING: left ../../../../victim.txt alone");
    const after = await embeddedFiles(runtime);
    const gone = Object.keys(before).filter((path) => !(path in after));
    expect(gone.sort()).toEqual([
      "proj/.venv/lib/python3.14/site-packages/planted-1.0.dist-info/",
      "proj/.venv/lib/python3.14/site-packages/planted-1.0.dist-info/METADATA",
      "proj/.venv/lib/python3.14/site-packages/planted-1.0.dist-info/RECORD",
      "proj/.venv/lib/python3.14/site-packages/planted.py",
    ]);
    expect(after["victim.txt"]).toBe(before["victim.txt"]);
    expect(after["proj/.venv/victim.txt"]).toBe(before["proj/.venv/victim.txt"]);
  });

  it("names that are paths are not requirements: nothing is fetched or touched", { timeout: 60_000 }, async () => {
    const before = await embeddedFiles(runtime);
    const asked = index.requestedPaths().length;
    for (const command of [
      `pip install -i ${index.url} ../../victim`,
      "pip uninstall -y ../victim.txt",
      `pip install -i ${index.url} /etc/passwd`,
    ]) {
      const result = await runtime.exec(command, { cwd: `${ROOT}/proj` });
      expect(result.exitCode, command).toBe(1);
      expect(result.stderr, command).toContain("Invalid requirement");
    }
    expect(index.requestedPaths().length).toBe(asked);
    expect(await embeddedFiles(runtime)).toEqual(before);
  });
});
