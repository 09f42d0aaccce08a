/**
 * The file tree's dimmed rows (ignoredNames) against real ripgrep: walking the tree folder by folder and
 * keeping what ignoredNames does not dim must give exactly the files `rg --files --hidden` lists in the same
 * folder on disk, inside a git repository (where .gitignore counts) and outside one (where only .ignore does).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import { ignoredNames } from "../../src/workspace/ignored-entries.js";

const RG = "/usr/bin/rg";

const tree: Record<string, string> = {
  ".gitignore": "node_modules\n*.log\n!keep.log\nbuild/\n/top-only.txt\n",
  ".ignore": "secret/\n",
  "a.log": "x\n",
  "keep.log": "x\n",
  "top-only.txt": "x\n",
  "src/top-only.txt": "x\n",
  "src/index.js": "x\n",
  "build/out.js": "x\n",
  "secret/key.txt": "x\n",
  ".hidden/file.txt": "x\n",
  "sub/.gitignore": "local.txt\n!important.log\n",
  "sub/local.txt": "x\n",
  "sub/other.txt": "x\n",
  "sub/important.log": "x\n",
  "sub/deeper/local.txt": "x\n",
  "sub/deeper/b.log": "x\n",
  "sub/node_modules/dep/index.js": "x\n",
  ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`node_modules/pkg-${i % 6}/lib/f${i}.js`, "x\n"])),
};

let scratch: string;

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "wb-ignored-entries-")));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function layout(name: string, extra: Record<string, string>): Promise<string> {
  const base = join(scratch, name);
  for (const [path, text] of Object.entries({ ...tree, ...extra })) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), text);
  }
  return base;
}

/** Every file the tree shows undimmed, walking into every folder (dimmed ones too, to see their rows dimmed). */
async function undimmedFiles(runtime: Runtime, root: string, folder = root): Promise<string[]> {
  const entries = (await runtime.fs.readdir(folder)).filter((entry) => entry.name !== ".git");
  const ignored = await ignoredNames(runtime.fs, root, folder, entries);
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.type === "directory") found.push(...(await undimmedFiles(runtime, root, path)));
    else if (!ignored.has(entry.name)) found.push(path.slice(root.length + 1));
  }
  return found.sort();
}

function rgFiles(base: string): string[] {
  const out = execFileSync(RG, ["--files", "--hidden", "-g", "!.git/", "."], { cwd: base, encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/^\.\//, ""))
    .sort();
}

describe("the file tree's ignored rows, against rg --files", () => {
  it("inside a git repository: .gitignore at every level, negations, anchored rules, .ignore", async () => {
    const base = await layout("repo", { ".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "src/index.js\n" });
    const runtime = createNodeRuntime({ root: base });
    const shown = await undimmedFiles(runtime, base);
    expect(shown).toEqual(rgFiles(base));
    expect(shown).not.toContain("node_modules/pkg-0/lib/f0.js");
    expect(shown).toContain("keep.log");
    expect(shown).toContain("src/top-only.txt");
    const top = await ignoredNames(runtime.fs, base, base, await runtime.fs.readdir(base));
    expect([...top].sort()).toEqual(["a.log", "build", "node_modules", "secret", "top-only.txt"]);
  });

  it("outside a repository: .gitignore does not count, as for rg; .ignore still does", async () => {
    const base = await layout("plain", {});
    const runtime = createNodeRuntime({ root: base });
    const shown = await undimmedFiles(runtime, base);
    expect(shown).toEqual(rgFiles(base));
    expect(shown).toContain("node_modules/pkg-0/lib/f0.js");
    expect(shown).not.toContain("secret/key.txt");
  });
});
