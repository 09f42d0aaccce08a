/**
 * Attacks on the embedded shell's `node` in the CLI's runtime (worker threads): a program must reach only
 * the workspace's files (and /tmp). Each attack shows that nothing outside changed: a marker file on the
 * real disk stays as it was, and the real process is never reached. A runaway loop ends on Stop within a
 * second, an endless allocation ends in an error, and the shell and its files go on after both.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { applyChanges } from "../../src/runtime/embedded/node/snapshot.js";

let runtime: EmbeddedRuntime;
let outside: string;
let marker: string;

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, limits: { maxLoopIterations: null } });
  outside = mkdtempSync(join(tmpdir(), "node-sandbox-attack-"));
  marker = join(outside, "marker.txt");
  writeFileSync(marker, "untouched");
});

afterAll(async () => {
  await runtime.dispose();
  rmSync(outside, { recursive: true, force: true });
});

/** Runs a program given as text (written to the workspace first) and returns what it printed. */
async function program(code: string, file = "attack.js") {
  await runtime.fs.writeFile(`/workspace/${file}`, code);
  return runtime.exec(`node ${file}`);
}

function expectOutsideUntouched(): void {
  expect(readFileSync(marker, "utf8")).toBe("untouched");
  expect(existsSync(join(outside, "pwned.txt"))).toBe(false);
}

