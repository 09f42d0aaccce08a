/**
 * The embedded npm's fetches go through the webfetch permission (ExecOptions.fetchGate, asked by the bash
 * tool): one ask per registry origin with the URL as webfetch asks it; a refusal fetches nothing, installs
 * nothing, and ends the call with the refusal, as any refused permission does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import type { AskInput } from "../../../src/tools/permission/types.js";
import { npmDistTags, npmFixtures } from "../../support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../../support/npm-registry.js";
import { runBash } from "./harness.js";

let registry: NpmRegistry;
let runtime: EmbeddedRuntime;
const dir = "/workspace/app";
const exists = (path: string) =>
  runtime.fs.stat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
}, 60_000);

afterAll(async () => {
  await runtime?.dispose();
  await registry?.close();
});

beforeEach(async () => {
  await runtime.fs.rm(dir, { recursive: true, force: true });
  await runtime.fs.mkdir(dir, { recursive: true });
  await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0" }, null, 2)}\n`);
  await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\n`);
});

const webfetchAsks = (asks: AskInput[]) => asks.filter((ask) => ask.permission === "webfetch");

describe("npm install and the webfetch permission", () => {
  it("asks once for the registry's origin, with the packument's URL, and installs when allowed", { timeout: 60_000 }, async () => {
    const { result, asks } = await runBash(runtime, { command: "npm install with-deps", workdir: dir, description: "Installs" });
    expect(result.metadata.exit, result.output).toBe(0);
    const asked = webfetchAsks(asks);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.patterns).toEqual([`${registry.url}/with-deps`]);
    expect(await exists(`${dir}/node_modules/with-deps/package.json`)).toBe(true);
  });

  it("a refusal fetches nothing, installs nothing, and ends the call refused", { timeout: 60_000 }, async () => {
    const before = registry.requestedPaths().length;
    const refused = new Error("the user refused webfetch");
    const answer = async (ask: AskInput) => {
      if (ask.permission === "webfetch") throw refused;
    };
    await expect(runBash(runtime, { command: "npm install tagged", workdir: dir, description: "Installs" }, { answer })).rejects.toBe(
      refused,
    );
    expect(registry.requestedPaths().slice(before)).toEqual([]);
    expect(await exists(`${dir}/node_modules/tagged`)).toBe(false);
  });

  it("commands that fetch nothing ask nothing of webfetch", { timeout: 60_000 }, async () => {
    const { asks } = await runBash(runtime, { command: "npm run; node -e 1; echo done", workdir: dir, description: "Fetches nothing" });
    expect(webfetchAsks(asks)).toEqual([]);
  });
});
