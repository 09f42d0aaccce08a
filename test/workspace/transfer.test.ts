/** Files in and out: nothing lands outside the workspace, and a round trip keeps every byte. */
import { strToU8, zipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { filesFromZip, importFiles, landingPath, zipFolder } from "../../src/workspace/transfer.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe("transfer: where imported files land", () => {
  it("keeps relative paths inside the folder", () => {
    expect(landingPath("/workspace", "a.txt")).toBe("/workspace/a.txt");
    expect(landingPath("/workspace", "src/./lib/../x.ts")).toBe("/workspace/src/x.ts");
    expect(landingPath("/workspace", "dir\\win.txt")).toBe("/workspace/dir/win.txt");
  });

  it.each([
    ["../escape.txt", /outside \/workspace/],
    ["a/../../escape.txt", /outside \/workspace/],
    ["/etc/passwd", /absolute path/],
    ["C:\\Windows\\x", /absolute path/],
    ["..", /outside/],
    [".", /folder itself/],
    ["../workspace-sibling/x", /outside/],
  ])("refuses %s", (path, message) => {
    expect(() => landingPath("/workspace", path)).toThrow(message);
  });

  it("writes nothing when any entry of an import is refused", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const files = [
      { path: "good.txt", data: strToU8("fine") },
      { path: "../../bad.txt", data: strToU8("nope") },
    ];
    await expect(importFiles(runtime, runtime.root, files)).rejects.toThrow(/outside/);
    expect(await runtime.fs.readdir(runtime.root)).toEqual([]);
  });
});

describe("transfer: zip in and out", () => {
  it("round-trips a tree with binary files through a .zip", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const binary = Uint8Array.from({ length: 300 }, (_, i) => i % 256);
    const archive = zipSync({ "proj/": new Uint8Array(), "proj/a.txt": strToU8("alpha\n"), "proj/bin/blob": binary });
    const written = await importFiles(runtime, runtime.root, await filesFromZip(archive));
    expect(written.sort()).toEqual(["/workspace/proj/a.txt", "/workspace/proj/bin/blob"]);
    const back = await filesFromZip(await zipFolder(runtime, runtime.root));
    const byPath = Object.fromEntries(back.map((f) => [f.path, f.data]));
    expect(new TextDecoder().decode(byPath["proj/a.txt"])).toBe("alpha\n");
    expect(Array.from(byPath["proj/bin/blob"]!)).toEqual(Array.from(binary));
  });

  it("says clearly when the upload is not a zip", async () => {
    await expect(filesFromZip(strToU8("just text"))).rejects.toThrow(/not a readable \.zip archive/);
  });
});
