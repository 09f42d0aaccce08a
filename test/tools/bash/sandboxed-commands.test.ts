/**
 * The runtime declares which commands run sandboxed (Runtime.sandboxedCommands), and the bash tool's
 * permission rules read that: inline code for a sandboxed interpreter is judged as any command (no
 * `(unresolved)` ask about code nobody can read); on the node runtime (the real machine) it still asks.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../../src/runtime/node/index.js";
import type { Runtime } from "../../../src/runtime/types.js";
import { runBash } from "./harness.js";

const unresolvedAsks = async (runtime: Runtime, command: string) => {
  const { asks } = await runBash(runtime, { command, description: "Runs inline code" });
  return asks.filter(
    (ask) => ask.permission === "external_directory" && ask.patterns.some((pattern) => pattern.startsWith("(unresolved)")),
  );
};

describe("the embedded runtime declares its sandboxed commands", () => {
  let plain: EmbeddedRuntime;
  let withPython: EmbeddedRuntime;
  beforeAll(async () => {
    plain = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    // A python sandbox that never loads: only the asks before running are looked at.
    withPython = await createEmbeddedRuntime({
      workerFactory: nodeShellWorkerFactory,
      python: () => Promise.reject(new Error("no interpreter in this test")),
    });
  });
  afterAll(async () => {
    await plain.dispose();
    await withPython.dispose();
  });

  it("node, npm and npx always; python3 and python only with a python sandbox", () => {
    expect(plain.sandboxedCommands).toEqual(["node", "npm", "npx"]);
    expect(withPython.sandboxedCommands).toEqual(expect.arrayContaining(["node", "npm", "npx", "python3", "python"]));
  });

  it("inline code for node and python3 asks nothing about code it cannot read", { timeout: 30_000 }, async () => {
    expect(await unresolvedAsks(withPython, "node -e 'console.log(1)'")).toEqual([]);
    expect(await unresolvedAsks(withPython, "python3 -c 'print(1)'")).toEqual([]);
    expect(await unresolvedAsks(withPython, "echo 'print(1)' | python3")).toEqual([]);
  });

  it("without a python sandbox, python3's inline code still asks (whatever would run it is not ours)", { timeout: 30_000 }, async () => {
    expect(await unresolvedAsks(plain, "python3 -c 'print(1)'")).toHaveLength(1);
    // A sandboxed program's path arguments are still judged: a script outside the workspace asks.
    const { asks } = await runBash(plain, { command: "node /etc/hostname.js", description: "Runs a script outside" });
    expect(asks.some((ask) => ask.permission === "external_directory" && ask.patterns.some((pattern) => pattern.startsWith("/etc")))).toBe(
      true,
    );
  });
});

describe("the node runtime declares none", () => {
  let runtime: Runtime;
  let base: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "wb-sandboxed-")));
    runtime = createNodeRuntime({ root: base });
  });
  afterAll(async () => rm(base, { recursive: true, force: true }));

  it("and node -e and python3 -c there ask about their code", { timeout: 30_000 }, async () => {
    expect(runtime.sandboxedCommands ?? []).toEqual([]);
    expect(await unresolvedAsks(runtime, "node -e 'console.log(1)'")).toHaveLength(1);
    expect(await unresolvedAsks(runtime, "python3 -c 'print(1)'")).toHaveLength(1);
  });
});
