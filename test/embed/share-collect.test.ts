/** What Share collects from a workspace: its files under the root, nothing outside it, no links, no .git. */
import { afterEach, describe, expect, it } from "vitest";
import { collectShare } from "../../src/embed/share/collect.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe("collecting a workspace for a share", () => {
  it("takes the files under the root as text or bytes, and leaves out links, .git, node_modules and the data folder", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    const fs = runtime.fs;
    await fs.mkdir("/workspace/src/deep", { recursive: true });
    await fs.writeFile("/workspace/src/deep/a.ts", "export const a = 1;\n");
    await fs.writeFile("/workspace/logo.bin", Uint8Array.of(0, 1, 2, 255));
    await fs.mkdir("/workspace/.git", { recursive: true });
    await fs.writeFile("/workspace/.git/config", "[core]\n");
    await fs.mkdir("/workspace/node_modules/x", { recursive: true });
    await fs.writeFile("/workspace/node_modules/x/index.js", "x");
    await fs.mkdir("/data/tool-output", { recursive: true });
    await fs.writeFile("/data/tool-output/saved.txt", "saved output of a call");
    await fs.symlink("/data/tool-output/saved.txt", "/workspace/link-out");
    const state = await collectShare(runtime, { name: "demo" });
    expect(Object.keys(state.files).sort()).toEqual(["logo.bin", "src/deep/a.ts"]);
    expect(state.files["src/deep/a.ts"]).toBe("export const a = 1;\n");
    expect(Array.from(state.files["logo.bin"] as Uint8Array)).toEqual([0, 1, 2, 255]);
    expect(state.session).toBeUndefined();
  });
});
