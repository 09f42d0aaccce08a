/** The language service through the CLI: the real bin in a child process, TypeScript in its process. */
import { spawnSync } from "node:child_process";
import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "./support.js";

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");

async function workbench(args: string[], env: Record<string, string> = {}) {
  const data = await mkdtemp(join(tmpdir(), "wb-lsp-cli-data-"));
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      WORKBENCH_DATA_DIR: data,
      WORKBENCH_GLOBAL_CONFIG: data,
      OPENCODE_EXPERIMENTAL_LSP_TOOL: "",
      OPENCODE_EXPERIMENTAL: "",
      ...env,
    },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("workbench tool with the language service", () => {
  it("write reports the type error it introduced; lsp runs only with OpenCode's flag", async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), "wb-lsp-cli-")));
    await writeTree(dir, {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, module: "ESNext", moduleResolution: "Bundler", target: "ES2022" },
      }),
      "a.ts": "export const a = 1;\n",
      "b.ts": "import { a } from './a';\nexport const b = a + 1;\n",
    });
    const write = await workbench([
      "tool",
      "write",
      "--dir",
      dir,
      "--yes",
      "--args",
      JSON.stringify({ filePath: "c.ts", content: "import { a } from './a';\nexport const c: string = a;\n" }),
    ]);
    expect(write.stdout).toContain(
      `Wrote file successfully.\n\nLSP errors detected in this file, please fix:\n<diagnostics file="${dir}/c.ts">\nERROR [2:14] Type 'number' is not assignable to type 'string'.\n</diagnostics>`,
    );

    const args = [
      "tool",
      "lsp",
      "--dir",
      dir,
      "--yes",
      "--args",
      JSON.stringify({ operation: "goToDefinition", filePath: "b.ts", line: 2, character: 18 }),
    ];
    const without = await workbench(args);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('no tool "lsp" here');
    const withFlag = await workbench(args, { OPENCODE_EXPERIMENTAL_LSP_TOOL: "true" });
    expect(withFlag.code).toBe(0);
    expect(withFlag.stdout).toContain(`"uri": "file://${dir}/a.ts"`);
  }, 300_000);
});
