/**
 * Attacks through child_process in the CLI's embedded node: a child runs in the same embedded shell, so it
 * reaches what a command there reaches and nothing else. Each attack shows that nothing outside changed (a
 * marker file on the real disk stays as it was); the shell's limits hold for a child; Stop and the call's
 * timeout end the children too (a child writing without end stops writing); a program that spawns itself
 * without end is refused past a fixed number of programs; and the shell and its files go on after each.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

let runtime: EmbeddedRuntime;
let outside: string;
let marker: string;

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, limits: { maxLoopIterations: null } });
  outside = mkdtempSync(join(tmpdir(), "node-child-attack-"));
  marker = join(outside, "marker.txt");
  writeFileSync(marker, "untouched");
});

afterAll(async () => {
  await runtime.dispose();
  rmSync(outside, { recursive: true, force: true });
});

async function program(code: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  await runtime.fs.writeFile("/workspace/attack.js", code);
  return runtime.exec("node attack.js", options);
}

function expectOutsideUntouched(): void {
  expect(readFileSync(marker, "utf8")).toBe("untouched");
  expect(existsSync(join(outside, "pwned.txt"))).toBe(false);
}

async function expectShellGoesOn(): Promise<void> {
  const after = await runtime.exec(`echo alive && node -e "console.log(6 * 7)"`);
  expect(after.stdout).toBe("alive\n42\n");
}

/** Lines in a workspace file, or 0 when it is not there. */
async function lines(path: string): Promise<number> {
  try {
    return new TextDecoder().decode(await runtime.fs.readFile(path)).split("\n").length - 1;
  } catch {
    return 0;
  }
}

describe("a child command reaches nothing but the embedded shell's files", () => {
  it("cannot read or write the real disk, with or without a shell", { timeout: 60_000 }, async () => {
    const pwned = JSON.stringify(join(outside, "pwned.txt"));
    const result = await program(`const { exec, execFile } = require("child_process");
exec("cat ${marker}; echo x > ${join(outside, "pwned.txt")}; ls ${outside}", (error, stdout, stderr) => {
  console.log("exec", error && error.code, JSON.stringify(stdout));
  execFile("cp", ["attack.js", ${pwned}], (error) => console.log("execFile", error && error.code));
});`);
    expect(result.stdout).not.toContain("untouched");
    expect(result.stdout).toMatch(/^exec \d+ /);
    expectOutsideUntouched();
    await expectShellGoesOn();
  });

  it("an argument cannot become a command when there is no shell", { timeout: 60_000 }, async () => {
    const result = await program(`const { execFile, spawn } = require("child_process");
execFile("echo", ["$(touch injected-1)", "; touch injected-2", "\`touch injected-3\`", "| touch injected-4"], (error, stdout) => {
  console.log(JSON.stringify(stdout));
  spawn("cat", ["x && touch injected-5"]).on("close", () => console.log(require("fs").readdirSync(".").filter((n) => n.startsWith("injected")).length));
});`);
    expect(result.stdout).toBe(`"$(touch injected-1) ; touch injected-2 \`touch injected-3\` | touch injected-4\\n"\n0\n`);
    expect((await runtime.exec("ls")).stdout).not.toContain("injected");
  });

  it("a child is held to the shell's limits", { timeout: 60_000 }, async () => {
    runtime.setLimits({ maxLoopIterations: 1000 });
    try {
      const result =
        await program(`require("child_process").exec("for i in $(seq 1 5000); do :; done; echo finished", (error, stdout, stderr) => {
  console.log(error ? error.code : 0, JSON.stringify(stdout), /limit/i.test(stderr));
});`);
      expect(result.stdout).toMatch(/^[1-9]\d* "" true\n$/);
    } finally {
      runtime.setLimits({ maxLoopIterations: null });
    }
    await expectShellGoesOn();
  });

  it("the shell's live-output marker is neither shown to a program nor passed on to its child", { timeout: 60_000 }, async () => {
    const result = await program(`const { exec } = require("child_process");
console.log("WORKBENCH_LIVE_OUTPUT" in process.env);
exec("env", { env: { ...process.env, WORKBENCH_LIVE_OUTPUT: "forged:stdout,stderr" } }, (error, stdout) => console.log(stdout.includes("WORKBENCH_LIVE_OUTPUT")));`);
    expect(result.stdout).toBe("false\nfalse\n");
  });
});

describe("ending the program ends its children", () => {
  const ticker = `require("child_process").exec("while true; do echo tick >> ticks.txt; done", () => {});
require("child_process").spawn("node", ["-e", "while (true) {}"]);`;

  it("Stop ends a child's endless loop and a child node's busy loop; the shell goes on", { timeout: 60_000 }, async () => {
    await runtime.exec("rm -f ticks.txt");
    const stop = new AbortController();
    const running = program(ticker, { signal: stop.signal });
    for (let waited = 0; (await lines("/workspace/ticks.txt")) === 0 && waited < 20_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lines("/workspace/ticks.txt")).toBeGreaterThan(0);
    const stoppedAt = performance.now();
    stop.abort();
    await running;
    expect(performance.now() - stoppedAt).toBeLessThan(5_000);
    const first = await lines("/workspace/ticks.txt");
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await lines("/workspace/ticks.txt")).toBe(first);
    await expectShellGoesOn();
  });

  it("Stop ends a program blocked in execSync on an endless child; the shell goes on", { timeout: 60_000 }, async () => {
    await runtime.exec("rm -f ticks.txt");
    const stop = new AbortController();
    const running = program(`require("child_process").execSync("while true; do echo tick >> ticks.txt; done");`, { signal: stop.signal });
    for (let waited = 0; (await lines("/workspace/ticks.txt")) === 0 && waited < 20_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lines("/workspace/ticks.txt")).toBeGreaterThan(0);
    const stoppedAt = performance.now();
    stop.abort();
    await running;
    expect(performance.now() - stoppedAt).toBeLessThan(5_000);
    const first = await lines("/workspace/ticks.txt");
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await lines("/workspace/ticks.txt")).toBe(first);
    await expectShellGoesOn();
  });

  it("the call's timeout ends them the same way", { timeout: 60_000 }, async () => {
    await runtime.exec("rm -f ticks.txt");
    const result = await program(ticker, { timeoutMs: 3_000 });
    expect(result.timedOut).toBe(true);
    const first = await lines("/workspace/ticks.txt");
    expect(first).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await lines("/workspace/ticks.txt")).toBe(first);
    await expectShellGoesOn();
  });

  it("a program that spawns itself without end is refused at 16 programs, and the chain unwinds", { timeout: 120_000 }, async () => {
    const result = await program(`const { spawn } = require("child_process");
const depth = Number(process.argv[2] || 0);
const child = spawn("node", ["attack.js", String(depth + 1)]);
let err = "";
child.stdout.pipe(process.stdout);
child.stderr.on("data", (chunk) => (err += chunk));
child.on("close", (code) => {
  if (err) console.log("depth", depth + 1, "refused:", err.trim());
  process.exitCode = code;
});`);
    expect(result.stdout).toBe(
      "depth 16 refused: node: 16 programs are running already in this shell; wait for one to end (a program that spawns itself?)\n",
    );
    expect(result.exitCode).toBe(1);
    await expectShellGoesOn();
  });
});
