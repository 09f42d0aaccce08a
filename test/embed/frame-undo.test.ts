/**
 * The embed VM's revert(callID) and reset() (issue 31): the frame's files before a call, and as start()
 * left them, read back through the runtime; an unknown call, and reset before start, are refused with why.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FrameBackend } from "../../src/embed/frame-backend.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { pageCheckpointsOf } from "../../src/page/workspace-checkpoints.js";
import { testSurface } from "../support/embed-surface.js";

let runtime: EmbeddedRuntime;
let backend: FrameBackend;
const read = async (path: string) => new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/${path}`));
const exists = (path: string) =>
  runtime.fs.lstat(`${runtime.root}/${path}`).then(
    () => true,
    () => false,
  );

beforeEach(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  backend = new FrameBackend(testSurface(() => runtime));
});
afterEach(() => runtime.dispose());

/** A call as the tool runner marks it: what it changed, then its checkpoint. */
async function call(id: string, change: () => Promise<unknown>): Promise<void> {
  const checkpoints = (await pageCheckpointsOf(runtime))!;
  await checkpoints.record({ kind: "outside" });
  await change();
  await checkpoints.record({ kind: "call", sessionID: "embed", callID: id, tool: "bash" });
}

describe("the embed VM's revert and reset", () => {
  it("revert(callID) gives the files as before that call; reset() as start left them", async () => {
    await backend.handle("start", { files: { "a.txt": "start\n", "keep.bin": new Uint8Array([0, 255]) } });
    await call("c1", () => runtime.exec("echo one > a.txt && echo new > b.txt"));
    await call("c2", () => runtime.exec("echo two > a.txt && rm keep.bin"));
    // An edit made in the frame by the reader, after the calls.
    await runtime.fs.writeFile(`${runtime.root}/b.txt`, "reader\n");

    const reverted = await backend.handle("revert", { callID: "c2" });
    expect(await read("a.txt")).toBe("one\n");
    expect(await exists("keep.bin")).toBe(true);
    expect(await read("b.txt")).toBe("new\n");
    expect(reverted).toEqual(expect.arrayContaining(["a.txt", "keep.bin", "b.txt"]));

    await backend.handle("reset", undefined);
    expect(await read("a.txt")).toBe("start\n");
    expect(await exists("b.txt")).toBe(false);
    expect([...(await runtime.fs.readFile(`${runtime.root}/keep.bin`))]).toEqual([0, 255]);
  });

  it("refuses a call it never saw, and reset before start, saying why", async () => {
    await expect(backend.handle("reset", undefined)).rejects.toThrow("reset() needs start() first");
    await backend.handle("start", { files: { "a.txt": "start\n" } });
    await expect(backend.handle("revert", { callID: "call_unknown" })).rejects.toThrow("no checkpoint of call call_unknown");
    await expect(backend.handle("revert", {})).rejects.toThrow();
    expect(await read("a.txt")).toBe("start\n");
  });
});
