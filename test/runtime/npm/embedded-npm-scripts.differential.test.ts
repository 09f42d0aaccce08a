/**
 * `npm run`, `npm test` and `npm start` in the embedded shell against this machine's real npm: the same
 * package.json, scripts made of shell commands only (no node), the same command lines. stdout and the
 * exit code must match, the project folder's own path told apart. Covers pre/post scripts, arguments
 * after `--` (quoted as npm quotes them), a failing script's exit code stopping its post script, a
 * missing script, the list `npm run` prints, npm_lifecycle_event and npm_package_* variables, and
 * node_modules/.bin of every level on PATH.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";

const packageJson = {
  name: "scripted",
  version: "2.3.4",
  config: { port: "8080" },
  engines: { node: ">=20" },
  scripts: {
    pretest: "echo pre $npm_lifecycle_event",
    test: "echo testing $npm_package_name $npm_package_version",
    posttest: "echo post $npm_lifecycle_event",
    start: "echo starting on $npm_package_config_port for $npm_package_engines_node",
    echoargs: "echo args:",
    fail: "echo before; exit 3",
    postfail: "echo never printed",
    event: "echo $npm_lifecycle_event / $npm_lifecycle_script",
    path: "echo $PATH | tr ':' '\\n' | grep node_modules/.bin",
    localbin: "hello-bin from script",
    chain: "npm run event && npm run echoargs -- chained",
  },
};

const steps = [
  "npm test",
  "npm run test",
  "npm start",
  "npm run echoargs -- one 'two words' \"it's\" --flag",
  "npm run echoargs one two",
  "npm run fail",
  "npm run fail; echo exit=$?",
  "npm run event",
  "npm run path",
  "npm run localbin",
  "npm run chain",
  "npm run",
  "npm run missing-script",
  "npm test && echo and-ok",
  "npm run fail || echo or-ran",
  "npm run -s event",
];

let scratch: string;

/** The environment less the npm_config_* variables an `npm exec`/`npx` parent exports from its own config. */
function withoutNpmConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}
let realDir: string;
let runtime: EmbeddedRuntime;
const embeddedDir = "/workspace/app";

/** A bin made of shell, written the same in both: real npm's PATH finds it, so must ours. */
const helloBin = '#!/bin/sh\necho hello-bin ran with "$@"\n';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "wb-npm-scripts-"));
  realDir = join(scratch, "app");
  await mkdir(join(realDir, "node_modules/.bin"), { recursive: true });
  await writeFile(join(realDir, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
  await writeFile(join(realDir, "node_modules/.bin/hello-bin"), helloBin, { mode: 0o755 });
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
  await runtime.fs.mkdir(`${embeddedDir}/node_modules/.bin`, { recursive: true });
  await runtime.fs.writeFile(`${embeddedDir}/package.json`, `${JSON.stringify(packageJson, null, 2)}\n`);
  await runtime.fs.writeFile(`${embeddedDir}/node_modules/.bin/hello-bin`, helloBin);
  await runtime.fs.chmod(`${embeddedDir}/node_modules/.bin/hello-bin`, 0o755);
}, 60_000);

afterAll(async () => {
  await runtime?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

function realRun(line: string): { stdout: string; status: number } {
  const env = {
    ...withoutNpmConfig(process.env),
    npm_config_cache: join(scratch, "cache"),
    npm_config_userconfig: join(scratch, "no-npmrc"),
    npm_config_update_notifier: "false",
  };
  try {
    return {
      stdout: execFileSync("bash", ["-c", line], { cwd: realDir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }),
      status: 0,
    };
  } catch (error) {
    const failed = error as { stdout: string; status: number };
    return { stdout: failed.stdout, status: failed.status };
  }
}

/** Only the project's own node_modules/.bin folders differ in PATH lines: the rest is the same text. */
function normalise(text: string, dir: string): string {
  return text.split(dir).join("<project>").split(join(dir, "..")).join("<above>");
}

describe("npm scripts against real npm", () => {
  for (const line of steps) {
    it(line, async () => {
      const real = realRun(line);
      const embedded = await runtime.exec(line, { cwd: embeddedDir });
      let embeddedOut = normalise(embedded.stdout, embeddedDir);
      let realOut = normalise(real.stdout, realDir);
      if (line === "npm run path") {
        // Real npm also lists node-gyp's bin folder and every folder above a temp dir: compare the project's.
        const own = (text: string) =>
          text.split("\n").filter((entry) => entry.startsWith("<project>") || entry.startsWith("> ") || entry === "");
        embeddedOut = own(embeddedOut).join("\n");
        realOut = own(realOut).join("\n");
      }
      expect({ stdout: embeddedOut, exit: embedded.exitCode }).toEqual({ stdout: realOut, exit: real.status });
    });
  }

  it("a missing script says so on stderr as npm does", async () => {
    const embedded = await runtime.exec("npm run missing-script", { cwd: embeddedDir });
    expect(embedded.stderr).toContain('npm error Missing script: "missing-script"');
    expect(embedded.stderr).toContain("npm error   npm run");
  });
});

describe("npm init -y against real npm", () => {
  it("writes npm's default package.json, named after the folder, and says where", async () => {
    const realFolder = join(scratch, "Node-My_App.js");
    await mkdir(realFolder, { recursive: true });
    const env = { ...withoutNpmConfig(process.env), npm_config_userconfig: join(scratch, "no-npmrc"), npm_config_update_notifier: "false" };
    const realOut = execFileSync("npm", ["init", "-y"], { cwd: realFolder, env, encoding: "utf8" });
    const embeddedFolder = "/workspace/Node-My_App.js";
    await runtime.fs.mkdir(embeddedFolder, { recursive: true });
    const embedded = await runtime.exec("npm init -y", { cwd: embeddedFolder });
    expect(embedded.exitCode).toBe(0);
    expect(embedded.stdout.split(embeddedFolder).join("<dir>")).toBe(realOut.split(realFolder).join("<dir>"));
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${embeddedFolder}/package.json`))).toBe(
      readFileSync(join(realFolder, "package.json"), "utf8"),
    );
  });
});
