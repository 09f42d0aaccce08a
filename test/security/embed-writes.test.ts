/**
 * An embed host's `files` and `applyFsDiff` against what already sits in the workspace: a symbolic link in
 * the workspace is followed before a path is judged (a write or delete through it would land outside), a
 * path that is both a file and a folder is refused before the first write (so nothing is half written),
 * and names with control characters or bidirectional overrides are refused. The backend runs over the
 * node runtime in a temporary folder with a sentinel beside the workspace, as embed-backend.test.ts.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FrameBackend, type EmbedSurface } from "../../src/embed/frame-backend.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import { testSurface } from "../support/embed-surface.js";

let base: string;
let root: string;
let runtime: Runtime;

function surface(): EmbedSurface {
  return testSurface(() => runtime);
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "embed-writes-"));
  root = join(base, "workspace");
  await mkdir(root);
  await writeFile(join(base, "sentinel.txt"), "untouched\n");
  runtime = createNodeRuntime({ root, searchThreads: 0 });
});

afterEach(async () => {
  await runtime.dispose();
  await rm(base, { recursive: true, force: true });
});

const workspaceFiles = async () => (await readdir(root, { recursive: true })).sort();
const sentinel = () => readFile(join(base, "sentinel.txt"), "utf8");

describe("an embed's writes follow links in the workspace before judging a path", () => {
  it("create through a link that points out of the workspace is refused, and nothing is written", async () => {
    await symlink(base, join(root, "out"));
    const backend = new FrameBackend(surface());
    await expect(backend.handle("applyFsDiff", { create: { "good.txt": "ok", "out/sentinel.txt": "owned" } })).rejects.toThrow(
      /out\/sentinel\.txt/,
    );
    expect(await sentinel()).toBe("untouched\n");
    expect(await readdir(root)).toEqual(["out"]);
  });

  it("create on a dangling link whose target is outside is refused (the write would make the target)", async () => {
    await symlink(join(base, "planted.txt"), join(root, "ghost.txt"));
    const backend = new FrameBackend(surface());
    await expect(backend.handle("start", { files: { "ghost.txt": "owned" } })).rejects.toThrow(/ghost\.txt/);
    await expect(readFile(join(base, "planted.txt"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("destroy through a link that points out of the workspace is refused", async () => {
    await symlink(base, join(root, "out"));
    const backend = new FrameBackend(surface());
    await expect(backend.handle("applyFsDiff", { destroy: ["out/sentinel.txt"] })).rejects.toThrow(/out\/sentinel\.txt/);
    expect(await sentinel()).toBe("untouched\n");
  });
});

describe("an embed's writes are checked whole before the first byte", () => {
  it("a path that is both a file and a folder in one request writes nothing", async () => {
    const backend = new FrameBackend(surface());
    await expect(backend.handle("start", { files: { a: "file", "a/b.txt": "inside" } })).rejects.toThrow(/both a file and the folder/);
    expect(await workspaceFiles()).toEqual([]);
  });

  it("a file where the workspace has a folder, or a folder where it has a file, writes nothing", async () => {
    const backend = new FrameBackend(surface());
    await backend.handle("applyFsDiff", { create: { "dir/x.txt": "x", file: "f" } });
    await expect(backend.handle("applyFsDiff", { create: { "new.txt": "n", "file/y.txt": "y" } })).rejects.toThrow(/file/);
    await expect(backend.handle("applyFsDiff", { create: { "new.txt": "n", dir: "clash" } })).rejects.toThrow(/dir/);
    expect(await workspaceFiles()).toEqual(["dir", "dir/x.txt", "file"]);
    expect(await readFile(join(root, "file"), "utf8")).toBe("f");
  });

  it("names with NUL, other control characters or a right-to-left override are refused", async () => {
    const backend = new FrameBackend(surface());
    for (const name of ["a\u0000b.txt", "line\nbreak.txt", "invoice\u202Etxt.exe"]) {
      await expect(backend.handle("applyFsDiff", { create: { "ok.txt": "ok", [name]: "x" } })).rejects.toThrow(/character/);
    }
    expect(await workspaceFiles()).toEqual([]);
  });
});

describe("share links refuse the same names", () => {
  it("a right-to-left override or a C1 control in a shared path is refused on making and on opening", async () => {
    const { encodeShareLink, fromShareFile } = await import("../../src/embed/share/index.js");
    await expect(encodeShareLink({ files: { "invoice\u202Etxt.exe": "x" } }, "https://workbench.example/")).rejects.toThrow(
      /control character/,
    );
    const file = JSON.stringify({ format: "workbench-share", version: 1, files: [{ path: "a\u0085b.txt", text: "x" }] });
    const opened = fromShareFile(file);
    expect(opened.ok).toBe(false);
    expect(!opened.ok && opened.error).toMatch(/control character/);
  });
});
