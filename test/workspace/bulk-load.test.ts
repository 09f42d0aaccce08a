/** Loading many files at once: every byte lands, the tree and search see them, nothing lands outside, links are not followed. */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { loadFiles } from "../../src/workspace/bulk-load.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

const encoder = new TextEncoder();

function manyFiles(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    path: `pkg${i % 7}/dir${i % 13}/file-${i}.txt`,
    data: encoder.encode(`file number ${i}\nneedle-${i}\n`),
  }));
}

describe("bulk load on the embedded runtime", () => {
  it("writes 1,200 files in batches, each byte as given, announcing each batch as it lands", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    const announced: string[] = [];
    runtime.onChange((paths) => {
      if (paths !== "unknown") announced.push(...paths);
    });
    const progress: number[] = [];
    const files = manyFiles(1200);
    const written = await loadFiles(runtime, runtime.root, files, { onProgress: (done) => progress.push(done) });
    expect(written).toHaveLength(1200);
    expect(progress.at(-1)).toBe(1200);
    expect(progress.length).toBeGreaterThan(1);
    for (const i of [0, 599, 1199]) {
      expect(new TextDecoder().decode(await runtime.fs.readFile(`/workspace/pkg${i % 7}/dir${i % 13}/file-${i}.txt`))).toBe(
        `file number ${i}\nneedle-${i}\n`,
      );
    }
    expect(announced).toContain("/workspace/pkg3/dir2/file-www.txt".replace("www", "535"));
    expect((await runtime.fs.readdir("/workspace")).map((e) => e.name).sort()).toEqual([
      "pkg0",
      "pkg1",
      "pkg2",
      "pkg3",
      "pkg4",
      "pkg5",
      "pkg6",
    ]);
    // Search was told of every batch: a search after the load finds the last file's line.
    const found: string[] = [];
    for await (const file of runtime.search.search({ root: "/workspace", patterns: ["needle-1199$"] })) found.push(file.displayPath);
    expect(found).toEqual(["pkg2/dir3/file-1199.txt"]);
  });

  it("replaces a file that is there and keeps binary bytes", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    await runtime.fs.writeFile("/workspace/a.bin", "old");
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await loadFiles(runtime, runtime.root, [
      { path: "a.bin", data: bytes },
      { path: "ünï/çødé ✓.txt", data: encoder.encode("ok") },
    ]);
    expect(Array.from(await runtime.fs.readFile("/workspace/a.bin"))).toEqual(Array.from(bytes));
    expect(new TextDecoder().decode(await runtime.fs.readFile("/workspace/ünï/çødé ✓.txt"))).toBe("ok");
    // A file made straight in the store is an ordinary file to everyone else: its stat, its mode, the shell.
    const stat = await runtime.fs.stat("/workspace/ünï/çødé ✓.txt");
    expect(stat).toMatchObject({ type: "file", size: 2, mode: 0o644 });
    expect(Math.abs(stat.mtimeMs - Date.now())).toBeLessThan(60_000);
    const shell = await runtime.exec("cat 'ünï/çødé ✓.txt' && ls ünï");
    expect(shell.stdout).toBe("okçødé ✓.txt\n");
  });

  it("keeps the last content of a path given twice, and refuses a path that is both a file and a folder", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    await loadFiles(runtime, runtime.root, [
      { path: "twice.txt", data: encoder.encode("first") },
      { path: "twice.txt", data: encoder.encode("second") },
    ]);
    expect(new TextDecoder().decode(await runtime.fs.readFile("/workspace/twice.txt"))).toBe("second");
    expect((await runtime.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["twice.txt"]);
    await expect(
      loadFiles(runtime, runtime.root, [
        { path: "clash", data: encoder.encode("file") },
        { path: "clash/inner.txt", data: encoder.encode("x") },
      ]),
    ).rejects.toThrow(/ENOTDIR/);
    await expect(
      loadFiles(runtime, runtime.root, [
        { path: "dir/inner.txt", data: encoder.encode("x") },
        { path: "dir", data: encoder.encode("file") },
      ]),
    ).rejects.toThrow(/EISDIR/);
    // New files of a batch that fails are not stored (they go in together at the end of the batch).
    await expect(runtime.fs.readFile("/workspace/dir/inner.txt")).rejects.toThrow(/ENOENT/);
  });

  it("writes nothing when one path would land outside the folder", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    await expect(loadFiles(runtime, runtime.root, [...manyFiles(10), { path: "../x", data: encoder.encode("no") }])).rejects.toThrow(
      /outside/,
    );
    expect(await runtime.fs.readdir("/workspace")).toEqual([]);
  });

  it("refuses to write through a symbolic link in the workspace", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    await runtime.fs.mkdir("/elsewhere");
    await runtime.fs.symlink("/elsewhere", "/workspace/out");
    await expect(loadFiles(runtime, runtime.root, [{ path: "out/planted.txt", data: encoder.encode("x") }])).rejects.toThrow(
      /ELOOP|symbolic link/,
    );
    expect(await runtime.fs.readdir("/elsewhere")).toEqual([]);
  });

  it("refuses a read-only workspace with EROFS", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1, readOnly: true });
    await expect(loadFiles(runtime, runtime.root, [{ path: "a.txt", data: encoder.encode("x") }])).rejects.toThrow(/EROFS/);
  });
});
