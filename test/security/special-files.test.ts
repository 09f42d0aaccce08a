/**
 * Issue 15, item 9: special files in the workspace (a FIFO, a socket, a link to /dev/zero). A FIFO
 * blocks whoever opens it for reading until a writer comes; /dev/zero never ends. Attacks: read them,
 * grep and glob and list over them, `workbench rg` over them (walked and named), and copy the folder
 * into the embedded runtime. Nothing may hang or read without end: walks skip them as ripgrep does
 * (real rg, run on the same folder, is the oracle), reads refuse them saying what they are, and the copy
 * leaves them out with a report. Real special files exist on the node runtime only; the embedded
 * runtime meets them through the copy. Every case ends with the sentinel outside unchanged.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { lstatSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyFolder, syncBack } from "../../src/cli/folder-sync.js";
import { rgMain } from "../../src/cli/rg.js";
import { isRuntimeError } from "../../src/runtime/errors.js";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { createNodeSearchFs } from "../../src/runtime/node/search-fs.js";
import type { Runtime } from "../../src/runtime/types.js";
import { ToolSession } from "../../src/session/host/tool-session.js";
import { builtinTools } from "../../src/tools/builtins.js";
import { sessionOn } from "../support/tool-session.js";
import { makeSentinel, type Sentinel } from "./search-sentinel.js";

const RG = "/usr/bin/rg";
const repoRoot = resolve(__dirname, "../..");

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A node workspace with a.txt, a FIFO, a socket, a link to /dev/zero, and a FIFO one folder down. */
async function specialWorkspace(options: { searchThreads?: number } = {}) {
  const s = await sessionOn("node", { "a.txt": "hello inside\n", "sub/b.txt": "hello b\n" });
  cleanups.push(s.dispose);
  const { root } = s;
  execFileSync("mkfifo", [join(root, "fifo"), join(root, "sub/pipe")]);
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(join(root, "sock"), done));
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  await s.runtime.fs.symlink("/dev/zero", join(root, "zero"));
  const sentinel = await makeSentinel(s.runtime);
  let runtime: Runtime = s.runtime;
  let session = s.session;
  if (options.searchThreads !== undefined) {
    // Every file handed to the search threads, however small the search.
    const threaded = createNodeRuntime({ root, searchThreads: options.searchThreads, searchHandOffAfter: 0 });
    cleanups.push(() => threaded.dispose());
    runtime = threaded;
    session = await ToolSession.open({
      runtime,
      dataDir: join(root, "../data"),
      home: "/home/user",
      builtins: builtinTools,
      trusted: true,
    });
  }
  return { session, runtime, root, sentinel };
}

