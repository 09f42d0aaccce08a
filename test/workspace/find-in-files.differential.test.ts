/**
 * Find in files over a project with a 4,000-file node_modules (findInFilesQuery, run by the embedded
 * runtime's search worker as the panel runs it) against real ripgrep (/usr/bin/rg) on a copy of the same
 * files on disk: the same lines of the same files, in every case below. What the panel adds to rg is only
 * that a node_modules folder is not walked into unless the glob names it; where a git repository's
 * .gitignore already says so, the panel and plain `rg` agree with no glob at all.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { loadFiles } from "../../src/workspace/bulk-load.js";
import { findInFilesQuery } from "../../src/workspace/find-in-files.js";

const RG = "/usr/bin/rg";
const NODE_MODULES_FILES = 4000;

/** A small project of its own beside an install: 100 packages of 40 files, some holding the word looked for. */
function project(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": '{ "name": "app", "version": "1.0.0" }\n',
    "src/app.js": "const needle = require('pkg-1');\nconsole.log(needle);\n",
    "src/util/helpers.js": "// no match here\n",
    "README.md": "Find the needle in the project, not in node_modules.\n",
    ".hidden/secret.js": "needle in a hidden folder\n",
  };
  for (let i = 0; i < NODE_MODULES_FILES; i++) {
    const pkg = `pkg-${Math.floor(i / 40)}`;
    files[`node_modules/${pkg}/lib/file-${i % 40}.js`] = i % 7 === 0 ? `module.exports = "needle ${i}";\n` : `module.exports = ${i};\n`;
  }
  return files;
}

let runtime: EmbeddedRuntime;
let scratch: string;

async function layout(name: string, extra: Record<string, string>): Promise<{ disk: string; root: string }> {
  const files = { ...project(), ...extra };
  const disk = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(disk, path)), { recursive: true });
    await writeFile(join(disk, path), text);
  }
  const root = `/workspace/${name}`;
  const encoder = new TextEncoder();
  await loadFiles(
    runtime,
    root,
    Object.entries(files).map(([path, text]) => ({ path, data: encoder.encode(text) })),
  );
  return { disk, root };
}

/** `path:line:text` for each matching line, sorted, from the panel's query on the embedded runtime. */
async function panel(root: string, glob: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const file of runtime.search.search(findInFilesQuery({ root, pattern: "needle", caseInsensitive: false, glob })))
    for (const match of file.matches) lines.push(`${file.displayPath}:${match.lineNumber}:${match.line.replace(/\n$/, "")}`);
  return lines.sort();
}

/** The same from real rg in the copy on disk. */
function rg(disk: string, args: string[]): string[] {
  let out = "";
  try {
    // The folder named, or rg would read its standard input (a pipe here); "./" taken off as rg leaves it off without it.
    out = execFileSync(RG, ["--no-heading", "--line-number", "--color", "never", ...args, "needle", "."], { cwd: disk, encoding: "utf8" });
  } catch (error) {
    // Exit 1: nothing matched.
    if ((error as { status?: number }).status !== 1) throw error;
  }
  return out
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/^\.\//, ""))
    .sort();
}

const inNodeModules = (lines: string[]) => lines.filter((line) => line.startsWith("node_modules/"));

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "wb-find-in-files-"));
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
}, 60_000);

afterAll(async () => {
  await runtime?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe("Find in files with a 4,000-file node_modules, against real rg", () => {
  it("in a git repository whose .gitignore names node_modules: the same lines as plain rg", { timeout: 120_000 }, async () => {
    const { disk, root } = await layout("git-repo", { ".gitignore": "node_modules\n", ".git/HEAD": "ref: refs/heads/main\n" });
    const ours = await panel(root, "");
    expect(ours).toEqual(rg(disk, []));
    expect(ours).toContain("src/app.js:1:const needle = require('pkg-1');");
    expect(inNodeModules(ours)).toEqual([]);
  });

  it("outside a repository, where rg walks into node_modules: the panel does not, as rg -g '!node_modules/'", {
    timeout: 120_000,
  }, async () => {
    const { disk, root } = await layout("no-repo", { ".gitignore": "node_modules\n" });
    const ours = await panel(root, "");
    // rg honours .gitignore only inside a git repository: plain rg lists hundreds of install lines here.
    expect(inNodeModules(rg(disk, [])).length).toBeGreaterThan(500);
    expect(ours).toEqual(rg(disk, ["-g", "!node_modules/"]));
    expect(inNodeModules(ours)).toEqual([]);
    expect(ours).toEqual([
      "README.md:1:Find the needle in the project, not in node_modules.",
      "src/app.js:1:const needle = require('pkg-1');",
      "src/app.js:2:console.log(needle);",
    ]);
  });

  it("a glob of the person's own is rg's glob, with node_modules still left out", { timeout: 120_000 }, async () => {
    const { disk, root } = await layout("no-repo-glob", {});
    expect(await panel(root, "*.md")).toEqual(rg(disk, ["-g", "*.md", "-g", "!node_modules/"]));
    expect(await panel(root, "!src/")).toEqual(rg(disk, ["-g", "!src/", "-g", "!node_modules/"]));
  });

  it("a glob that names node_modules asks for it: searched as rg searches it", { timeout: 120_000 }, async () => {
    const { disk, root } = await layout("asked", {});
    const ours = await panel(root, "node_modules/pkg-1*/**");
    expect(ours).toEqual(rg(disk, ["-g", "node_modules/pkg-1*/**"]));
    // pkg-1 and pkg-10..pkg-19: 11 packages of 40 files, every seventh file a match.
    expect(ours.length).toBeGreaterThan(50);
    expect(ours.every((line) => line.startsWith("node_modules/pkg-1"))).toBe(true);
  });
});
