/**
 * child_process promises with no real-node twin: fork says which form to use (there is no IPC channel; the
 * page's refusal of the sync forms is in e2e/node-child.spec.ts), many children at once all finish with
 * their own results, a program run through runNodeProgram without a shell gets a clear 127, and text goes
 * through a child and back unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { runNodeProgram } from "../../src/runtime/embedded/node/command.js";
import { nodeRuntimeScript } from "../../src/runtime/embedded/node/runtime-bundle.node.js";
import { createNodeSandbox } from "../../src/runtime/embedded/sandbox/node-sandbox.js";

let runtime: EmbeddedRuntime;

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
});

afterAll(async () => runtime.dispose());

async function program(code: string, file = "main.js") {
  await runtime.fs.writeFile(`/workspace/${file}`, code);
  return runtime.exec(`node ${file}`);
}

describe("child_process's forms that cannot work here", () => {
  it("fork says it needs an IPC channel and offers spawn(process.execPath, ...)", { timeout: 60_000 }, async () => {
    const result = await program(
      `try { require("child_process").fork("x.js"); } catch (error) { console.log(error.code, error.message); }`,
    );
    expect(result.stdout).toMatch(/^ERR_WORKBENCH_UNSUPPORTED .*IPC channel.*spawn\(process\.execPath/);
  });

  it("spawn with a file that is not a string is Node's ERR_INVALID_ARG_TYPE", { timeout: 60_000 }, async () => {
    const result = await program(`try { require("child_process").spawn(42); } catch (error) { console.log(error.code, error.name); }`);
    expect(result.stdout.trim()).toBe("ERR_INVALID_ARG_TYPE TypeError");
  });
});

describe("children", () => {
  it("twelve children started at once each finish with their own output and code", { timeout: 120_000 }, async () => {
    const result = await program(`const { exec } = require("child_process");
const results = [];
let left = 12;
for (let i = 0; i < 12; i++) {
  exec("echo child " + i + "; exit " + (i % 3), (error, stdout) => {
    results[i] = stdout.trim() + " code " + (error ? error.code : 0);
    if (--left === 0) console.log(results.join("\\n"));
  });
}`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split("\n")).toEqual(Array.from({ length: 12 }, (_, i) => `child ${i} code ${i % 3}`));
  });

  it("text in any script goes to a child's stdin and back unchanged", { timeout: 60_000 }, async () => {
    const text = "héllo € 𝄞 日本\n";
    const result = await program(`const { spawn } = require("child_process");
const cat = spawn("cat");
const chunks = [];
cat.stdout.on("data", (chunk) => chunks.push(chunk));
cat.on("close", () => console.log(JSON.stringify(Buffer.concat(chunks).toString("utf8"))));
cat.stdin.end(${JSON.stringify(text)});`);
    expect(result.stdout.trim()).toBe(JSON.stringify(text));
  });

  it("a program run through runNodeProgram without a shell gets exit 127 and says why", { timeout: 60_000 }, async () => {
    const script = await nodeRuntimeScript();
    await runtime.fs.writeFile(
      "/workspace/no-shell.js",
      `require("child_process").exec("echo hi", (error, stdout, stderr) => console.log(error.code, stderr.trim()));`,
    );
    const outcome = await runNodeProgram(
      {
        files: runtime.fs,
        openSandbox: async () => createNodeSandbox(script),
        roots: ["/workspace", "/tmp"],
      },
      { args: ["no-shell.js"], cwd: "/workspace", env: {} },
    );
    expect(new TextDecoder().decode(outcome.stdout).trim()).toBe(
      "127 node: child_process needs the embedded shell, which this program was not started from",
    );
  });
});
