/**
 * What the checkpoint store promises beyond undo/redo (that is test/property/checkpoints.property.test.ts):
 * unchanged files cost nothing, a one-line edit of a big file costs about that line, one call reverts
 * alone or names what stands in the way, a file's history, pruning a session keeps every other checkpoint
 * exact, a timeline survives a reopen, and a restore never writes outside the workspace through a link.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { Checkpoints, CheckpointError } from "../../src/workspace/checkpoints/checkpoints.js";
import { MemoryCheckpointStorage } from "../../src/workspace/checkpoints/storage.js";

let runtime: EmbeddedRuntime;
let storage: MemoryCheckpointStorage;
let checkpoints: Checkpoints;
let detach: () => void;
const root = "/workspace";
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const read = (path: string) => runtime.fs.readFile(`${root}/${path}`).then(text);
const call = (id: string) => checkpoints.record({ kind: "call", sessionID: "s1", callID: id, tool: "write" });

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
});
afterAll(() => runtime.dispose());

beforeEach(async () => {
  detach?.();
  for (const entry of await runtime.fs.readdir(root)) await runtime.fs.rm(`${root}/${entry.name}`, { recursive: true, force: true });
  await runtime.fs.rm("/tmp/outside", { recursive: true, force: true });
  storage = new MemoryCheckpointStorage();
  checkpoints = await Checkpoints.open({ fs: runtime.fs, root, storage });
  detach = checkpoints.attach(runtime);
});

describe("what a checkpoint costs", () => {
  it("records only the file a call changed among hundreds, and stores its content once", async () => {
    await runtime.writeMany(
      Array.from({ length: 300 }, (_, i) => ({ path: `${root}/src/f${i}.txt`, data: new TextEncoder().encode(`file ${i}\n`) })),
    );
    await checkpoints.record({ kind: "outside" });
    const blobsBefore = storage.blobs.size;
    await runtime.fs.writeFile(`${root}/src/f7.txt`, "changed\n");
    const checkpoint = await call("c1");
    expect(checkpoint!.changes.map((change) => change.path)).toEqual(["src/f7.txt"]);
    expect(storage.blobs.size).toBe(blobsBefore + 1);
    // The same content written elsewhere is the same blob.
    await runtime.fs.writeFile(`${root}/copy.txt`, "changed\n");
    await call("c2");
    expect(storage.blobs.size).toBe(blobsBefore + 1);
  });

  it("stores a one-line edit of a 1 MB file as about that line", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
    await runtime.fs.writeFile(`${root}/big.txt`, lines.join("\n"));
    await call("c0");
    const before = storage.blobBytes();
    for (let step = 1; step <= 20; step++) {
      lines[step * 500] = `edited in step ${step}`;
      await runtime.fs.writeFile(`${root}/big.txt`, lines.join("\n"));
      await call(`c${step}`);
    }
    expect(storage.blobBytes() - before).toBeLessThan(20 * 2_000);
    // And every version still reads back whole: undo to the middle.
    const middle = checkpoints.callCheckpoint("c10")!.seq;
    await checkpoints.restore(middle);
    const expected = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
    for (let step = 1; step <= 10; step++) expected[step * 500] = `edited in step ${step}`;
    expect(await read("big.txt")).toBe(expected.join("\n"));
  });
});

describe("revert one call", () => {
  it("takes back that call's files alone", async () => {
    await runtime.fs.writeFile(`${root}/a.txt`, "a1");
    await call("c1");
    await runtime.exec("mkdir -p d && printf b > d/b.txt && rm a.txt");
    await call("c2");
    await runtime.fs.writeFile(`${root}/c.txt`, "c");
    await call("c3");
    const result = await checkpoints.revert("c2");
    expect(result.status).toBe("reverted");
    expect(await read("a.txt")).toBe("a1");
    await expect(runtime.fs.lstat(`${root}/d`)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await read("c.txt")).toBe("c");
  });

  it("names the later call that touched the same file, and writes nothing", async () => {
    await runtime.fs.writeFile(`${root}/a.txt`, "one");
    await call("c1");
    await runtime.fs.writeFile(`${root}/a.txt`, "two");
    await call("c2");
    const result = await checkpoints.revert("c1");
    expect(result).toMatchObject({ status: "conflict", later: [{ cause: { kind: "call", callID: "c2" }, paths: ["a.txt"] }] });
    expect(await read("a.txt")).toBe("two");
  });

  it("counts a file made inside a folder the call made as standing in the way", async () => {
    await runtime.exec("mkdir d && echo x > d/x");
    await call("c1");
    await runtime.fs.writeFile(`${root}/d/mine.txt`, "keep me");
    const result = await checkpoints.revert("c1");
    expect(result.status).toBe("conflict");
    expect(await read("d/mine.txt")).toBe("keep me");
  });

  it("says so for a call it never recorded", async () => {
    await expect(checkpoints.revert("nope")).rejects.toThrow(CheckpointError);
  });
});

describe("hand edits", () => {
  it("a restore lists them and writes nothing until confirmed", async () => {
    const mark = await checkpoints.record({ kind: "message", sessionID: "s1", messageID: "m1" });
    await runtime.fs.writeFile(`${root}/a.txt`, "agent");
    await call("c1");
    await runtime.fs.writeFile(`${root}/a.txt`, "person");
    const asked = await checkpoints.restore(mark!.seq);
    expect(asked.status).toBe("needs-confirmation");
    expect(asked.plan.overwrites.map((change) => change.path)).toEqual(["a.txt"]);
    expect(await read("a.txt")).toBe("person");
    const done = await checkpoints.restore(mark!.seq, { confirm: true });
    expect(done.status).toBe("restored");
    await expect(runtime.fs.lstat(`${root}/a.txt`)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("history, pruning, reopening", () => {
  it("lists a file's versions by the checkpoint that made each, with readable contents", async () => {
    await runtime.fs.writeFile(`${root}/a.txt`, "v1");
    await call("c1");
    await runtime.fs.writeFile(`${root}/a.txt`, "v2");
    await call("c2");
    await runtime.fs.rm(`${root}/a.txt`);
    await call("c3");
    const versions = checkpoints.history("a.txt");
    expect(versions.map((version) => (version.cause.kind === "call" ? version.cause.callID : version.cause.kind))).toEqual([
      "c1",
      "c2",
      "c3",
    ]);
    const contents = await Promise.all(
      versions.map((version) => (version.after?.type === "file" ? checkpoints.read(version.after.hash).then(text) : Promise.resolve(null))),
    );
    expect(contents).toEqual(["v1", "v2", null]);
  });

  it("pruning a session keeps every other checkpoint exact and drops the blobs only it named", async () => {
    await runtime.fs.writeFile(`${root}/a.txt`, "kept-1");
    const keep1 = await checkpoints.record({ kind: "call", sessionID: "keep", callID: "k1" });
    await runtime.fs.writeFile(`${root}/a.txt`, "pruned-only");
    await checkpoints.record({ kind: "call", sessionID: "gone", callID: "g1" });
    await runtime.fs.writeFile(`${root}/a.txt`, "kept-2");
    const keep2 = await checkpoints.record({ kind: "call", sessionID: "keep", callID: "k2" });
    await checkpoints.prune("gone");
    expect(checkpoints.callCheckpoint("g1")).toBeUndefined();
    const texts = await Promise.all([...storage.blobs.keys()].map((hash) => checkpoints.read(hash).then(text)));
    expect(texts).not.toContain("pruned-only");
    await checkpoints.restore(keep1!.seq);
    expect(await read("a.txt")).toBe("kept-1");
    await checkpoints.restore(keep2!.seq);
    expect(await read("a.txt")).toBe("kept-2");
  });

  it("a reopened timeline restores as before, and what changed while closed counts as a hand edit", async () => {
    await runtime.fs.writeFile(`${root}/a.txt`, "one");
    const first = await call("c1");
    detach();
    await runtime.fs.writeFile(`${root}/a.txt`, "while closed");
    const again = await Checkpoints.open({ fs: runtime.fs, root, storage });
    detach = again.attach(runtime);
    expect(again.list().at(-1)!.cause.kind).toBe("outside");
    const asked = await again.restore(first!.seq);
    expect(asked.status).toBe("needs-confirmation");
    await again.restore(first!.seq, { confirm: true });
    expect(await read("a.txt")).toBe("one");
  });

  it("refuses a damaged timeline with what to do", async () => {
    await storage.putCheckpoint({ seq: 99, time: 0, cause: { kind: "outside" }, changes: [{ path: "", before: null, after: null }] });
    await expect(Checkpoints.open({ fs: runtime.fs, root, storage })).rejects.toThrow(/damaged.*clear the workspace's checkpoints/);
  });
});

describe("attacks: a restore writes only inside the workspace", () => {
  it("a folder swapped for a link to outside is replaced, never written through", async () => {
    await runtime.exec("mkdir -p d && echo inside > d/f");
    const before = await call("c1");
    await runtime.exec("mkdir -p /tmp/outside && rm -rf d && ln -s /tmp/outside d");
    await call("c2");
    await checkpoints.restore(before!.seq);
    expect((await runtime.fs.lstat(`${root}/d`)).type).toBe("directory");
    expect(await read("d/f")).toBe("inside\n");
    expect(await runtime.fs.readdir("/tmp/outside")).toEqual([]);
  });

  it("a write through a link to outside is not recorded, and undo leaves the outside alone", async () => {
    await runtime.exec("mkdir -p /tmp/outside && ln -s /tmp/outside out");
    const before = await call("c1");
    await runtime.exec("echo secret > out/file");
    const checkpoint = await call("c2");
    expect(checkpoint!.changes).toEqual([]);
    await checkpoints.restore(before!.seq);
    expect(text(await runtime.fs.readFile("/tmp/outside/file"))).toBe("secret\n");
  });
});

describe("files it may not read", () => {
  it("are left as they are: recorded neither as changed nor as deleted, and undo keeps them", async () => {
    // Permission is refused by the file layer (as node does for another user's 0600 file; the tests may run as root).
    const denied = new Set([`${root}/secret.txt`, `${root}/locked`]);
    const refuse = (path: string) => Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES" });
    const guarded = {
      ...runtime.fs,
      lstat: (path: string) => runtime.fs.lstat(path),
      readlink: (path: string) => runtime.fs.readlink(path),
      realpath: (path: string) => runtime.fs.realpath(path),
      writeFile: (path: string, data: Uint8Array) => runtime.fs.writeFile(path, data),
      mkdir: (path: string, options?: { recursive?: boolean }) => runtime.fs.mkdir(path, options),
      rm: (path: string, options?: { recursive?: boolean; force?: boolean }) => runtime.fs.rm(path, options),
      symlink: (target: string, path: string) => runtime.fs.symlink(target, path),
      readFile: (path: string, options?: { noFollow?: boolean }) =>
        denied.has(path) ? Promise.reject(refuse(path)) : runtime.fs.readFile(path, options),
      readdir: (path: string) => (denied.has(path) ? Promise.reject(refuse(path)) : runtime.fs.readdir(path)),
    };
    await runtime.exec("echo a > open.txt && echo s > secret.txt && mkdir locked && echo i > locked/inner.txt");
    denied.clear();
    const own = await Checkpoints.open({ fs: guarded, root, storage: new MemoryCheckpointStorage() });
    const start = own.head();
    denied.add(`${root}/secret.txt`).add(`${root}/locked`);
    await runtime.exec("echo b > open.txt && echo changed > secret.txt && rm locked/inner.txt");
    own.noteChanged("unknown");
    const checkpoint = await own.record({ kind: "call", sessionID: "s", callID: "c" });
    expect(checkpoint!.changes.map((change) => change.path)).toEqual(["open.txt"]);
    denied.clear();
    await own.restore(start, { confirm: true });
    expect(await read("open.txt")).toBe("a\n");
    // What it could not read it did not touch: neither put back nor deleted.
    expect(await read("secret.txt")).toBe("changed\n");
    expect(await runtime.fs.readdir(`${root}/locked`)).toEqual([]);
  });
});
