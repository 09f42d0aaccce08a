/**
 * The embedded shell's `npm install`, `npm ci` and `npm uninstall` against the real npm of this machine:
 * both install from the same registry stand-in (real tarballs made by `npm pack`), and the resulting
 * node_modules (each package folder's path and version, and the .bin names) and package-lock.json's
 * `packages` map must be the same. Real npm runs with a fresh cache and user config each time, and with
 * --ignore-scripts (this npm never runs install scripts).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { npmDistTags, npmFixtures } from "../../support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../../support/npm-registry.js";

let registry: NpmRegistry;
let scratch: string;

/** The environment less the npm_config_* variables an `npm exec`/`npx` parent exports from its own config. */
function withoutNpmConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
  scratch = await mkdtemp(join(tmpdir(), "wb-npm-diff-"));
}, 60_000);

afterAll(async () => {
  await registry?.close();
  await rm(scratch, { recursive: true, force: true });
});

/**
 * Runs real npm in `dir` with nothing of this machine's npm setup (cache, user .npmrc) leaking in. Not
 * synchronously: the registry stand-in answers from this process's event loop.
 */
async function realNpm(dir: string, args: string[]): Promise<{ stdout: string; stderr: string; status: number }> {
  const env = {
    ...withoutNpmConfig(process.env),
    npm_config_cache: join(scratch, "real-cache"),
    npm_config_userconfig: join(scratch, "empty-npmrc"),
    npm_config_globalconfig: join(scratch, "empty-global-npmrc"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_registry: `${registry.url}/`,
  };
  try {
    const { stdout, stderr } = await promisify(execFile)("npm", [...args, "--ignore-scripts"], { cwd: dir, env, encoding: "utf8" });
    return { stdout, stderr, status: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, status: failed.code };
  }
}

/** Package folders (path -> version) and .bin entries under a node_modules on the real disk. */
async function diskTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (modules: string, prefix: string) => {
    let names: string[];
    try {
      names = await readdir(modules);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name === ".package-lock.json") continue;
      if (name === ".bin") {
        for (const bin of (await readdir(join(modules, name))).sort()) out[`${prefix}node_modules/.bin/${bin}`] = "bin";
        continue;
      }
      const folders = name.startsWith("@") ? (await readdir(join(modules, name))).map((inner) => `${name}/${inner}`) : [name];
      for (const folder of folders) {
        const manifest = JSON.parse(await readFile(join(modules, folder, "package.json"), "utf8")) as { version: string };
        out[`${prefix}node_modules/${folder}`] = manifest.version;
        await visit(join(modules, folder, "node_modules"), `${prefix}node_modules/${folder}/`);
      }
    }
  };
  await visit(join(dir, "node_modules"), "");
  return out;
}

/** The same for the embedded runtime's files. */
async function embeddedTree(runtime: EmbeddedRuntime, dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (modules: string, prefix: string) => {
    let names: string[];
    try {
      names = (await runtime.fs.readdir(modules)).map((entry) => entry.name);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name === ".package-lock.json") continue;
      if (name === ".bin") {
        for (const bin of (await runtime.fs.readdir(`${modules}/${name}`)).map((entry) => entry.name).sort())
          out[`${prefix}node_modules/.bin/${bin}`] = "bin";
        continue;
      }
      const folders = name.startsWith("@")
        ? (await runtime.fs.readdir(`${modules}/${name}`)).map((inner) => `${name}/${inner.name}`)
        : [name];
      for (const folder of folders) {
        const manifest = JSON.parse(new TextDecoder().decode(await runtime.fs.readFile(`${modules}/${folder}/package.json`))) as {
          version: string;
        };
        out[`${prefix}node_modules/${folder}`] = manifest.version;
        await visit(`${modules}/${folder}/node_modules`, `${prefix}node_modules/${folder}/`);
      }
    }
  };
  await visit(`${dir}/node_modules`, "");
  return out;
}

interface Scenario {
  packageJson: Record<string, unknown>;
  /** Command lines run in order, in both (each begins with `npm`). */
  steps: string[];
}

