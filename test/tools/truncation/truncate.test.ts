/** Whole-text truncation: OpenCode's exact output, limits, units and hints. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_BYTES, MAX_LINES, OutputStore, truncateOutput } from "../../../src/tools/truncation/index.js";
import { decode, exists, grepHint, nodeScratch, numbered, taskHint, type Scratch } from "./helpers.js";

const noTask = { taskAvailable: false };

describe("truncateOutput", () => {
  let scratch: Scratch;
  let store: OutputStore;

  beforeEach(async () => {
    scratch = await nodeScratch();
    store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir });
  });
  afterEach(async () => scratch.cleanup());

  it("returns text within the limits untouched, with no outputPath key and no file", async () => {
    const text = numbered(MAX_LINES);
    const result = await truncateOutput(text, {}, store, noTask);
    expect(result).toStrictEqual({ content: text, truncated: false });
    expect(Object.keys(result)).toEqual(["content", "truncated"]);
    expect(await exists(scratch.runtime, store.dir)).toBe(false);
    expect(await exists(scratch.runtime, scratch.dataDir)).toBe(false);
  });

  it("keeps the head and reports removed lines in OpenCode's exact words", async () => {
    const result = await truncateOutput(numbered(10), { maxLines: 3 }, store, noTask);
    if (!result.truncated) throw new Error("expected truncation");
    expect(result.outputPath).toMatch(new RegExp(`^${store.dir}/tool_[0-9a-z]+$`));
    expect(result.content).toBe(`line 1\nline 2\nline 3\n\n...7 lines truncated...\n\n${grepHint(result.outputPath)}`);
    expect(decode(await scratch.runtime.fs.readFile(result.outputPath))).toBe(numbered(10));
  });

  it("keeps the tail with the notice and hint first", async () => {
    const result = await truncateOutput(numbered(10), { maxLines: 3, direction: "tail" }, store, noTask);
    if (!result.truncated) throw new Error("expected truncation");
    expect(result.content).toBe(`...7 lines truncated...\n\n${grepHint(result.outputPath)}\n\nline 8\nline 9\nline 10`);
  });

  it("reports bytes when the byte limit stops the preview, counting the joining newlines", async () => {
    const text = ["aaaa", "aaaa", "aaaa", "aaaa", "aaaa"].join("\n"); // 24 bytes
    const head = await truncateOutput(text, { maxBytes: 10 }, store, noTask);
    if (!head.truncated) throw new Error("expected truncation");
    // kept "aaaa\naaaa" = 9 bytes; the third line would make 14
    expect(head.content).toBe(`aaaa\naaaa\n\n...15 bytes truncated...\n\n${grepHint(head.outputPath)}`);

    const tail = await truncateOutput(text, { maxBytes: 10, direction: "tail" }, store, noTask);
    if (!tail.truncated) throw new Error("expected truncation");
    expect(tail.content).toBe(`...15 bytes truncated...\n\n${grepHint(tail.outputPath)}\n\naaaa\naaaa`);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const text = "é\n中\n😀\nx"; // 2 + 1 + 3 + 1 + 4 + 1 + 1 = 13 bytes
    const result = await truncateOutput(text, { maxBytes: 7 }, store, noTask);
    if (!result.truncated) throw new Error("expected truncation");
    // "é\n中" is 6 bytes; adding "\n😀" would make 11
    expect(result.content).toBe(`é\n中\n\n...7 bytes truncated...\n\n${grepHint(result.outputPath)}`);
  });

  it("the line limit wins (unit lines) when it is reached before the byte limit", async () => {
    const result = await truncateOutput(numbered(5), { maxLines: 2, maxBytes: 1_000 }, store, noTask);
    expect(result.content.startsWith("line 1\nline 2\n\n...3 lines truncated...\n\n")).toBe(true);
  });

  it("gives an empty preview for a single line over the byte limit", async () => {
    const text = "x".repeat(MAX_BYTES + 1);
    const head = await truncateOutput(text, {}, store, noTask);
    if (!head.truncated) throw new Error("expected truncation");
    expect(head.content).toBe(`\n\n...${MAX_BYTES + 1} bytes truncated...\n\n${grepHint(head.outputPath)}`);

    const tail = await truncateOutput(text, { direction: "tail" }, store, noTask);
    if (!tail.truncated) throw new Error("expected truncation");
    expect(tail.content).toBe(`...${MAX_BYTES + 1} bytes truncated...\n\n${grepHint(tail.outputPath)}\n\n`);
  });

  it("counts a trailing newline as one more (empty) line, as OpenCode does", async () => {
    const result = await truncateOutput(`${numbered(MAX_LINES)}\n`, {}, store, noTask);
    if (!result.truncated) throw new Error("expected truncation");
    expect(result.content).toBe(`${numbered(MAX_LINES)}\n\n...1 lines truncated...\n\n${grepHint(result.outputPath)}`);
  });

  it("suggests the Task tool when the agent may use it", async () => {
    const result = await truncateOutput(numbered(4), { maxLines: 1 }, store, { taskAvailable: true });
    if (!result.truncated) throw new Error("expected truncation");
    expect(result.content).toBe(`line 1\n\n...3 lines truncated...\n\n${taskHint(result.outputPath)}`);
  });

  it("saves each truncated output to its own file, ids ascending", async () => {
    const paths: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await truncateOutput(numbered(3, `${i}:`), { maxLines: 1 }, store, noTask);
      if (!result.truncated) throw new Error("expected truncation");
      paths.push(result.outputPath);
    }
    expect([...paths].sort()).toEqual(paths);
    expect(new Set(paths).size).toBe(5);
    const names = (await scratch.runtime.fs.readdir(store.dir)).map((e) => e.name).sort();
    expect(names).toEqual(paths.map((p) => p.slice(store.dir.length + 1)));
  });

  it("refuses limits that would make every comparison meaningless", async () => {
    await expect(truncateOutput("x", { maxLines: -1 }, store, noTask)).rejects.toThrow(RangeError);
    await expect(truncateOutput("x", { maxBytes: Number.NaN }, store, noTask)).rejects.toThrow(/maxBytes/);
    await expect(truncateOutput("x", { maxLines: 1.5 }, store, noTask)).rejects.toThrow(/whole number/);
  });
});
