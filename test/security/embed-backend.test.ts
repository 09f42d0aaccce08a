/**
 * What a host page can make an embed's frame do: every request is checked before anything is written,
 * nothing lands outside the embed's workspace, and a malformed request is refused with its reason. The
 * backend runs here over the node runtime in a temporary folder, with a sentinel file beside it that no
 * request may read, change or delete.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
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
let opened: string[];

function surface(): EmbedSurface {
  return testSurface(() => runtime, { openFile: (path) => void opened.push(path) });
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "embed-backend-"));
  root = join(base, "workspace");
  await mkdir(root);
  await writeFile(join(base, "sentinel.txt"), "untouched\n");
  runtime = createNodeRuntime({ root, searchThreads: 0 });
  opened = [];
});

afterEach(async () => {
  await runtime.dispose();
  await rm(base, { recursive: true, force: true });
});

const workspaceFiles = async () => (await readdir(root, { recursive: true })).sort();
const sentinel = () => readFile(join(base, "sentinel.txt"), "utf8");

describe("an embed's frame refuses what would reach outside its workspace", () => {
  it("start with a path that climbs out writes nothing at all, not even the good files", async () => {
    const backend = new FrameBackend(surface());
    await expect(backend.handle("start", { files: { "good.txt": "ok", "../sentinel.txt": "owned" } })).rejects.toThrow(
      'refused "../sentinel.txt"',
    );
    expect(await workspaceFiles()).toEqual([]);
    expect(await sentinel()).toBe("untouched\n");
  });

  it("an absolute path is refused", async () => {
    const backend = new FrameBackend(surface());
    await expect(backend.handle("applyFsDiff", { create: { [join(base, "sentinel.txt")]: "owned" } })).rejects.toThrow("absolute path");
    expect(await sentinel()).toBe("untouched\n");
  });

  it("destroy outside the workspace is refused before anything is created or deleted", async () => {
    const backend = new FrameBackend(surface());
    await backend.handle("applyFsDiff", { create: { "a.txt": "a" } });
    await expect(backend.handle("applyFsDiff", { create: { "b.txt": "b" }, destroy: ["a.txt", "../sentinel.txt"] })).rejects.toThrow(
      'refused "../sentinel.txt"',
    );
    expect(await workspaceFiles()).toEqual(["a.txt"]);
    expect(await sentinel()).toBe("untouched\n");
  });

  it("openFile outside the workspace is refused and nothing is opened", async () => {
    const backend = new FrameBackend(surface());
    await expect(backend.handle("openFile", { path: "../sentinel.txt" })).rejects.toThrow("outside");
    expect(opened).toEqual([]);
  });

  it("a session that is neither a recorded session nor a script is refused before the files are written", async () => {
    const backend = new FrameBackend(surface());
    await expect(backend.handle("start", { files: { "x.txt": "x" }, session: { hello: "world" } })).rejects.toThrow();
    await expect(backend.handle("start", { files: { "x.txt": "x" }, session: { version: 1, steps: "no" } })).rejects.toThrow("steps");
    expect(await workspaceFiles()).toEqual([]);
  });
});

describe("malformed requests are refused with the field that is wrong", () => {
  it("unknown keys, wrong types and empty names", async () => {
    const backend = new FrameBackend(surface());
    await expect(backend.handle("start", { filez: {} })).rejects.toThrow(/^start: \(its parameters\): .*filez/);
    await expect(backend.handle("runTool", { tool: "read", args: "notes.md" })).rejects.toThrow(/^runTool: args:/);
    await expect(backend.handle("applyFsDiff", { create: { "a.txt": 42 } })).rejects.toThrow(/^applyFsDiff: create\.a\.txt:/);
    await expect(backend.handle("setTheme", { theme: "sepia" })).rejects.toThrow(/^setTheme: theme:/);
    await expect(backend.handle("shareUrl", undefined)).rejects.toThrow("does not know the workbench's address");
  });
});

describe("the snapshot gives files back as they were given", () => {
  it("text as text, non-UTF-8 bytes as bytes, nested paths relative to the workspace", async () => {
    let reopened = 0;
    const backend = new FrameBackend({ ...surface(), reopen: async () => void reopened++ });
    await backend.handle("start", {
      files: { "src/é.ts": "export {};\n", "bin/raw": new Uint8Array([0xff, 0x00, 0xfe]) },
      config: { permission: { bash: "ask" } },
    });
    // A config from the host is put in force by reopening the session once it is written.
    expect(reopened).toBe(1);
    const snapshot = (await backend.handle("getFsSnapshot", undefined)) as Record<string, string | Uint8Array>;
    expect(Object.keys(snapshot).sort()).toEqual(["bin/raw", "opencode.json", "src/é.ts"]);
    expect(snapshot["src/é.ts"]).toBe("export {};\n");
    expect(snapshot["bin/raw"]).toEqual(new Uint8Array([0xff, 0x00, 0xfe]));
    expect(JSON.parse(snapshot["opencode.json"] as string)).toEqual({ permission: { bash: "ask" } });
  });
});