async function runBoth(name: string, scenario: Scenario) {
  const real = join(scratch, name);
  await mkdir(real, { recursive: true });
  await writeFile(join(scratch, "empty-npmrc"), "");
  await writeFile(join(scratch, "empty-global-npmrc"), "");
  await writeFile(join(real, "package.json"), `${JSON.stringify(scenario.packageJson, null, 2)}\n`);
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
  const dir = "/workspace";
  await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify(scenario.packageJson, null, 2)}\n`);
  await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\n`);
  const outcomes: Array<{
    step: string;
    real: number;
    embedded: number | null;
    embeddedErr: string;
    realOut: string;
    embeddedOut: string;
  }> = [];
  for (const step of scenario.steps) {
    const realRun = await realNpm(real, step.split(" ").slice(1));
    const embeddedRun = await runtime.exec(step, { cwd: dir });
    outcomes.push({
      step,
      real: realRun.status,
      embedded: embeddedRun.exitCode,
      embeddedErr: embeddedRun.stderr,
      realOut: realRun.stdout.split(real).join("<project>"),
      embeddedOut: embeddedRun.stdout.split(dir).join("<project>"),
    });
  }
  const readLock = async () => JSON.parse(await readFile(join(real, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
  const embeddedLock = async () =>
    JSON.parse(new TextDecoder().decode(await runtime.fs.readFile(`${dir}/package-lock.json`))) as { packages: Record<string, unknown> };
  return { real, runtime, dir, outcomes, readLock, embeddedLock };
}

/** Every step exits as real npm's did, and node_modules, package.json and package-lock.json end the same. */
async function expectSameEnd(both: Awaited<ReturnType<typeof runBoth>>) {
  for (const outcome of both.outcomes)
    expect({
      step: outcome.step,
      exit: outcome.embedded,
      err: outcome.embeddedErr.includes("npm error") ? outcome.embeddedErr : "",
    }).toEqual({ step: outcome.step, exit: outcome.real, err: "" });
  expect(await embeddedTree(both.runtime, both.dir)).toEqual(await diskTree(both.real));
  expect(JSON.parse(new TextDecoder().decode(await both.runtime.fs.readFile(`${both.dir}/package.json`)))).toEqual(
    JSON.parse(await readFile(join(both.real, "package.json"), "utf8")),
  );
  // The lockfile's text is laid out as npm's, key for key.
  expect(new TextDecoder().decode(await both.runtime.fs.readFile(`${both.dir}/package-lock.json`))).toBe(
    await readFile(join(both.real, "package-lock.json"), "utf8"),
  );
}

describe("npm install against real npm from the same registry", () => {
  it("a tree with dependencies, a bin, a scoped package and a nested version conflict", async () => {
    const both = await runBoth("tree", {
      packageJson: {
        name: "app",
        version: "1.0.0",
        dependencies: { "with-deps": "^1.0.0", "needs-leaf2": "^1.0.0", "tool-bin": "^1.0.0" },
        devDependencies: { "@scope/util": "1.0.0" },
      },
      steps: ["npm install", "npm ls", "npm ls --all"],
    });
    try {
      for (const outcome of both.outcomes)
        expect({
          step: outcome.step,
          exit: outcome.embedded,
          err: outcome.embeddedErr.includes("npm error") ? outcome.embeddedErr : "",
        }).toEqual({ step: outcome.step, exit: outcome.real, err: "" });
      const realTree = await diskTree(both.real);
      expect(realTree["node_modules/with-deps/node_modules/leaf"]).toBe("1.1.0");
      expect(await embeddedTree(both.runtime, both.dir)).toEqual(realTree);
      expect((await both.embeddedLock()).packages).toEqual((await both.readLock()).packages);
      await expectSameEnd(both);
      for (const outcome of both.outcomes.slice(1))
        expect({ step: outcome.step, out: outcome.embeddedOut }).toEqual({ step: outcome.step, out: outcome.realOut });
    } finally {
      await both.runtime.dispose();
    }
  }, 60_000);

  it("npm ci from the lockfile of an install", async () => {
    const both = await runBoth("ci", {
      packageJson: {
        name: "ci-app",
        version: "0.1.0",
        dependencies: { "with-deps": "^1.0.0", tagged: "^1.0.0" },
        optionalDependencies: { leaf: "^2.0.0" },
      },
      steps: ["npm install", "npm ci"],
    });
    try {
      await expectSameEnd(both);
    } finally {
      await both.runtime.dispose();
    }
  }, 60_000);

  it("adding packages by name and range, then uninstalling one", async () => {
    const both = await runBoth("add-remove", {
      packageJson: { name: "grow", version: "1.0.0" },
      steps: ["npm install with-deps tool-bin @scope/util@~1.0.0", "npm install -D needs-leaf2", "npm uninstall with-deps"],
    });
    try {
      await expectSameEnd(both);
    } finally {
      await both.runtime.dispose();
    }
  }, 90_000);

  it("an existing lockfile's versions are kept when they still fit", async () => {
    const both = await runBoth("keep-lock", {
      packageJson: { name: "pinned", version: "1.0.0" },
      steps: ["npm install leaf@1.0.0 --save-exact", "npm install with-deps", "npm install"],
    });
    try {
      await expectSameEnd(both);
    } finally {
      await both.runtime.dispose();
    }
  }, 90_000);
});
