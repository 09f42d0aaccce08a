/**
 * A folder's `.env` holds keys more often than not (the workbench's own read rules ask before reading
 * `*.env` and `*.env.*`, and allow `*.env.example`). Share links are pasted in public, so Share in the page
 * and `workbench share` leave such files out and say so; `.env.example` (a template, no keys) travels.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectShare } from "../../src/embed/share/collect.js";
import { decodeShareLink } from "../../src/embed/share/index.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");

describe("files that hold keys stay out of a share", () => {
  it("Share in the page leaves out .env and .env.* at any depth, keeps .env.example, and names what it left", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    const fs = runtime.fs;
    await fs.mkdir("/workspace/api", { recursive: true });
    await fs.writeFile("/workspace/.env", "OPENAI_API_KEY=sk-SECRET-1\n");
    await fs.writeFile("/workspace/api/.env.local", "TOKEN=SECRET-2\n");
    await fs.writeFile("/workspace/api/prod.env", "TOKEN=SECRET-3\n");
    await fs.writeFile("/workspace/.env.example", "OPENAI_API_KEY=\n");
    await fs.writeFile("/workspace/main.ts", "export {};\n");
    const left: string[] = [];
    const state = await collectShare(runtime, { name: "demo", onLeftOut: (path) => left.push(path) });
    expect(Object.keys(state.files).sort()).toEqual([".env.example", "main.ts"]);
    expect(left.sort()).toEqual([".env", "api/.env.local", "api/prod.env"]);
  });

  it("workbench share leaves them out of the link and says so on stderr", async () => {
    const dir = await mkdtemp(join(tmpdir(), "share-keys-"));
    await mkdir(join(dir, "sub"));
    await writeFile(join(dir, ".env"), "OPENAI_API_KEY=sk-SECRET-1\n");
    await writeFile(join(dir, "sub", ".env.production"), "TOKEN=SECRET-2\n");
    await writeFile(join(dir, "readme.md"), "# hi\n");
    const result = spawnSync(process.execPath, [BIN, "share", "--dir", dir], { encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("left out .env");
    expect(result.stderr).toContain("left out sub/.env.production");
    const decoded = await decodeShareLink(result.stdout.trim());
    if (!decoded.ok) throw new Error(decoded.error);
    expect(Object.keys(decoded.state.files)).toEqual(["readme.md"]);
    expect(JSON.stringify(decoded.state)).not.toMatch(/SECRET/);
  });
});
