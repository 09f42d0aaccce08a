/**
 * A published package's own test suite, run by its real test runner from node_modules, in the embedded
 * shell's node and in real node (20, on this machine) on the same files: minimist 1.2.8's tests (they ship
 * in its npm tarball) under tape 5, whose dependency tree (over a hundred packages, some four thousand
 * files) is a workout for the module loader. The TAP report must be the same line for line when all pass;
 * with minimist broken on purpose, the same tests must fail and both must exit 1.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { packageTree } from "../support/package-tree.js";

const ROOT = "/workspace/suite";
const COMMAND = "cd node_modules/minimist && node ../tape/bin/tape 'test/*.js'";

let runtime: EmbeddedRuntime;
let real: string;
let tree: Map<string, Uint8Array>;

/** The TAP lines that say what ran and how it ended: results and the totals, not the failure's details. */
function verdicts(stdout: string): string[] {
  return stdout.split("\n").filter((line) => /^(?:(?:not )?ok \d+|# (?:tests|pass|fail) |1\.\.\d+)/.test(line));
}

function count(stdout: string, what: "tests" | "pass" | "fail"): number {
  return Number(new RegExp(`^# ${what} +(\\d+)$`, "m").exec(stdout)?.[1] ?? 0);
}

async function writeBoth(path: string, data: Uint8Array): Promise<void> {
  mkdirSync(dirname(join(real, path)), { recursive: true });
  writeFileSync(join(real, path), data);
  await runtime.writeMany([{ path: `${ROOT}/${path}`, data }]);
}

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  real = mkdtempSync(join(tmpdir(), "node-third-party-"));
  tree = packageTree(process.cwd(), ["minimist", "tape"]);
  for (const [path, data] of tree) {
    mkdirSync(dirname(join(real, path)), { recursive: true });
    writeFileSync(join(real, path), data);
  }
  await runtime.writeMany([...tree].map(([path, data]) => ({ path: `${ROOT}/${path}`, data })));
}, 300_000);

afterAll(async () => {
  await runtime.dispose();
  rmSync(real, { recursive: true, force: true });
});

function realRun(): { stdout: string; status: number | null } {
  return spawnSync("bash", ["-c", COMMAND], { cwd: real, encoding: "utf8", env: { PATH: process.env.PATH, HOME: real } });
}

describe("minimist's own tests under tape, against real node", () => {
  it("pass as they do in real node: the same TAP report line for line, exit 0", { timeout: 300_000 }, async () => {
    const expected = realRun();
    expect(expected.status).toBe(0);
    expect(count(expected.stdout, "pass")).toBeGreaterThan(100);
    const actual = await runtime.exec(COMMAND, { cwd: ROOT });
    expect(actual.stderr).toBe("");
    expect(actual.stdout).toBe(expected.stdout);
    expect(actual.exitCode).toBe(0);
  });

  it("with minimist broken on purpose, the same tests fail and both exit 1", { timeout: 300_000 }, async () => {
    const path = "node_modules/minimist/index.js";
    const original = tree.get(path)!;
    const broken = new TextDecoder().decode(original).replace("function isNumber(x) {", "function isNumber(x) {\n\treturn false;");
    expect(broken).not.toBe(new TextDecoder().decode(original));
    await writeBoth(path, new TextEncoder().encode(broken));
    try {
      const expected = realRun();
      const actual = await runtime.exec(COMMAND, { cwd: ROOT });
      expect(count(expected.stdout, "fail")).toBeGreaterThan(0);
      expect(verdicts(actual.stdout)).toEqual(verdicts(expected.stdout));
      expect(count(actual.stdout, "pass")).toBe(count(expected.stdout, "pass"));
      expect(actual.exitCode).toBe(expected.status);
      expect(actual.exitCode).toBe(1);
    } finally {
      await writeBoth(path, original);
    }
  });
});
