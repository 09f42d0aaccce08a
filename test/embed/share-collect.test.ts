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

  it("shares what is there when files and folders go while it collects (rm -rf meanwhile), without a raw I/O error", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    const real = runtime;
    await real.fs.mkdir("/workspace/build/out", { recursive: true });
    await real.fs.writeFile("/workspace/build/out/x.js", "x");
    await real.fs.writeFile("/workspace/gone.txt", "listed, then removed");
    await real.fs.writeFile("/workspace/kept.txt", "kept\n");
    // The listing is taken, then the folder and the file are removed before they are read; the read then
    // fails as ZenFS once reported it.
    const racing = new Proxy(real.fs, {
      get(target, key) {
        if (key === "readdir")
          return async (path: string) => {
            const list = await target.readdir(path);
            if (path === "/workspace") {
              await target.rm("/workspace/build", { recursive: true, force: true });
              await target.rm("/workspace/gone.txt", { force: true });
            }
            return list;
          };
        if (key === "readFile")
          return async (path: string, ...rest: unknown[]) => {
            if (path.endsWith("/gone.txt")) throw new Error("EIO: An error was suppressed during disposal");
            return (target.readFile as (...args: unknown[]) => Promise<Uint8Array>)(path, ...rest);
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const view = new Proxy(real, { get: (target, key) => (key === "fs" ? racing : Reflect.get(target, key)) });
    const state = await collectShare(view, { name: "racing" });
    expect(state.files).toEqual({ "kept.txt": "kept\n" });
  });

  it("names the file a read failed on when it is still there", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    const real = runtime;
    await real.fs.writeFile("/workspace/stuck.txt", "here");
    const failing = new Proxy(real.fs, {
      get(target, key) {
        if (key === "readFile") return async () => Promise.reject(new Error("EIO: input/output error"));
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const view = new Proxy(real, { get: (target, key) => (key === "fs" ? failing : Reflect.get(target, key)) });
    await expect(collectShare(view, { name: "stuck" })).rejects.toThrow(
      "could not read stuck.txt (EIO: input/output error); try Share again, or remove it first.",
    );
  });
});
