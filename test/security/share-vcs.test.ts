/**
 * A share that plants a repository: a `.git/config` with `core.fsmonitor` runs its command on the next
 * `git status` there (the person's, their shell prompt's or the agent's). Real git is the oracle that each
 * payload is an attack: written straight to a folder, `git status` runs the planted command. Through a link,
 * a `.workbench.json`, `workbench open`, an embed's `files` and `applyFsDiff`, the same payload is refused,
 * nothing is written, and the planted command never runs. The workspace's .zip leaves repositories out.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deflateSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { FrameBackend } from "../../src/embed/frame-backend.js";
import { toBase64Url } from "../../src/embed/share/base64url.js";
import { decodeShareLink, fromShareFile } from "../../src/embed/share/index.js";
import { pack } from "../../src/embed/share/pack.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { filesFromZip, zipFolder } from "../../src/workspace/transfer.js";
import { testSurface } from "../support/embed-surface.js";
import { runWorkbench } from "../support/workbench-bin.js";

// Made when the module loads: the payloads (and the command they plant) are built while tests are collected.
const base = mkdtempSync(join(tmpdir(), "share-vcs-"));
/** The planted command touches this file: its existence means the attack ran. */
const marker = join(base, "PWNED");

const config = (extra = "") => `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${marker}; false"\n${extra}`;
const HEAD = "ref: refs/heads/main\n";

/** Each payload: its files, and the folder (relative) where `git status` runs the planted command. */
function payloads(): Array<{ name: string; files: Record<string, string>; gitAt: string }> {
  return [
    {
      name: ".git at the root",
      files: { ".git/config": config(), ".git/HEAD": HEAD, ".git/objects/.keep": "", ".git/refs/.keep": "" },
      gitAt: ".",
    },
    {
      name: ".git nested in vendor/lib",
      files: {
        "README.md": "hi\n",
        "vendor/lib/.git/config": config(),
        "vendor/lib/.git/HEAD": HEAD,
        "vendor/lib/.git/objects/x": "",
        "vendor/lib/.git/refs/x": "",
      },
      gitAt: "vendor/lib",
    },
    {
      name: "a .git file pointing at a planted git dir",
      files: {
        ".git": "gitdir: tools/cache\n",
        "tools/cache/config": config(),
        "tools/cache/HEAD": HEAD,
        "tools/cache/objects/x": "",
        "tools/cache/refs/x": "",
      },
      gitAt: ".",
    },
    {
      name: "a bare repository with no .git at all",
      files: { "site/config": config("\tworktree = ..\n"), "site/HEAD": HEAD, "site/objects/x": "", "site/refs/x": "" },
      gitAt: "site",
    },
  ];
}

/** Spellings git reads as .git on some disk (case on macOS and Windows, trailing dot on Windows), and other VCS folders. */
const OTHER_SPELLINGS = [
  ".GIT/config",
  ".Git/hooks/pre-commit",
  "a/b/c/d/e/.gIt/config",
  ".git./config",
  "GIT~1/config",
  ".hg/hgrc",
  "x/.svn/entries",
  ".bzr/branch/branch.conf",
  "_darcs/prefs/defaults",
  "CVS/Root",
  ".jj/repo/config",
];

function rawLink(files: Record<string, string>): string {
  return `http://127.0.0.1:5173/#share=1.${toBase64Url(deflateSync(pack({ files }), { level: 9 }))}`;
}

