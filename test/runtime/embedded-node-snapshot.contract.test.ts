/**
 * A `node` program starts from a sandbox loaded ahead with the workspace (the file host's snapshot cache,
 * then only what changed since): whatever wrote a file before it, the program must see the file as it is
 * now. Each case writes through one path (a tool's checked write, a bulk load, the shell, a previous
 * program, a removal, a link turned elsewhere, a rename, a mode, a write while the spare was being loaded,
 * ZenFS opened on the same store directly), after a program has run, so the next program's sandbox is
 * a preloaded one and only a delta reaches it: a cache that missed the write would show the old file.
 */
import { bindContext, InMemory, resolveMountConfig, type FileSystem } from "@zenfs/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

let runtime: EmbeddedRuntime;
let backing: FileSystem;
const encode = (text: string) => new TextEncoder().encode(text);

beforeAll(async () => {
  backing = await resolveMountConfig({ backend: InMemory });
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, backing });
});

afterAll(async () => runtime.dispose());

/** Runs `node -e` in /workspace and returns what it printed (failing the test on a non-zero exit). */
async function node(code: string): Promise<string> {
  const result = await runtime.exec(`node -e '${code}'`);
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

const show = (path: string) =>
  `console.log(require("fs").existsSync("${path}") ? require("fs").readFileSync("${path}", "utf8") : "(absent)")`;

beforeEach(async () => {
  await runtime.exec("rm -rf /workspace/* && mkdir -p /workspace/dir && echo one > /workspace/dir/file.txt");
  // The sandbox the next program takes was loaded with the files as they are now.
  expect(await node(show("dir/file.txt"))).toBe("one\n\n");
});

describe("the next program sees every write made since its sandbox was loaded", { timeout: 60_000 }, () => {
  it("a tool's checked write (the write and edit tools, the editor)", async () => {
    await runtime.fs.writeFileAtomic("/workspace/dir/file.txt", encode("from a tool"));
    expect(await node(show("dir/file.txt"))).toBe("from a tool\n");
  });

  it("a bulk load (uploads, links, embeds), new folders included", async () => {
    await runtime.writeMany([
      { path: "/workspace/dir/file.txt", data: encode("bulk") },
      { path: "/workspace/new/deep/made.txt", data: encode("made") },
    ]);
    expect(await node(`${show("dir/file.txt")}; ${show("new/deep/made.txt")}`)).toBe("bulk\nmade\n");
  });

  it("many files at once (an install's worth), then most of them removed", async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      path: `/workspace/pkgs/p${i % 30}/f${i}.js`,
      data: encode(`module.exports = ${i};`),
    }));
    await runtime.writeMany(many);
    expect(await node('console.log(require("./pkgs/p29/f299.js"), require("fs").readdirSync("pkgs").length)')).toBe("299 30\n");
    await runtime.exec("rm -rf pkgs/p1* pkgs/p2*");
    expect(await node('console.log(require("fs").readdirSync("pkgs").join(" "))')).toBe("p0 p3 p4 p5 p6 p7 p8 p9\n");
  });

  it("the shell's redirection, and mkdir -p with a file beneath", async () => {
    await runtime.exec("echo two > dir/file.txt && mkdir -p a/b/c && printf deep > a/b/c/x.txt");
    expect(await node(`${show("dir/file.txt")}; ${show("a/b/c/x.txt")}`)).toBe("two\n\ndeep\n");
  });

  it("a previous program's writes, and its removals", async () => {
    await node(
      'const fs = require("fs"); fs.writeFileSync("dir/file.txt", "by node"); fs.mkdirSync("made"); fs.writeFileSync("made/n.txt", "n")',
    );
    expect(await node(`${show("dir/file.txt")}; ${show("made/n.txt")}`)).toBe("by node\nn\n");
    await node('require("fs").rmSync("made", { recursive: true })');
    expect(await node(show("made/n.txt"))).toBe("(absent)\n");
  });

  it("a file removed, and a file put where a folder was", async () => {
    await runtime.exec("rm dir/file.txt");
    expect(await node(show("dir/file.txt"))).toBe("(absent)\n");
    await runtime.exec("rm -r dir && echo flat > dir");
    expect(await node(show("dir"))).toBe("flat\n\n");
  });

  it("a symbolic link turned to another target", async () => {
    await runtime.exec("echo first > first.txt && echo second > second.txt && ln -s first.txt link.txt");
    expect(await node(show("link.txt"))).toBe("first\n\n");
    await runtime.exec("ln -sfn second.txt link.txt");
    expect(await node(`${show("link.txt")}; console.log(require("fs").readlinkSync("link.txt"))`)).toBe("second\n\nsecond.txt\n");
  });

  it("a folder renamed, with what is in it", async () => {
    await runtime.exec("mv dir moved");
    expect(await node(`${show("dir/file.txt")}; ${show("moved/file.txt")}`)).toBe("(absent)\none\n\n");
  });

  it("a mode changed", async () => {
    await runtime.exec("chmod 755 dir/file.txt");
    expect(await node('console.log((require("fs").statSync("dir/file.txt").mode & 0o777).toString(8))')).toBe("755\n");
  });

  it("a write made while the spare sandbox was being loaded", async () => {
    // The program's end starts loading the spare; these writes land while that is under way.
    const ran = runtime.exec("node -e 1");
    await ran;
    const writes = Array.from({ length: 20 }, (_, i) => runtime.fs.writeFile(`/workspace/dir/w${i}.txt`, `w${i}`));
    await runtime.fs.writeFile("/workspace/dir/file.txt", "during the preload");
    await Promise.all(writes);
    const seen = await node(`${show("dir/file.txt")}; console.log(require("fs").readdirSync("dir").length)`);
    expect(seen).toBe("during the preload\n21\n");
  });

  it("a write that reached ZenFS directly, past the file host", async () => {
    const direct = bindContext({ mounts: { "/": backing } }).fs;
    direct.writeFileSync("/workspace/dir/file.txt", "behind the host's back");
    direct.mkdirSync("/workspace/direct");
    direct.writeFileSync("/workspace/direct/d.txt", "d");
    expect(await node(`${show("dir/file.txt")}; ${show("direct/d.txt")}`)).toBe("behind the host's back\nd\n");
  });
});

describe("a preloaded sandbox is still a fresh realm", { timeout: 60_000 }, () => {
  it("a program sees no global or module state left by the one before", async () => {
    await node('globalThis.leak = 1; require("fs").leak = 2; Object.prototype.polluted = 3');
    expect(await node('console.log(typeof globalThis.leak, typeof require("fs").leak, typeof ({}).polluted)')).toBe(
      "undefined undefined undefined\n",
    );
  });
});
