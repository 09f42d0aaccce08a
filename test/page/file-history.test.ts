/**
 * A file's history as the page shows it: versions by call, newest first, a diff from a version to now
 * checked against what the file held, and Restore writing exactly the version's bytes, refusing when the
 * file changed after the diff was shown or when a link now stands on the way.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyPatch } from "diff";
import { FileHistory } from "../../src/page/file-history.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { Checkpoints } from "../../src/workspace/checkpoints/checkpoints.js";
import { MemoryCheckpointStorage } from "../../src/workspace/checkpoints/storage.js";

let runtime: EmbeddedRuntime;
let checkpoints: Checkpoints;
let detach: () => void;
const root = "/workspace";
const path = `${root}/notes/todo.txt`;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const call = (id: string, tool = "edit") => checkpoints.record({ kind: "call", sessionID: "s1", callID: id, tool });

beforeAll(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
});
afterAll(() => runtime.dispose());

beforeEach(async () => {
  detach?.();
  for (const entry of await runtime.fs.readdir(root)) await runtime.fs.rm(`${root}/${entry.name}`, { recursive: true, force: true });
  await runtime.fs.rm("/tmp/elsewhere", { recursive: true, force: true });
  checkpoints = await Checkpoints.open({ fs: runtime.fs, root, storage: new MemoryCheckpointStorage() });
  detach = checkpoints.attach(runtime);
  await runtime.fs.mkdir(`${root}/notes`, { recursive: true });
  await runtime.fs.writeFile(path, "one\n");
  await call("c1", "write");
  await runtime.fs.writeFile(path, "one\ntwo\n");
  await call("c2");
  await runtime.fs.writeFile(path, "one\ntwo\nthree\n");
  await call("c3");
});

describe("a file's history in the page", () => {
  it("lists every version by the call that made it, newest first", () => {
    const versions = new FileHistory(runtime, checkpoints, path).versions();
    expect(versions.map((version) => version.by)).toEqual(["edit call c3", "edit call c2", "write call c1"]);
    expect(versions.map((version) => (version.state.kind === "file" ? version.state.size : -1))).toEqual([14, 8, 4]);
    expect(versions.every((version) => !version.byHand)).toBe(true);
  });

  it("diffs a version to the file as it is now: the diff applied to the version gives the file", async () => {
    const history = new FileHistory(runtime, checkpoints, path);
    const oldest = history.versions().at(-1)!;
    const compared = await history.compare(oldest);
    expect(applyPatch("one\n", compared.diff!)).toBe("one\ntwo\nthree\n");
    expect(text(compared.now!)).toBe("one\ntwo\nthree\n");
    const newest = history.versions()[0]!;
    expect((await history.compare(newest)).diff).toBe("");
  });

  it("restores a version's exact bytes, and the next checkpoint records it as by hand", async () => {
    const history = new FileHistory(runtime, checkpoints, path);
    const middle = history.versions()[1]!;
    const compared = await history.compare(middle);
    expect(await history.restore(middle, compared.now)).toEqual({ status: "restored" });
    expect(text(await runtime.fs.readFile(path))).toBe("one\ntwo\n");
    await checkpoints.record({ kind: "outside" });
    const after = history.versions();
    expect(after[0]!.byHand).toBe(true);
    expect(after[0]!.by).toBe("an edit by hand");
  });

  it("refuses to restore over a change made after the diff was shown, and keeps that change", async () => {
    const history = new FileHistory(runtime, checkpoints, path);
    const oldest = history.versions().at(-1)!;
    const compared = await history.compare(oldest);
    await runtime.fs.writeFile(path, "changed by the terminal meanwhile\n");
    const outcome = await history.restore(oldest, compared.now);
    expect(outcome.status).toBe("refused");
    expect(text(await runtime.fs.readFile(path))).toBe("changed by the terminal meanwhile\n");
  });

  it("never writes through a link swapped in for the file's folder", async () => {
    const history = new FileHistory(runtime, checkpoints, path);
    const oldest = history.versions().at(-1)!;
    await runtime.fs.rm(`${root}/notes`, { recursive: true });
    await runtime.fs.mkdir("/tmp/elsewhere", { recursive: true });
    await runtime.fs.symlink("/tmp/elsewhere", `${root}/notes`);
    const outcome = await history.restore(oldest, undefined);
    expect(outcome.status).toBe("refused");
    await expect(runtime.fs.readdir("/tmp/elsewhere")).resolves.toEqual([]);
  });

  it("shows a deletion as a version without a diff, and brings the file back from the version before", async () => {
    await runtime.fs.rm(path);
    await call("c4", "bash");
    const history = new FileHistory(runtime, checkpoints, path);
    const [deleted, last] = history.versions();
    expect(deleted!.state).toEqual({ kind: "deleted" });
    expect((await history.compare(deleted!)).note).toMatch(/deleted/);
    const compared = await history.compare(last!);
    expect(compared.now).toBeUndefined();
    expect(await history.restore(last!, compared.now)).toEqual({ status: "restored" });
    expect(text(await runtime.fs.readFile(path))).toBe("one\ntwo\nthree\n");
  });

  it("has no versions for a path outside the workspace", () => {
    expect(new FileHistory(runtime, checkpoints, "/tmp/elsewhere/x.txt").versions()).toEqual([]);
  });
});