function shareFile(files: Record<string, string>): string {
  return JSON.stringify({ format: "workbench-share", version: 1, files: Object.entries(files).map(([path, text]) => ({ path, text })) });
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

function gitStatus(cwd: string): void {
  spawnSync("git", ["status", "--short"], {
    cwd,
    env: { ...process.env, GIT_CEILING_DIRECTORIES: base, GIT_CONFIG_NOSYSTEM: "1", HOME: base },
    encoding: "utf8",
  });
}

afterAll(() => rm(base, { recursive: true, force: true }));

describe("the oracle: each payload written as it is runs its command under real git", () => {
  it.each(payloads().map((p) => [p.name, p] as const))("%s", async (_, payload) => {
    const root = await mkdtemp(join(base, "plain-"));
    await writeTree(root, payload.files);
    await rm(marker, { force: true });
    gitStatus(join(root, payload.gitAt));
    expect(await exists(marker)).toBe(true);
    await rm(marker, { force: true });
  });
});

describe("a share refuses every planted repository", () => {
  it.each(payloads().map((p) => [p.name, p] as const))("link and .workbench.json: %s", async (_, payload) => {
    const link = await decodeShareLink(rawLink(payload.files));
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.error).toMatch(/version-control folder|git would open it as a repository/);
    const file = fromShareFile(shareFile(payload.files));
    expect(file.ok).toBe(false);
  });

  it.each(OTHER_SPELLINGS)("link: %s", async (path) => {
    const link = await decodeShareLink(rawLink({ "ok.txt": "fine", [path]: "x" }));
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.error).toMatch(/version-control folder/);
  });

  it.each(payloads().map((p) => [p.name, p] as const))("workbench open: %s writes nothing and runs nothing", async (_, payload) => {
    const target = await mkdtemp(join(base, "open-"));
    await rm(marker, { force: true });
    const linkFile = join(base, `${Math.random().toString(36).slice(2)}.workbench.json`);
    await writeFile(linkFile, shareFile(payload.files));
    // A link for some payloads and a .workbench.json for the others: each run of the bin costs seconds.
    for (const source of [
      payloads().indexOf(payloads().find((p) => p.name === payload.name)!) % 2 === 0 ? rawLink(payload.files) : linkFile,
    ]) {
      const opened = await runWorkbench(["open", source, "--dir", target]);
      expect(opened.code).toBe(1);
      expect(opened.stderr).toMatch(/version-control folder|git would open it as a repository/);
      expect(await readdir(target)).toEqual([]);
    }
    gitStatus(join(target));
    expect(await exists(marker)).toBe(false);
  });
});

describe("an embed's host cannot plant a repository", () => {
  it.each(payloads().map((p) => [p.name, p] as const))("files and applyFsDiff: %s", async (_, payload) => {
    const root = await mkdtemp(join(base, "embed-"));
    const runtime = createNodeRuntime({ root, searchThreads: 0 });
    try {
      const backend = new FrameBackend(testSurface(() => runtime));
      await expect(backend.handle("start", { files: payload.files })).rejects.toThrow(/version-control folder|repository/);
      await expect(backend.handle("applyFsDiff", { create: payload.files })).rejects.toThrow(/version-control folder|repository/);
      expect(await readdir(root)).toEqual([]);
    } finally {
      await runtime.dispose();
    }
  });

  it.each(OTHER_SPELLINGS)("applyFsDiff: %s", async (path) => {
    const root = await mkdtemp(join(base, "embed-"));
    const runtime = createNodeRuntime({ root, searchThreads: 0 });
    try {
      const backend = new FrameBackend(testSurface(() => runtime));
      await expect(backend.handle("applyFsDiff", { create: { [path]: "x" } })).rejects.toThrow(/version-control folder/);
      expect(await readdir(root)).toEqual([]);
    } finally {
      await runtime.dispose();
    }
  });
});

describe("the workspace's .zip leaves repositories out", () => {
  it("a .git made in the workspace (by a replay, a command) is not in the download; the rest is", async () => {
    const root = await mkdtemp(join(base, "zip-"));
    await writeTree(root, { "src/a.ts": "a\n", ".git/config": config(), "vendor/.HG/hgrc": "x", "lib/.git": "gitdir: ../x\n" });
    const runtime = createNodeRuntime({ root, searchThreads: 0 });
    try {
      const paths = (await filesFromZip(await zipFolder(runtime, runtime.root))).map((file) => file.path);
      expect(paths.sort()).toEqual(["src/a.ts"]);
    } finally {
      await runtime.dispose();
    }
  });
});
