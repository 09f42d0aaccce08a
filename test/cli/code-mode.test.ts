/** Code Mode from the command line: the real bin in a child process, on the node runtime, behind V2's flag. */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");

async function workbench(args: string[], env: Record<string, string> = {}) {
  const data = await mkdtemp(join(tmpdir(), "wb-code-mode-data-"));
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, WORKBENCH_DATA_DIR: data, WORKBENCH_GLOBAL_CONFIG: data, OPENCODE_EXPERIMENTAL_CODE_MODE: "", ...env },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const PROGRAM = `
const [text, hits] = await Promise.all([tools.read({ filePath: "notes.txt" }), tools.grep({ pattern: "TODO" })]);
await tools.write({ filePath: "summary.txt", content: hits.split("\\n")[0] });
console.log(text.includes("TODO: ship") ? "read ok" : "read missing");
return hits.split("\\n")[0];
`;

describe("workbench tool execute", () => {
  it("runs only with OPENCODE_EXPERIMENTAL_CODE_MODE; then reads, greps and writes on the real disk", async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), "wb-code-mode-")));
    await writeFile(join(dir, "notes.txt"), "TODO: ship\nand rest\n");
    const args = ["tool", "execute", "--dir", dir, "--yes", "--args", JSON.stringify({ code: PROGRAM })];
    const without = await workbench(args);
    expect(without.code).not.toBe(0);
    expect(without.stdout + without.stderr).toContain("execute");
    await expect(readFile(join(dir, "summary.txt"), "utf8")).rejects.toThrow();

    const flagged = await workbench(args, { OPENCODE_EXPERIMENTAL_CODE_MODE: "1" });
    expect(flagged.stderr).toBe("");
    expect(flagged.stdout).toContain("read ok\nFound 1 matches");
    expect(flagged.code).toBe(0);
    expect(await readFile(join(dir, "summary.txt"), "utf8")).toBe("Found 1 matches");
  });
});