describe("a program in the CLI's embedded node reaches nothing but the workspace", () => {
  it("finds no real process through the constructor chain, globalThis or getBuiltinModule", async () => {
    const result = await program(`
const tries = {
  chain: () => this.constructor.constructor("return process")().binding("fs"),
  fnChain: () => (function () {}).constructor("return process")().mainModule,
  globalProcess: () => globalThis.process.binding("fs"),
  builtin: () => process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(join(outside, "pwned.txt"))}, "x"),
  // The receivers of the frames below: any with a process other than the program's own would be the real one.
  stack: () => { Error.prepareStackTrace = (e, frames) => frames.map((f) => f.getThis && f.getThis()); return new Error().stack.filter((t) => t && t.process && t.process !== process).length === 0 ? "only the program's process" : "REAL PROCESS"; },
};
for (const [name, attempt] of Object.entries(tries)) {
  try { console.log(name, "->", String(attempt())); } catch (error) { console.log(name, "refused:", error.code || error.name); }
}`);
    expect(result.stdout).not.toMatch(/-> \[object process\]/);
    expect(result.stdout).toMatch(/chain refused/);
    expect(result.stdout).toMatch(/globalProcess refused/);
    // getBuiltinModule gives this runtime's fs, over the workspace: the real path is not there.
    expect(result.stdout).toMatch(/builtin refused: ENOENT/);
    expect(result.stdout).toMatch(/stack -> only the program's process/);
    expectOutsideUntouched();
  });

  it("cannot import the real fs or child_process: import(), however spelled, reaches this runtime's modules or nothing", async () => {
    const result = await program(`
const targets = ["node:fs", "node:child_process", "file://${marker}"];
const ways = [(t) => import(t), (t) => eval("import(t)"), (t) => Function("t", "return import(t)")(t), (t) => (0, eval)("import('" + t + "')")];
// What loads is this runtime's module (over the workspace), which cannot read the real disk.
// A child_process that loads is this runtime's: its commands run in the embedded shell, which has no marker
// to read, and what they write stays there (the real marker is checked below).
const probe = (m) => {
  if (typeof m.execSync === "function") {
    let seen = "";
    try { seen = String(m.execSync("cat ${marker}", { stdio: "pipe" })); } catch (e) { seen = e.code || "failed"; }
    try { m.execSync("echo pwned > ${marker}", { stdio: "pipe" }); } catch {}
    return seen.includes("untouched") ? "READ THE REAL DISK" : "loaded, the workbench's own";
  }
  try { m.readFileSync(${JSON.stringify(marker)}); return "READ THE REAL DISK"; } catch (e) { return "loaded, no real disk"; }
};
Promise.all(targets.flatMap((t) => ways.map((way, i) => Promise.resolve().then(() => way(t)).then((m) => t + " " + i + " " + probe(m), (e) => t + " " + i + " refused")))).then((lines) => console.log(lines.join("\\n")));`);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(12);
    for (const line of lines) expect(line).toMatch(/ (refused|loaded, no real disk|loaded, the workbench's own)$/);
    const childProcess = lines.filter((line) => line.startsWith("node:child_process"));
    expect(childProcess.every((line) => line.endsWith("refused") || line.endsWith("loaded, the workbench's own"))).toBe(true);
    expectOutsideUntouched();
  });

  it("sees only the workspace's files: the real disk is not there, and writes outside the workspace vanish", async () => {
    const result = await program(`
const fs = require("fs");
for (const path of [${JSON.stringify(marker)}, "/etc/passwd", "/proc/self/environ"]) {
  try { fs.readFileSync(path); console.log("read", path); } catch (error) { console.log("no", error.code); }
}
fs.mkdirSync("/etc", { recursive: true });
fs.writeFileSync("/etc/pwned.txt", "x");
fs.writeFileSync("/elsewhere.txt", "x");
fs.writeFileSync("/tmp/scratch.txt", "kept");
fs.writeFileSync("inside.txt", "kept");`);
    expect(result.stdout).toBe("no ENOENT\nno ENOENT\nno ENOENT\n");
    expectOutsideUntouched();
    await expect(runtime.fs.stat("/elsewhere.txt")).rejects.toThrow();
    await expect(runtime.fs.stat("/etc/pwned.txt")).rejects.toThrow();
    expect(new TextDecoder().decode(await runtime.fs.readFile("/tmp/scratch.txt"))).toBe("kept");
    expect(new TextDecoder().decode(await runtime.fs.readFile("/workspace/inside.txt"))).toBe("kept");
  });

  it("has no network: fetch, WebSocket and the http modules are not there", async () => {
    const result = await program(`
console.log(typeof fetch, typeof WebSocket, typeof XMLHttpRequest);
for (const name of ["http", "https", "net"]) { try { require(name); } catch (error) { console.log(error.message); } }`);
    expect(result.stdout.split("\n")[0]).toBe("undefined undefined undefined");
    expect(result.stdout).toContain("node:http is not available in the workbench's embedded node: there is no network here");
    expect(result.stdout).toContain("node:net is not available");
  });

  it("a forged exit message cannot write outside the roots, even with ..", async () => {
    await runtime.fs.mkdir("/secret", { recursive: true });
    await runtime.fs.writeFile("/secret/key", "old");
    await applyChanges(
      runtime.fs,
      {
        directories: ["/workspace/../secret/new", "/other"],
        files: [
          { path: "/workspace/../secret/key", kind: "file", data: new TextEncoder().encode("stolen"), mode: 0o644, mtimeMs: 0 },
          { path: "/workspace/ok.txt", kind: "file", data: new TextEncoder().encode("fine"), mode: 0o644, mtimeMs: 0 },
        ],
        removed: ["/workspace/..", "/secret/key", "/workspace"],
      },
      ["/workspace", "/tmp"],
    );
    expect(new TextDecoder().decode(await runtime.fs.readFile("/secret/key"))).toBe("old");
    await expect(runtime.fs.stat("/secret/new")).rejects.toThrow();
    await expect(runtime.fs.stat("/other")).rejects.toThrow();
    expect(new TextDecoder().decode(await runtime.fs.readFile("/workspace/ok.txt"))).toBe("fine");
  });

  it("Stop ends `while(true){}` within a second; the shell and its files go on", { timeout: 30_000 }, async () => {
    await runtime.fs.writeFile("/workspace/kept.txt", "kept");
    const controller = new AbortController();
    let stoppedAt = 0;
    setTimeout(() => {
      stoppedAt = Date.now();
      controller.abort();
    }, 1_500);
    const result = await runtime.exec("node -e 'while (true) {}'", { signal: controller.signal });
    expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    expect(result.aborted).toBe(true);
    const after = await runtime.exec("cat kept.txt && node -p '6 * 7'");
    expect(after.stdout).toBe("kept42\n");
  });

  it("an endless allocation ends in an error, not a crash; the shell goes on", { timeout: 120_000 }, async () => {
    const result = await runtime.exec("node -e 'const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random()))'");
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/out of memory|heap/i);
    const after = await runtime.exec("node -p '1 + 1'");
    expect(after.stdout).toBe("2\n");
  });
});
