/** The output store: where saved outputs go, and the 7-day cleanup judged by the id's timestamp. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolIdGenerator, OutputStore, RETENTION_MS } from "../../../src/tools/truncation/index.js";
import { decode, exists, nodeScratch, type Scratch } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 5, 15, 12);

describe("OutputStore", () => {
  let scratch: Scratch;

  beforeEach(async () => {
    scratch = await nodeScratch();
  });
  afterEach(async () => scratch.cleanup());

  it("lives in <dataDir>/tool-output and creates it on the first save", async () => {
    const store = new OutputStore(scratch.runtime, { dataDir: `${scratch.dataDir}/` });
    expect(store.dir).toBe(`${scratch.dataDir}/tool-output`);
    expect(store.glob).toBe(`${scratch.dataDir}/tool-output/*`);
    expect(await exists(scratch.runtime, store.dir)).toBe(false);
    const path = await store.save("full output");
    expect(path.startsWith(`${store.dir}/tool_`)).toBe(true);
    expect(decode(await scratch.runtime.fs.readFile(path))).toBe("full output");
  });

  it("refuses a relative data folder", () => {
    expect(() => new OutputStore(scratch.runtime, { dataDir: "data" })).toThrow(/absolute/);
  });

  it("cleanup removes only tool_ files older than 7 days, by the id's timestamp", async () => {
    const store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir, cleanupOnFirstWrite: false });
    const idAt = (ms: number) => createToolIdGenerator(() => ms)();
    const old = [idAt(NOW - 8 * DAY), idAt(NOW - RETENTION_MS - 1)];
    const fresh = [idAt(NOW - RETENTION_MS), idAt(NOW - DAY), idAt(NOW)];
    const others = ["notes.txt", "tool_not-an-id", "mytool_1"];
    await scratch.runtime.fs.mkdir(store.dir, { recursive: true });
    for (const name of [...old, ...fresh, ...others]) await scratch.runtime.fs.writeFile(`${store.dir}/${name}`, name);
    // A folder with an old id's name is not an output file: left alone.
    const folder = idAt(NOW - 30 * DAY);
    await scratch.runtime.fs.mkdir(`${store.dir}/${folder}`);

    const removed = await store.cleanup(NOW);
    expect(removed.sort()).toEqual(old.map((name) => `${store.dir}/${name}`).sort());
    const left = (await scratch.runtime.fs.readdir(store.dir)).map((e) => e.name).sort();
    expect(left).toEqual([...fresh, ...others, folder].sort());
  });

  it("cleanup with nothing saved yet does nothing", async () => {
    const store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir });
    expect(await store.cleanup()).toEqual([]);
  });

  it("cleans up expired outputs on its first write", async () => {
    const store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir });
    const expired = createToolIdGenerator(() => Date.now() - 8 * DAY)();
    await scratch.runtime.fs.mkdir(store.dir, { recursive: true });
    await scratch.runtime.fs.writeFile(`${store.dir}/${expired}`, "old");
    const path = await store.save("new");
    expect((await scratch.runtime.fs.readdir(store.dir)).map((e) => e.name)).toEqual([path.slice(store.dir.length + 1)]);
  });

  it("uses the id generator it is given", async () => {
    let n = 0;
    const store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir, nextId: () => `tool_test${n++}` });
    expect(await store.save("a")).toBe(`${store.dir}/tool_test0`);
    expect(store.open().path).toBe(`${store.dir}/tool_test1`);
  });
});
