/**
 * The embedded npm's fetches go through the webfetch permission (ExecOptions.fetchGate, asked by the bash
 * tool): one ask per registry origin with the URL as webfetch asks it; a refusal fetches nothing, installs
 * nothing, and ends the call with the refusal, as any refused permission does. A background job the agent
 * starts is asked the same way while it runs (a refusal fails the job, nothing installed). A terminal is the
 * person's own: what they type there is not the agent's doing, so its fetches are not asked about.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import type { AskInput } from "../../../src/tools/permission/types.js";
import { npmDistTags, npmFixtures } from "../../support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../../support/npm-registry.js";
import { BackgroundJobs } from "../../../src/tools/jobs/background-jobs.js";
import { ShellSession } from "../../../src/workspace/shell-session.js";
import type { ExecOptions } from "../../../src/runtime/types.js";
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

describe("npm install in a background job the agent started", () => {
  const startJob = async (answer?: (ask: AskInput) => Promise<void>) => {
    const jobs = new BackgroundJobs({ runtime, dir: "/workspace/.jobs" });
    const manifestBefore = await runtime.fs.readFile(`${dir}/package.json`);
    const { result, asks } = await runBash(
      runtime,
      { command: "npm install with-deps", workdir: dir, description: "Installs", background: true },
      { jobs, ...(answer ? { answer } : {}) },
    );
    const jobId = (result.metadata as { jobId: string }).jobId;
    const ended = await jobs.ended(jobId);
    return { asks, ended: ended!, output: await jobs.output(jobId), manifestBefore };
  };

  it("asks once for the registry's origin while the job runs, and installs when allowed", { timeout: 60_000 }, async () => {
    const { asks, ended, output } = await startJob();
    expect(ended.status, output).toBe("completed");
    const asked = webfetchAsks(asks);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.patterns).toEqual([`${registry.url}/with-deps`]);
    expect(asked[0]!.metadata).toMatchObject({ via: "npm" });
    expect(await exists(`${dir}/node_modules/with-deps/package.json`)).toBe(true);
  });

  it("a refusal fails the job saying so, fetches nothing and installs nothing, even with all of it cached", {
    timeout: 60_000,
  }, async () => {
    // The cache holds every packument and tarball: a refusal must not be taken for a network failure and
    // answered from it.
    expect((await runtime.exec("npm install with-deps && rm -rf node_modules package-lock.json", { cwd: dir })).exitCode).toBe(0);
    await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0" }, null, 2)}\n`);
    const before = registry.requestedPaths().length;
    const { asks, ended, output, manifestBefore } = await startJob(async (ask) => {
      if (ask.permission === "webfetch") throw new Error("the user refused webfetch");
    });
    expect(webfetchAsks(asks)).toHaveLength(1);
    expect(ended.status).toBe("failed");
    expect(ended.exitCode).toBe(1);
    expect(output).toContain("npm error code EFETCHREFUSED");
    expect(output).toContain(`the webfetch permission refused ${registry.url}`);
    expect(registry.requestedPaths().slice(before)).toEqual([]);
    expect(await exists(`${dir}/node_modules`)).toBe(false);
    expect(await exists(`${dir}/package-lock.json`)).toBe(false);
    expect(await runtime.fs.readFile(`${dir}/package.json`)).toEqual(manifestBefore);
  });
});

describe("a background job stopped while its ask waits", () => {
  it("withdraws the ask, fetches nothing and installs nothing", { timeout: 60_000 }, async () => {
    const jobs = new BackgroundJobs({ runtime, dir: "/workspace/.jobs" });
    const before = registry.requestedPaths().length;
    let asked!: () => void;
    const askArrived = new Promise<void>((resolve) => (asked = resolve));
    let withdrawn = false;
    // The person never answers: only the job's stop ends the wait.
    const answer = (ask: AskInput, signal?: AbortSignal) =>
      ask.permission !== "webfetch"
        ? Promise.resolve()
        : new Promise<void>((_, reject) => {
            asked();
            signal?.addEventListener("abort", () => {
              withdrawn = true;
              reject(new Error("the prompt was withdrawn"));
            });
          });
    const { result } = await runBash(
      runtime,
      { command: "npm install leaf", workdir: dir, description: "Installs", background: true },
      { jobs, answer },
    );
    const jobId = (result.metadata as { jobId: string }).jobId;
    await askArrived;
    expect(await jobs.stop(jobId)).toBe(true);
    expect(jobs.get(jobId)?.status).toBe("stopped");
    expect(withdrawn).toBe(true);
    expect(registry.requestedPaths().slice(before)).toEqual([]);
    expect(await exists(`${dir}/node_modules`)).toBe(false);
  });
});

describe("npm install typed in the person's terminal", () => {
  it("is not asked about: the terminal runs without a fetch gate and installs", { timeout: 60_000 }, async () => {
    const seen: ExecOptions[] = [];
    const watched = new Proxy(runtime, {
      get(target, key, receiver) {
        if (key === "exec")
          return (command: string, options: ExecOptions) => {
            seen.push(options);
            return target.exec(command, options);
          };
        return Reflect.get(target, key, receiver);
      },
    });
    const terminal = new ShellSession(() => watched);
    expect((await terminal.run(`cd ${dir}`)).exitCode).toBe(0);
    const result = await terminal.run("npm install with-deps");
    expect(result.exitCode, result.stderr).toBe(0);
    expect(seen.every((options) => options.fetchGate === undefined)).toBe(true);
    expect(await exists(`${dir}/node_modules/with-deps/package.json`)).toBe(true);
  });
});