/** rg's matching `path:line` rows in `cwd`, paths relative. */
function rgRows(cwd: string, args: string[]): string[] {
  const result = spawnSync(RG, [...args, "."], { cwd, encoding: "utf8", timeout: 20_000 });
  expect(result.error).toBeUndefined();
  return result.stdout
    .split("\n")
    .filter((row) => row !== "")
    .map((row) => row.replace(/^\.\//, ""))
    .sort();
}

/** The grep tool's output as `path:line` rows relative to `root`. */
function grepRows(output: string, root: string): string[] {
  const rows: string[] = [];
  let current = "";
  for (const line of output.split("\n")) {
    if (line.startsWith("/") && line.endsWith(":")) current = line.slice(root.length + 1, -1);
    const hit = /^ {2}Line (\d+):/.exec(line);
    if (hit) rows.push(`${current}:${hit[1]}`);
  }
  return rows.sort();
}

const stillThere = (root: string) => {
  expect(lstatSync(join(root, "fifo")).isFIFO()).toBe(true);
  expect(lstatSync(join(root, "sub/pipe")).isFIFO()).toBe(true);
  expect(lstatSync(join(root, "sock")).isSocket()).toBe(true);
};

describe("special files on the node runtime", () => {
  it("read refuses a FIFO, a socket and a link to /dev/zero, saying what each is", async () => {
    const { session, root, sentinel } = await specialWorkspace();
    const expected: Record<string, string> = {
      fifo: `${root}/fifo is a FIFO (named pipe), not a regular file; read cannot open it`,
      sock: `${root}/sock is a socket, not a regular file; read cannot open it`,
      zero: `${root}/zero is a device, not a regular file; read cannot open it`,
    };
    // The link to /dev/zero leads outside: allowed here, so the special-file refusal is what stops it.
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "once")));
    for (const [name, error] of Object.entries(expected)) {
      const call = await session.run("read", { filePath: name });
      expect(call.status).toBe("error");
      expect(call.error).toBe(error);
    }
    stillThere(root);
    await sentinel.assertUnchanged();
  });

  it("the runtime's reads refuse them too (a name swapped for a FIFO after a check is caught at open)", async () => {
    const { runtime, root, sentinel } = await specialWorkspace();
    for (const name of ["fifo", "sock", "zero"]) {
      for (const attempt of [
        () => runtime.fs.readFile(join(root, name)),
        () => runtime.fs.read(join(root, name), { position: 0, length: 10 }),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isRuntimeError(error, "EINVAL")).toBe(true);
        expect((error as Error).message).toMatch(/not a regular file: it is (a FIFO \(named pipe\)|a socket|a device)/);
      }
    }
    const searchFs = createNodeSearchFs();
    await expect(searchFs.readFile(join(root, "fifo"))).rejects.toThrow(/not a regular file/);
    expect(searchFs.readNow?.(join(root, "sub/pipe"))).toBeUndefined();
    await sentinel.assertUnchanged();
  });

  for (const threads of [undefined, 1]) {
    it(`grep skips them as rg does${threads ? " (on the search threads)" : ""}`, async () => {
      const { session, root, sentinel } = await specialWorkspace({ searchThreads: threads });
      const call = await session.run("grep", { pattern: "hello" });
      expect(call.status).toBe("completed");
      const expected = rgRows(root, ["-L", "--hidden", "-n", "--no-heading", "hello"]).map((row) => row.split(":").slice(0, 2).join(":"));
      expect(expected).toEqual(["a.txt:1", "sub/b.txt:1"]);
      expect(grepRows(call.output ?? "", root)).toEqual(expected);
      // The link to /dev/zero leads outside the workspace: named, not followed.
      expect(call.output).toContain("zero -> /dev/zero");
      stillThere(root);
      await sentinel.assertUnchanged();
    });
  }

  it("glob and list skip them as rg --files does", async () => {
    const { session, root, sentinel } = await specialWorkspace();
    const glob = await session.run("glob", { pattern: "**/*" });
    const listed = (glob.output ?? "")
      .split("\n")
      .map((path) => path.slice(root.length + 1))
      .sort();
    expect(listed).toEqual(rgRows(root, ["--files", "--hidden"]));
    expect(listed).toEqual(["a.txt", "sub/b.txt"]);
    const list = await session.run("list", {});
    expect(list.output).toBe(`${root}/\n  sub/\n    b.txt\n  a.txt\n`);
    await sentinel.assertUnchanged();
  });

  it("workbench rg walks past them as rg does, and refuses one named on its command line (where rg would wait)", async () => {
    const { runtime, root, sentinel } = await specialWorkspace();
    const run = async (args: string[]) => {
      let out = "";
      let err = "";
      const code = await rgMain(
        args,
        { out: (t) => (out += t), err: (t) => (err += t) },
        { search: runtime.search, fs: runtime.fs, cwd: root },
      );
      return { code, out, err };
    };
    const walked = await run(["-L", "-n", "hello"]);
    expect(walked.code).toBe(0);
    expect(walked.out.split("\n").filter(Boolean).sort()).toEqual(rgRows(root, ["-L", "-n", "hello"]));
    const named = await run(["hello", "fifo", "sock", "a.txt"]);
    expect(named.code).toBe(2);
    expect(named.out).toBe("a.txt:hello inside\n");
    expect(named.err).toContain("fifo: is a FIFO (named pipe), not a regular file; it was not searched");
    expect(named.err).toContain("sock: is a socket, not a regular file; it was not searched");
    stillThere(root);
    await sentinel.assertUnchanged();
  });
});

describe("special files and the embedded runtime (through the copy)", () => {
  it("the copy leaves them out and says so; tools on the copy finish; copying back leaves them as they were", async () => {
    const { runtime: folder, root, sentinel } = await specialWorkspace();
    const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root: "/workspace" });
    cleanups.push(() => embedded.dispose());
    const embeddedSentinel: Sentinel = await makeSentinel(embedded);
    const { skipped } = await copyFolder(folder, embedded);
    expect(skipped.sort()).toEqual(["fifo (a FIFO (named pipe))", "sock (a socket)", "sub/pipe (a FIFO (named pipe))"]);
    expect((await embedded.fs.readdir("/workspace")).map((e) => e.name).sort()).toEqual(["a.txt", "sub", "zero"]);
    const session = await ToolSession.open({
      runtime: embedded,
      dataDir: "/data",
      home: "/home/user",
      builtins: builtinTools,
      trusted: true,
    });
    const grep = await session.run("grep", { pattern: "hello" });
    expect(grepRows(grep.output ?? "", "/workspace")).toEqual(["a.txt:1", "sub/b.txt:1"]);
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "once")));
    expect((await session.run("read", { filePath: "zero" })).status).toBe("error");
    await syncBack(embedded, folder);
    stillThere(root);
    await sentinel.assertUnchanged();
    await embeddedSentinel.assertUnchanged();
  });

  it("workbench --runtime embedded reports what it did not copy, and the tool runs", async () => {
    const { root, sentinel } = await specialWorkspace();
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [
          join(repoRoot, "bin/workbench.mjs"),
          "tool",
          "grep",
          "--dir",
          root,
          "--runtime",
          "embedded",
          "--args",
          JSON.stringify({ pattern: "hello" }),
        ],
        { timeout: 60_000 },
        (error, stdout, stderr) => done({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "note: 3 special file(s) not copied into the embedded runtime (no content to copy): fifo (a FIFO (named pipe)), sock (a socket), sub/pipe (a FIFO (named pipe))",
    );
    expect(result.stdout).toContain("/workspace/a.txt:");
    stillThere(root);
    await sentinel.assertUnchanged();
  });
});
