/**
 * The CLI's bundle (scripts/cli-bundle.mjs): what went in is listed to be checked at each start, the
 * worker threads have bundles of their own, stack traces can be mapped to the sources, and a changed
 * source makes the next start build it again (the bin never runs stale code).
 */
import { existsSync, readFileSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript run by node, with no types of its own.
import { cliBundle } from "../../scripts/cli-bundle.mjs";

const ROOT = join(import.meta.dirname, "../..");
const POINTER = join(ROOT, "node_modules/.cache/workbench-cli/current.json");

describe("the CLI's bundle", () => {
  it("lists every bundled source, the text imports and itself; has the workers' bundles and source maps", async () => {
    const entry = fileURLToPath(await (cliBundle as () => Promise<string>)());
    const pointer = JSON.parse(readFileSync(POINTER, "utf8")) as { dir: string; inputs: Record<string, [number, number]> };
    expect(entry).toBe(join(ROOT, "node_modules/.cache/workbench-cli", pointer.dir, "workbench.js"));
    for (const file of [
      "src/cli/bin.ts",
      "src/cli/main.ts",
      "src/tools/read.txt",
      "src/runtime/node/search-thread.ts",
      "scripts/cli-bundle.mjs",
    ]) {
      expect(Object.keys(pointer.inputs)).toContain(file);
    }
    for (const name of ["shell-worker.js", "search-thread.js", "workbench.js.map"])
      expect(existsSync(join(dirname(entry), name))).toBe(true);
    const map = JSON.parse(readFileSync(join(dirname(entry), "workbench.js.map"), "utf8")) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith("src/cli/bin.ts"))).toBe(true);
    // Packages stay in node_modules, where their wasm and libraries sit beside them.
    expect(Object.keys(pointer.inputs).some((file) => file.includes("node_modules/"))).toBe(false);
  });

  it("builds again when a bundled source changed since", async () => {
    const before = fileURLToPath(await (cliBundle as () => Promise<string>)());
    expect(fileURLToPath(await (cliBundle as () => Promise<string>)())).toBe(before);
    const source = join(ROOT, "src/cli/bin.ts");
    const { atime, mtime } = statSync(source);
    // Same content, a later mtime: as an edit (or a checkout) leaves it.
    utimesSync(source, atime, new Date(mtime.getTime() + 1000));
    const after = fileURLToPath(await (cliBundle as () => Promise<string>)());
    expect(after).not.toBe(before);
    expect(existsSync(after)).toBe(true);
  }, 60_000);
});
