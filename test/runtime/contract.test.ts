/**
 * The runtime contract: one suite, every backend. What passes here is what tools may rely on.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRuntimeError, isWriteConflict, type FsErrorCode, type WriteConflictReason } from "../../src/runtime/errors.js";
import { fingerprint } from "../../src/runtime/fingerprint.js";
import type { OutputChunk, Runtime } from "../../src/runtime/types.js";
import { backends } from "../support/backends.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function expectCode(promise: Promise<unknown>, code: FsErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeDefined();
  expect(isRuntimeError(error), `a RuntimeError, got ${String(error)}`).toBe(true);
  expect((error as { code: string }).code).toBe(code);
}

async function expectConflict(promise: Promise<unknown>, reason: WriteConflictReason): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isWriteConflict(error), `a WriteConflict (${reason}), got ${String(error)}`).toBe(true);
  expect((error as { reason: string }).reason).toBe(reason);
}

const bytes = (value: string) => new TextEncoder().encode(value);

describe.each(backends)("runtime contract: $name", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  let root: string;
  const p = (rel: string) => `${root}/${rel}`;

  beforeEach(async () => {
    ({ runtime, cleanup } = await backend.create());
    root = runtime.root;
  });
  afterEach(async () => cleanup());

  describe("files", () => {
    it("writes and reads text", async () => {
      await runtime.fs.writeFile(p("a.txt"), "hello\nworld\n");
      expect(text(await runtime.fs.readFile(p("a.txt")))).toBe("hello\nworld\n");
    });

    it("keeps every byte value of a binary file", async () => {
      const bytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);
      await runtime.fs.writeFile(p("bin.dat"), bytes);
      expect(Array.from(await runtime.fs.readFile(p("bin.dat")))).toEqual(Array.from(bytes));
    });

    it("appends to a file, creating it when missing", async () => {
      await runtime.fs.appendFile(p("log.txt"), "one\n");
      await runtime.fs.appendFile(p("log.txt"), new TextEncoder().encode("two\n"));
      expect(text(await runtime.fs.readFile(p("log.txt")))).toBe("one\ntwo\n");
      await expectCode(runtime.fs.appendFile(p("absent/log.txt"), "x"), "ENOENT");
    });

    it("reads a byte range, and fewer bytes at the end", async () => {
      await runtime.fs.writeFile(p("r.txt"), "0123456789");
      expect(text(await runtime.fs.read(p("r.txt"), { position: 3, length: 4 }))).toBe("3456");
      expect(text(await runtime.fs.read(p("r.txt"), { position: 8, length: 10 }))).toBe("89");
      expect((await runtime.fs.read(p("r.txt"), { position: 50, length: 10 })).length).toBe(0);
    });

    it("stats files and folders with size, type and a current mtime", async () => {
      const before = Date.now();
      await runtime.fs.writeFile(p("s.txt"), "12345");
      await runtime.fs.mkdir(p("dir"));
      const file = await runtime.fs.stat(p("s.txt"));
      expect(file.type).toBe("file");
      expect(file.size).toBe(5);
      expect(file.mtimeMs).toBeGreaterThanOrEqual(before - 2_000);
      expect(file.mtimeMs).toBeLessThanOrEqual(Date.now() + 2_000);
      expect((await runtime.fs.stat(p("dir"))).type).toBe("directory");
      expect((await runtime.fs.stat(root)).type).toBe("directory");
    });

    it("moves mtime forward when a file is rewritten", async () => {
      await runtime.fs.writeFile(p("m.txt"), "one");
      const first = (await runtime.fs.stat(p("m.txt"))).mtimeMs;
      await new Promise((r) => setTimeout(r, 30));
      await runtime.fs.writeFile(p("m.txt"), "two");
      expect((await runtime.fs.stat(p("m.txt"))).mtimeMs).toBeGreaterThan(first);
    });

    it("lists a folder with entry types", async () => {
      await runtime.fs.mkdir(p("list/sub"), { recursive: true });
      await runtime.fs.writeFile(p("list/f.txt"), "x");
      const entries = (await runtime.fs.readdir(p("list"))).sort((a, b) => a.name.localeCompare(b.name));
      expect(entries).toEqual([
        { name: "f.txt", type: "file" },
        { name: "sub", type: "directory" },
      ]);
    });

    it("makes nested folders with recursive, and is quiet when they exist", async () => {
      await runtime.fs.mkdir(p("a/b/c"), { recursive: true });
      await runtime.fs.mkdir(p("a/b/c"), { recursive: true });
      expect((await runtime.fs.stat(p("a/b/c"))).type).toBe("directory");
    });

    it("refuses mkdir on an existing folder or under a missing one without recursive", async () => {
      await runtime.fs.mkdir(p("once"));
      await expectCode(runtime.fs.mkdir(p("once")), "EEXIST");
      await expectCode(runtime.fs.mkdir(p("missing/child")), "ENOENT");
    });

    it("removes a tree with recursive, and nothing without force when it is missing", async () => {
      await runtime.fs.mkdir(p("tree/deep"), { recursive: true });
      await runtime.fs.writeFile(p("tree/deep/f"), "x");
      await runtime.fs.rm(p("tree"), { recursive: true });
      await expectCode(runtime.fs.stat(p("tree")), "ENOENT");
      await expectCode(runtime.fs.rm(p("tree")), "ENOENT");
      await runtime.fs.rm(p("tree"), { force: true });
    });

    it("refuses to remove a folder without recursive", async () => {
      await runtime.fs.mkdir(p("keep"));
      await expectCode(runtime.fs.rm(p("keep")), "EISDIR");
      expect((await runtime.fs.stat(p("keep"))).type).toBe("directory");
    });

    it("renames files and folders", async () => {
      await runtime.fs.writeFile(p("old.txt"), "content");
      await runtime.fs.rename(p("old.txt"), p("new.txt"));
      expect(text(await runtime.fs.readFile(p("new.txt")))).toBe("content");
      await expectCode(runtime.fs.stat(p("old.txt")), "ENOENT");
      await runtime.fs.mkdir(p("d1"));
      await runtime.fs.writeFile(p("d1/x"), "1");
      await runtime.fs.rename(p("d1"), p("d2"));
      expect(text(await runtime.fs.readFile(p("d2/x")))).toBe("1");
      await expectCode(runtime.fs.rename(p("d2/x"), p("nowhere/x")), "ENOENT");
    });

    it("maps errors to one type with node's codes", async () => {
      await runtime.fs.writeFile(p("file"), "x");
      await runtime.fs.mkdir(p("folder"));
      await expectCode(runtime.fs.readFile(p("absent")), "ENOENT");
      await expectCode(runtime.fs.readFile(p("folder")), "EISDIR");
      await expectCode(runtime.fs.readdir(p("file")), "ENOTDIR");
      await expectCode(runtime.fs.readdir(p("absent")), "ENOENT");
      await expectCode(runtime.fs.writeFile(p("absent/child"), "x"), "ENOENT");
      await expectCode(runtime.fs.writeFile(p("folder"), "x"), "EISDIR");
    });

    it("handles symlinks where supported, and says so where not", async () => {
      await runtime.fs.writeFile(p("target.txt"), "pointed");
      if (!runtime.capabilities.symlinks) {
        await expectCode(runtime.fs.symlink(p("target.txt"), p("link")), "ENOSYS");
        return;
      }
      await runtime.fs.symlink(p("target.txt"), p("link"));
      expect((await runtime.fs.lstat(p("link"))).type).toBe("symlink");
      expect((await runtime.fs.stat(p("link"))).type).toBe("file");
      expect(await runtime.fs.readlink(p("link"))).toBe(p("target.txt"));
      expect(text(await runtime.fs.readFile(p("link")))).toBe("pointed");
      expect(await runtime.fs.realpath(p("link"))).toBe(await runtime.fs.realpath(p("target.txt")));
      const entries = await runtime.fs.readdir(root);
      expect(entries.find((e) => e.name === "link")?.type).toBe("symlink");
    });

    it("answers a link loop with ELOOP, never a hang, and follows links through moved folders", async () => {
      if (!runtime.capabilities.symlinks) return;
      await runtime.fs.mkdir(p("l"));
      await runtime.fs.symlink("self", p("l/self"));
      await runtime.fs.symlink("b", p("l/a"));
      await runtime.fs.symlink("a", p("l/b"));
      for (const path of [p("l/self"), p("l/a"), p("l/self/x"), p("l/../l/b")]) {
        await expectCode(runtime.fs.stat(path), "ELOOP");
        await expectCode(runtime.fs.readFile(path), "ELOOP");
        await expectCode(runtime.fs.realpath(path), "ELOOP");
      }
      expect((await runtime.fs.lstat(p("l/self"))).type).toBe("symlink");
      expect(await runtime.fs.readlink(p("l/a"))).toBe("b");
      await runtime.fs.writeFile(p("t.txt"), "through");
      await runtime.fs.symlink("../t.txt", p("l/ok"));
      await runtime.fs.rename(p("l"), p("moved"));
      expect(text(await runtime.fs.readFile(p("moved/ok")))).toBe("through");
      await expectCode(runtime.fs.stat(p("moved/self")), "ELOOP");
      await runtime.fs.rm(p("moved"), { recursive: true });
      await expectCode(runtime.fs.stat(p("moved/self")), "ENOENT");
    });

    it("announces changes made through fs", async () => {
      const seen: Array<string[] | "unknown"> = [];
      const off = runtime.onChange((paths) => seen.push(paths));
      await runtime.fs.writeFile(p("watched.txt"), "x");
      off();
      expect(seen.some((paths) => paths === "unknown" || paths.includes(p("watched.txt")))).toBe(true);
    });

    // The file tree and open editors follow the terminal and the bash tool through this.
    it("announces changes made by a command", async () => {
      const seen: Array<string[] | "unknown"> = [];
      const off = runtime.onChange((paths) => seen.push(paths));
      await runtime.exec("echo x > made-by-shell.txt");
      off();
      expect(seen.some((paths) => paths === "unknown" || paths.includes(p("made-by-shell.txt")))).toBe(true);
    });
  });

  describe("checked writes (writeFileAtomic)", () => {
    it("creates a file expected absent, and refuses when one appeared", async () => {
      await runtime.fs.writeFileAtomic(p("new.txt"), bytes("first"), { expect: "absent" });
      expect(text(await runtime.fs.readFile(p("new.txt")))).toBe("first");
      await expectConflict(runtime.fs.writeFileAtomic(p("new.txt"), bytes("second"), { expect: "absent" }), "created");
      expect(text(await runtime.fs.readFile(p("new.txt")))).toBe("first");
    });

    it("replaces a file whose content is as expected, judged on content and not on mtime", async () => {
      await runtime.fs.writeFile(p("f.txt"), "aaaa");
      const seen = fingerprint(await runtime.fs.readFile(p("f.txt")));
      // Same size, possibly the same mtime tick: only the content tells.
      await runtime.fs.writeFile(p("f.txt"), "bbbb");
      await expectConflict(runtime.fs.writeFileAtomic(p("f.txt"), bytes("mine"), { expect: seen }), "changed");
      expect(text(await runtime.fs.readFile(p("f.txt")))).toBe("bbbb");
      await runtime.fs.writeFileAtomic(p("f.txt"), bytes("mine"), { expect: fingerprint(bytes("bbbb")) });
      expect(text(await runtime.fs.readFile(p("f.txt")))).toBe("mine");
      await runtime.fs.rm(p("f.txt"));
      await expectConflict(runtime.fs.writeFileAtomic(p("f.txt"), bytes("again"), { expect: fingerprint(bytes("mine")) }), "deleted");
      await expectCode(runtime.fs.stat(p("f.txt")), "ENOENT");
    });

    it("writes nothing when the folder is not the one judged", async () => {
      await runtime.fs.mkdir(p("a"));
      await runtime.fs.mkdir(p("b"));
      const judged = await runtime.fs.realpath(p("a"));
      await runtime.fs.writeFileAtomic(p("a/x.txt"), bytes("in a"), { parent: judged });
      await expectConflict(runtime.fs.writeFileAtomic(p("b/x.txt"), bytes("in b"), { parent: judged }), "moved");
      await expectCode(runtime.fs.stat(p("b/x.txt")), "ENOENT");
      expect(text(await runtime.fs.readFile(p("a/x.txt")))).toBe("in a");
    });

    it("never follows a link at the name, dangling or not", async () => {
      if (!runtime.capabilities.symlinks) return;
      await runtime.fs.writeFile(p("target.txt"), "pointed");
      await runtime.fs.symlink(p("target.txt"), p("link"));
      await runtime.fs.symlink(p("nothing-here.txt"), p("dangling"));
      await expectCode(runtime.fs.writeFileAtomic(p("link"), bytes("through")), "ELOOP");
      await expectCode(runtime.fs.writeFileAtomic(p("dangling"), bytes("through"), { expect: "absent" }), "ELOOP");
      expect(text(await runtime.fs.readFile(p("target.txt")))).toBe("pointed");
      await expectCode(runtime.fs.lstat(p("nothing-here.txt")), "ENOENT");
      expect((await runtime.fs.lstat(p("link"))).type).toBe("symlink");
    });

    it("reads without following a link at the name when asked (noFollow)", async () => {
      await runtime.fs.writeFile(p("plain.txt"), "plain");
      expect(text(await runtime.fs.readFile(p("plain.txt"), { noFollow: true }))).toBe("plain");
      await runtime.fs.mkdir(p("folder"));
      await expectCode(runtime.fs.readFile(p("folder"), { noFollow: true }), "EISDIR");
      await expectCode(runtime.fs.readFile(p("absent"), { noFollow: true }), "ENOENT");
      if (!runtime.capabilities.symlinks) return;
      await runtime.fs.symlink(p("plain.txt"), p("link"));
      await expectCode(runtime.fs.readFile(p("link"), { noFollow: true }), "ELOOP");
      // Links before the last component are followed, as with O_NOFOLLOW.
      await runtime.fs.symlink(p("folder"), p("dirlink"));
      await runtime.fs.writeFile(p("folder/in.txt"), "in");
      expect(text(await runtime.fs.readFile(p("dirlink/in.txt"), { noFollow: true }))).toBe("in");
    });

    it("makes missing folders when asked, never through a link on the way", async () => {
      const base = await runtime.fs.realpath(root);
      await runtime.fs.writeFileAtomic(`${base}/made/deeper/f.txt`, bytes("deep"), {
        expect: "absent",
        parent: `${base}/made/deeper`,
        makeParents: true,
      });
      expect(text(await runtime.fs.readFile(p("made/deeper/f.txt")))).toBe("deep");
      if (!runtime.capabilities.symlinks) return;
      await runtime.fs.mkdir(p("elsewhere"));
      await runtime.fs.symlink(p("elsewhere"), p("via"));
      await expectConflict(
        runtime.fs.writeFileAtomic(`${base}/via/new/f.txt`, bytes("x"), { expect: "absent", makeParents: true }),
        "moved",
      );
      expect(await runtime.fs.readdir(p("elsewhere"))).toEqual([]);
    });

    it("refuses a folder and a missing parent with node's codes", async () => {
      await runtime.fs.mkdir(p("dir"));
      await expectCode(runtime.fs.writeFileAtomic(p("dir"), bytes("x")), "EISDIR");
      await expectCode(runtime.fs.writeFileAtomic(p("absent/x"), bytes("x")), "ENOENT");
    });

    it("lets exactly one of many concurrent writers expecting the same content win, and leaves no trace", async () => {
      await runtime.fs.mkdir(p("race"));
      await runtime.fs.writeFile(p("race/f.txt"), "base");
      const seen = fingerprint(bytes("base"));
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => runtime.fs.writeFileAtomic(p("race/f.txt"), bytes(`writer ${i}`), { expect: seen })),
      );
      const won = outcomes.flatMap((o, i) => (o.status === "fulfilled" ? [i] : []));
      expect(won).toHaveLength(1);
      for (const o of outcomes) if (o.status === "rejected") expect(isWriteConflict(o.reason) && o.reason.reason).toBe("changed");
      expect(text(await runtime.fs.readFile(p("race/f.txt")))).toBe(`writer ${won[0]}`);
      expect((await runtime.fs.readdir(p("race"))).map((e) => e.name)).toEqual(["f.txt"]);
    });

    it("keeps the file's mode where modes exist", async () => {
      if (!runtime.capabilities.modes) return;
      await runtime.fs.writeFile(p("m.sh"), "#!/bin/sh\n");
      expect((await runtime.exec("chmod 750 m.sh")).exitCode).toBe(0);
      await runtime.fs.writeFileAtomic(p("m.sh"), bytes("#!/bin/sh\necho hi\n"), { expect: fingerprint(bytes("#!/bin/sh\n")) });
      expect((await runtime.exec("stat -c %a m.sh")).stdout.trim()).toBe("750");
    });

    it("announces the change", async () => {
      const seen: Array<string[] | "unknown"> = [];
      const off = runtime.onChange((paths) => seen.push(paths));
      await runtime.fs.writeFileAtomic(p("told.txt"), bytes("x"));
      off();
      expect(seen.some((paths) => paths === "unknown" || paths.includes(p("told.txt")))).toBe(true);
    });
  });

  describe("exec", () => {
    it("reports exit codes", async () => {
      expect((await runtime.exec("true")).exitCode).toBe(0);
      expect((await runtime.exec("false")).exitCode).toBe(1);
      expect((await runtime.exec("exit 3")).exitCode).toBe(3);
    });

    it("keeps stdout and stderr (apart where the backend can)", async () => {
      const result = await runtime.exec("echo out; echo err >&2");
      expect(result.output).toContain("out\n");
      expect(result.output).toContain("err\n");
      if (runtime.capabilities.separateStderr) {
        expect(result.stdout).toBe("out\n");
        expect(result.stderr).toBe("err\n");
      } else {
        expect(result.stdout).toBe(result.output);
      }
    });

    it("starts in the workspace, or in cwd when given, and takes env", async () => {
      await runtime.fs.mkdir(p("sub"));
      expect((await runtime.exec("pwd")).stdout.trim()).toBe(root);
      expect((await runtime.exec("pwd", { cwd: p("sub") })).stdout.trim()).toBe(p("sub"));
      expect((await runtime.exec("echo $WB_VALUE", { env: { WB_VALUE: "forty-two" } })).stdout.trim()).toBe("forty-two");
    });

    it("carries nothing from one call to the next", async () => {
      await runtime.fs.mkdir(p("elsewhere"));
      await runtime.exec("cd elsewhere; export WB_LEAK=1");
      expect((await runtime.exec('pwd; echo "[$WB_LEAK]"')).stdout).toBe(`${root}\n[]\n`);
    });

    it("sees the same files as fs, both ways", async () => {
      await runtime.exec("echo from-shell > shell.txt");
      expect(text(await runtime.fs.readFile(p("shell.txt")))).toBe("from-shell\n");
      await runtime.fs.writeFile(p("api.txt"), "from-api");
      expect((await runtime.exec("cat api.txt")).stdout).toBe("from-api");
    });

    it("hands output over in chunks that add up to the whole", async () => {
      const chunks: OutputChunk[] = [];
      const result = await runtime.exec("for i in 1 2 3; do echo line $i; done; echo oops >&2", {
        onOutput: (chunk) => chunks.push(chunk),
      });
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks.map((c) => c.text).join("")).toBe(result.output);
      expect(result.output).toContain("line 1\nline 2\nline 3\n");
    });

    it("leaves the result's strings empty with collect: false, the chunks still adding up to the output", async () => {
      const chunks: string[] = [];
      const result = await runtime.exec("seq 1 3000; echo oops >&2", { collect: false, onOutput: (chunk) => chunks.push(chunk.text) });
      expect(result.exitCode).toBe(0);
      expect([result.stdout, result.stderr, result.output]).toEqual(["", "", ""]);
      const all = chunks.join("");
      expect(all).toContain("2999\n3000\n");
      expect(all).toContain("oops\n");
    });

    it("passes a large output through whole", async () => {
      const result = await runtime.exec("seq 1 20000");
      const lines = result.stdout.trimEnd().split("\n");
      expect(lines.length).toBe(20000);
      expect(lines[19999]).toBe("20000");
    });

    it("stops at the timeout and says so", async () => {
      const result = await runtime.exec("echo before; sleep 20; echo after", { timeoutMs: 400 });
      expect(result.timedOut).toBe(true);
      expect(result.aborted).toBe(false);
      expect(result.exitCode).toBeNull();
      expect(result.output).not.toContain("after");
      if (backend.streamsLive) expect(result.output).toContain("before");
    });

    it("stops on abort and says so", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const result = await runtime.exec("sleep 20; echo after", { signal: controller.signal });
      expect(result.aborted).toBe(true);
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBeNull();
      expect(result.output).not.toContain("after");
    });

    it("does not start when the signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort();
      const result = await runtime.exec("echo ran > ran.txt", { signal: controller.signal });
      expect(result.aborted).toBe(true);
      await expectCode(runtime.fs.stat(p("ran.txt")), "ENOENT");
    });

    it("works again after a stopped command", async () => {
      await runtime.exec("sleep 20", { timeoutMs: 200 });
      expect((await runtime.exec("echo alive")).stdout).toBe("alive\n");
    });

    it("reads /dev/null as empty with cat, head and wc, and lists it in /dev", async () => {
      const read = await runtime.exec(
        "cat /dev/null; echo rc=$?; head -c 5 /dev/null; echo rc=$?; wc -c /dev/null; cat < /dev/null; echo rc=$?",
      );
      expect(read.output).toMatch(/^rc=0\nrc=0\n\s*0 \/dev\/null\nrc=0\n$/);
      expect(read.exitCode).toBe(0);
      const listed = await runtime.exec("ls /dev");
      expect(listed.exitCode).toBe(0);
      expect(listed.stdout.split("\n")).toContain("null");
    });

    it("has `which` find what `command -v` finds, and fail quietly on an unknown command", async () => {
      const found = await runtime.exec("command -v ls; which ls; echo rc=$?");
      const [viaCommand, viaWhich, rc] = found.stdout.split("\n");
      expect(viaCommand).toMatch(/^\/.*\/ls$/);
      expect(viaWhich).toBe(viaCommand);
      expect(rc).toBe("rc=0");
      const missing = await runtime.exec("which no-such-command-wb; echo rc=$?");
      expect(missing.output).toBe("rc=1\n");
    });

    it("reports the shell state it ended with, where it can", async () => {
      await runtime.fs.mkdir(p("deeper"));
      const result = await runtime.exec("cd deeper && export WB_KEPT=yes", { captureState: true });
      if (!runtime.capabilities.shellState) {
        expect(result.state).toBeUndefined();
        return;
      }
      expect(result.state?.cwd).toBe(p("deeper"));
      expect(result.state?.env.WB_KEPT).toBe("yes");
      const next = await runtime.exec('pwd; echo "$WB_KEPT"', { cwd: result.state!.cwd, env: result.state!.env });
      expect(next.stdout).toBe(`${p("deeper")}\nyes\n`);
    });
  });
});

// A statement's output arrives before the line ends: here the abort is only ever sent from onOutput, so a
// backend that held "first" back until the end would run into the 20 s timeout instead.
describe.each(backends.filter((b) => b.streamsStatements))("runtime contract, output per statement: $name", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ runtime, cleanup } = await backend.create()));
  afterEach(async () => cleanup());

  it.each(["echo first; sleep 30; echo never", "echo first && sleep 30 && echo never"])(
    "hands over a command's output before the next one ends: %s",
    async (line) => {
      const controller = new AbortController();
      const seen: string[] = [];
      const result = await runtime.exec(line, {
        signal: controller.signal,
        timeoutMs: 20_000,
        onOutput: (chunk) => {
          seen.push(chunk.text);
          controller.abort();
        },
      });
      expect(result.aborted).toBe(true);
      expect(result.timedOut).toBe(false);
      expect(seen.join("")).toBe("first\n");
      expect(result.output).toBe("first\n");
    },
    30_000,
  );

  it("keeps the line's meaning: variables, functions, cwd, set -e and the exit status", async () => {
    await runtime.fs.mkdir(`${runtime.root}/sub`);
    const chunks: OutputChunk[] = [];
    const result = await runtime.exec(
      'x=5; f() { echo "f$x" >&2; }; f; cd sub; pwd; ls no-such-file 2>&1 | grep -c no-such-file; set -e; false; echo never',
      { onOutput: (chunk) => chunks.push(chunk) },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(`${runtime.root}/sub\n1\n`);
    expect(result.stderr).toBe("f5\n");
    expect(chunks.map((c) => c.text).join("")).toBe(result.output);
  });
});

// Only backends that stream as a command runs; the others are held to "chunks add up" above.
describe.each(backends.filter((b) => b.streamsLive))("runtime contract, live streaming: $name", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ runtime, cleanup } = await backend.create()));
  afterEach(async () => cleanup());

  it("streams output while the command runs", async () => {
    let firstAt = 0;
    const started = Date.now();
    const result = await runtime.exec("echo first; sleep 1; echo second", {
      onOutput: () => (firstAt ||= Date.now()),
    });
    const endedAt = Date.now();
    expect(result.stdout).toBe("first\nsecond\n");
    expect(firstAt - started).toBeLessThan(endedAt - started - 500);
  });
});
