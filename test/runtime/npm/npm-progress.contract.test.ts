/**
 * A large install tells how far it got while it runs (progress.ts): lines on stderr as packuments are
 * read, tarballs fetched and packages unpacked, arriving before the install ends, at most one per tenth of
 * each phase. As real npm draws its bar only on a terminal, nothing is printed when stderr goes elsewhere
 * (a redirection, a pipe), and a small install prints none. Everything is fetched before node_modules
 * changes, so a failed fetch leaves it as it was.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import type { OutputChunk } from "../../../src/runtime/types.js";
import { largeNpmTree } from "../../support/npm-large-tree.js";
import { startNpmRegistry, type NpmRegistry } from "../../support/npm-registry.js";

let registry: NpmRegistry;
let runtime: EmbeddedRuntime;
const dir = "/workspace/app";
const tree = largeNpmTree();
const exists = (path: string) =>
  runtime.fs.stat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  registry = await startNpmRegistry([...tree.packages, { name: "small", version: "1.0.0" }]);
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
}, 120_000);

afterAll(async () => {
  await runtime?.dispose();
  await registry?.close();
});

beforeEach(async () => {
  registry.setOffline(false);
  await runtime.fs.rm(dir, { recursive: true, force: true });
  await runtime.fs.mkdir(dir, { recursive: true });
  const manifest = { name: "app", version: "1.0.0", dependencies: tree.dependencies };
  await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  // Its own cache folder per test, so each install fetches.
  await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\ncache=/tmp/npm-cache-${Math.random().toString(36).slice(2)}\n`);
});

interface Run {
  exitCode: number | null;
  chunks: OutputChunk[];
  /** For each progress line, whether node_modules existed when it arrived. */
  seenWith: Promise<boolean>[];
}

async function install(command: string): Promise<Run> {
  const chunks: OutputChunk[] = [];
  const seenWith: Promise<boolean>[] = [];
  const result = await runtime.exec(command, {
    cwd: dir,
    onOutput: (chunk) => {
      chunks.push(chunk);
      if (chunk.text.includes("npm progress: fetched")) seenWith.push(exists(`${dir}/node_modules/.package-lock.json`));
    },
  });
  return { exitCode: result.exitCode, chunks, seenWith };
}

const progressLines = (chunks: OutputChunk[]) =>
  chunks
    .filter((chunk) => chunk.stream === "stderr")
    .flatMap((chunk) => chunk.text.split("\n"))
    .filter((line) => line.startsWith("npm progress:"));

describe("npm install: progress while it runs", () => {
  it("counts packuments, fetches and unpacks of a 100-package tree, in order, before the summary", { timeout: 120_000 }, async () => {
    const run = await install("npm install");
    expect(run.exitCode).toBe(0);
    const lines = progressLines(run.chunks);
    // 106 folders: the shared package's conflicting version is nested under several parents.
    const added = Number(/added (\d+) packages/.exec(run.chunks.map((chunk) => chunk.text).join(""))![1]);
    expect(added).toBeGreaterThanOrEqual(100);
    const resolved = lines.filter((line) => line.includes("resolved")).map((line) => Number(/resolved (\d+)/.exec(line)![1]));
    // 99 distinct names: a line at each 25.
    expect(resolved).toEqual([25, 50, 75]);
    const phase = (verb: string) =>
      lines.filter((line) => line.includes(verb)).map((line) => /(\d+) of (\d+)/.exec(line)!.slice(1).map(Number) as [number, number]);
    for (const verb of ["fetched", "unpacked"]) {
      const counts = phase(verb);
      expect(counts).toHaveLength(10);
      expect(counts.every(([, total]) => total === added)).toBe(true);
      // A line as each tenth is reached, the last at the total.
      expect(counts.map(([count]) => count)).toEqual(Array.from({ length: 10 }, (_, step) => Math.ceil(((step + 1) * added) / 10)));
    }
    // Resolving, then fetching, then unpacking; and all of it before npm's closing line.
    const at = (text: string) => {
      const index = run.chunks.findIndex((chunk) => chunk.text.includes(text));
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    const tenth = Math.ceil(added / 10);
    expect(at("resolved 75")).toBeLessThan(at(`fetched ${tenth} of`));
    expect(at(`fetched ${added} of`)).toBeLessThan(at(`unpacked ${tenth} of`));
    expect(at(`unpacked ${added} of`)).toBeLessThan(at(`added ${added} packages`));
    // The first fetch lines came while node_modules was still untouched: they were live, not handed over at the end.
    expect(await run.seenWith[0]).toBe(false);
    expect(await exists(`${dir}/node_modules/bench-pkg-97/lib/part-2.js`)).toBe(true);
  });

  it("prints no progress when stderr is redirected or piped, as npm draws none off a terminal", { timeout: 120_000 }, async () => {
    const piped = await install("npm install 2>&1 | cat");
    expect(piped.exitCode).toBe(0);
    expect(piped.chunks.map((chunk) => chunk.text).join("")).toMatch(/added 10\d packages/);
    expect(progressLines(piped.chunks)).toEqual([]);
    await runtime.fs.rm(`${dir}/node_modules`, { recursive: true, force: true });
    const redirected = await install("npm ci 2>/tmp/npm-err.txt");
    expect(redirected.exitCode).toBe(0);
    expect(new TextDecoder().decode(await runtime.fs.readFile("/tmp/npm-err.txt"))).not.toContain("npm progress");
  });

  it("npm ci counts its fetches and unpacks too, and --silent prints none", { timeout: 120_000 }, async () => {
    expect((await install("npm install --silent")).chunks.filter((chunk) => chunk.text.includes("npm progress"))).toEqual([]);
    const ci = await install("npm ci");
    expect(ci.exitCode).toBe(0);
    const lines = progressLines(ci.chunks);
    expect(lines.filter((line) => line.includes("unpacked"))).toHaveLength(10);
    expect(lines.filter((line) => line.includes("resolved"))).toEqual([]);
  });

  it("a small install prints no progress at all", { timeout: 60_000 }, async () => {
    await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0" })}\n`);
    const run = await install("npm install small");
    expect(run.exitCode).toBe(0);
    expect(progressLines(run.chunks)).toEqual([]);
  });

  it("a fetch that fails part-way leaves node_modules and package.json as they were", { timeout: 120_000 }, async () => {
    expect((await install("npm install")).exitCode).toBe(0);
    const manifestBefore = await runtime.fs.readFile(`${dir}/package.json`);
    // A new cache and the registry gone: the packument of `small` cannot be had.
    await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\ncache=/tmp/npm-cache-empty-${Date.now()}\n`);
    await runtime.fs.rm(`${dir}/node_modules/bench-pkg-5`, { recursive: true, force: true });
    registry.setOffline(true);
    const failed = await install("npm install small");
    expect(failed.exitCode).toBe(1);
    expect(await runtime.fs.readFile(`${dir}/package.json`)).toEqual(manifestBefore);
    expect(await exists(`${dir}/node_modules/small`)).toBe(false);
    // npm ci empties node_modules only once every tarball is in hand: here none can be had.
    const ci = await install("npm ci");
    expect(ci.exitCode).toBe(1);
    expect(ci.chunks.map((chunk) => chunk.text).join("")).toContain("ENOTCACHED");
    expect(await exists(`${dir}/node_modules/bench-pkg-0/package.json`)).toBe(true);
    expect(await exists(`${dir}/node_modules/bench-pkg-5`)).toBe(false);
  });
});
