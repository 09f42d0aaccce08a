/** Issue 17, item 10: what Tab completes to, read from a real embedded workspace. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { commonStart, ShellCompleter, wordAt } from "../../src/workspace/shell-completion.js";

let runtime: EmbeddedRuntime;
let completer: ShellCompleter;
beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  for (const path of ["src/main.ts", "src/main.tsx", "src/b dir/x", "README.md", ".hidden"]) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, "x");
  }
  completer = new ShellCompleter(() => runtime);
});
afterAll(() => runtime.dispose());

describe("wordAt", () => {
  it("tells a command's name from its arguments", () => {
    expect(wordAt("gr")).toEqual({ word: "gr", command: true });
    expect(wordAt("ls sr")).toEqual({ word: "sr", command: false });
    expect(wordAt("ls | wc")).toEqual({ word: "wc", command: true });
    expect(wordAt("make && ec")).toEqual({ word: "ec", command: true });
    expect(wordAt("for i in 1; do ec")).toEqual({ word: "ec", command: true });
    expect(wordAt("cat src/b\\ d")).toEqual({ word: "src/b\\ d", command: false });
    expect(wordAt("ls ")).toEqual({ word: "", command: false });
  });
});

describe("ShellCompleter", () => {
  it("completes the first word from the shell's commands and builtins", { timeout: 20_000 }, async () => {
    const grep = await completer.complete({ before: "gre", cwd: runtime.root });
    expect(grep.candidates).toContain("grep");
    expect(grep.candidates.every((name) => name.startsWith("gre"))).toBe(true);
    expect((await completer.complete({ before: "ls && expo", cwd: runtime.root })).candidates).toEqual(["export"]);
  });

  it("completes other words as paths from the cwd: folders with a slash, spaces escaped, dotfiles on request", async () => {
    expect(await completer.complete({ before: "cat sr", cwd: runtime.root })).toEqual({ word: "sr", candidates: ["src/"] });
    expect((await completer.complete({ before: "cat src/", cwd: runtime.root })).candidates).toEqual([
      "src/b\\ dir/",
      "src/main.ts",
      "src/main.tsx",
    ]);
    expect((await completer.complete({ before: "cat ", cwd: runtime.root })).candidates).not.toContain(".hidden");
    expect((await completer.complete({ before: "cat .h", cwd: runtime.root })).candidates).toEqual([".hidden"]);
    expect((await completer.complete({ before: "cat ma", cwd: `${runtime.root}/src` })).candidates).toEqual(["main.ts", "main.tsx"]);
    expect((await completer.complete({ before: "cat ../RE", cwd: `${runtime.root}/src` })).candidates).toEqual(["../README.md"]);
    expect((await completer.complete({ before: "./sr", cwd: runtime.root })).candidates).toEqual(["./src/"]);
    expect((await completer.complete({ before: "cat nowhere/x", cwd: runtime.root })).candidates).toEqual([]);
  });

  it("commonStart is what all candidates share", () => {
    expect(commonStart(["src/main.ts", "src/main.tsx"])).toBe("src/main.ts");
    expect(commonStart(["abc", "abd", "x"])).toBe("");
    expect(commonStart([])).toBe("");
  });
});
