/**
 * The streaming sink: for any output and any way of cutting it into chunks, the model sees exactly what
 * truncateOutput shows for the whole text, and the saved file holds every byte.
 */
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isRuntimeError } from "../../../src/runtime/errors.js";
import {
  MAX_BYTES,
  MAX_LINES,
  OutputStore,
  truncateOutput,
  TruncationSink,
  type TruncationOptions,
  type TruncationResult,
} from "../../../src/tools/truncation/index.js";
import { decode, exists, grepHint, nodeScratch, numbered, scratchOn, sinkBackends, type Scratch } from "./helpers.js";

const noTask = { taskAvailable: false };
const encoder = new TextEncoder();

/** The result with the saved path replaced, so outputs saved under different names compare equal. */
function normalized(result: TruncationResult): { content: string; truncated: boolean } {
  return result.truncated
    ? { content: result.content.split(result.outputPath).join("<saved>"), truncated: true }
    : { content: result.content, truncated: false };
}

async function pushAll(sink: TruncationSink, chunks: readonly string[]): Promise<TruncationResult> {
  for (const chunk of chunks) await sink.write(chunk);
  return sink.finish();
}

/** Cuts a text at the given UTF-16 offsets: cuts may fall inside surrogate pairs and lines. */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

// Pieces biased towards what breaks truncation: newlines, multibyte characters, halves of surrogate pairs.
const piece = fc.oneof(
  { arbitrary: fc.constantFrom("\n", "\n\n"), weight: 4 },
  { arbitrary: fc.constantFrom("a", "bc", "defgh", " ", "é", "中文", "😀", "👩‍💻", "\ud83d", "\ude00"), weight: 5 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 6 }), weight: 2 },
);
const textArb = fc.array(piece, { maxLength: 50 }).map((pieces) => pieces.join(""));

describe("TruncationSink equals truncateOutput (property)", () => {
  let scratch: Scratch;
  let store: OutputStore;

  beforeAll(async () => {
    scratch = await nodeScratch();
    store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir });
  });
  afterAll(async () => scratch.cleanup());

  it("for random texts, chunkings, limits and directions", async () => {
    await fc.assert(
      fc.asyncProperty(
        textArb,
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom("head" as const, "tail" as const),
        fc.integer({ min: 16, max: 48 }),
        fc.boolean(),
        async (text, offsets, maxLines, maxBytes, direction, batchBytes, taskAvailable) => {
          const options: TruncationOptions = { maxLines, maxBytes, direction };
          const hint = { taskAvailable };
          const expected = await truncateOutput(text, options, store, hint);
          const sink = new TruncationSink(store, { ...options, batchBytes }, hint);
          const actual = await pushAll(sink, cut(text, offsets));

          expect(normalized(actual)).toEqual(normalized(expected));
          expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
          if (actual.truncated) {
            expect(actual.outputPath).toBe(sink.outputPath);
            expect(await scratch.runtime.fs.readFile(actual.outputPath)).toEqual(encoder.encode(text));
          } else {
            expect(await exists(scratch.runtime, sink.outputPath)).toBe(false);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe.each(sinkBackends)("TruncationSink on $name", (backend) => {
  let scratch: Scratch;
  let store: OutputStore;

  beforeEach(async () => {
    scratch = await scratchOn(backend);
    store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir });
  });
  afterEach(async () => scratch.cleanup());

  /** A few MB of numbered lines in 8 KiB chunks: many batches, lines cut across chunks. */
  function bigOutput(): { text: string; chunks: string[] } {
    const text = numbered(150_000, "output line number ");
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += 8191) chunks.push(text.slice(at, at + 8191));
    return { text, chunks };
  }

  for (const direction of ["head", "tail"] as const) {
    it(`streams a ${direction}-truncated output to the file and previews it like truncateOutput`, async () => {
      const { text, chunks } = bigOutput();
      const sink = new TruncationSink(store, { direction }, noTask);
      const actual = await pushAll(sink, chunks);
      if (!actual.truncated) throw new Error("expected truncation");
      const expected = await truncateOutput(text, { direction }, store, noTask);
      expect(normalized(actual)).toEqual(normalized(expected));
      expect(sink.bytes).toBe(text.length);
      expect(sink.lines).toBe(150_000);
      expect((await scratch.runtime.fs.stat(actual.outputPath)).size).toBe(text.length);
      expect(decode(await scratch.runtime.fs.readFile(actual.outputPath))).toBe(text);
    });
  }

  it("leaves no file when the output fits", async () => {
    const sink = new TruncationSink(store, {}, noTask);
    const result = await pushAll(sink, ["one\n", "two\n", "thr", "ee"]);
    expect(result).toStrictEqual({ content: "one\ntwo\nthree", truncated: false });
    expect(await exists(scratch.runtime, store.dir)).toBe(false);
  });

  it("removes the file it had started when the output still fits larger custom limits", async () => {
    const text = "x".repeat(100);
    const sink = new TruncationSink(store, { maxBytes: 1_000, batchBytes: 16 }, noTask);
    const result = await pushAll(sink, [text.slice(0, 50), text.slice(50)]);
    expect(result).toStrictEqual({ content: text, truncated: false });
    expect(await exists(scratch.runtime, sink.outputPath)).toBe(false);
  });

  it("keeps a character whose surrogate halves arrive in different chunks", async () => {
    // "ab😀cd" is 8 bytes only if the pair is counted as one character (two U+FFFD would make 10).
    const sink = new TruncationSink(store, { maxBytes: 8 }, noTask);
    const result = await pushAll(sink, ["ab\ud83d", "\ude00cd\n", "efg"]);
    if (!result.truncated) throw new Error("expected truncation");
    expect(result.content).toBe(`ab😀cd\n\n...4 bytes truncated...\n\n${grepHint(result.outputPath)}`);
    expect(decode(await scratch.runtime.fs.readFile(result.outputPath))).toBe("ab😀cd\nefg");
  });

  it("writes chunks in order when the producer does not await them", async () => {
    const text = numbered(30_000);
    const sink = new TruncationSink(store, { batchBytes: 4_096 }, noTask);
    for (let at = 0; at < text.length; at += 1_000) void sink.write(text.slice(at, at + 1_000));
    const result = await sink.finish();
    if (!result.truncated) throw new Error("expected truncation");
    expect(decode(await scratch.runtime.fs.readFile(result.outputPath))).toBe(text);
    expect(result.content.startsWith(`${numbered(MAX_LINES)}\n\n...28000 lines truncated...`)).toBe(true);
  });

  it("gives an empty preview for one huge line without keeping it", async () => {
    const sink = new TruncationSink(store, { direction: "tail" }, noTask);
    const chunk = "y".repeat(64 * 1024);
    for (let i = 0; i < 64; i++) await sink.write(chunk); // 4 MiB, no newline
    const result = await sink.finish();
    if (!result.truncated) throw new Error("expected truncation");
    expect(result.content).toBe(`...${64 * chunk.length} bytes truncated...\n\n${grepHint(result.outputPath)}\n\n`);
    expect((await scratch.runtime.fs.stat(result.outputPath)).size).toBe(64 * chunk.length);
  });

  it("discard() removes a started file", async () => {
    const sink = new TruncationSink(store, { batchBytes: 64 }, noTask);
    await sink.write("z".repeat(MAX_BYTES + 10));
    await sink.write("tail");
    await sink.discard();
    expect(await exists(scratch.runtime, sink.outputPath)).toBe(false);
    await expect(sink.write("more")).rejects.toThrow(/finished/);
  });

  it("reports a failure to save with the runtime's error", async () => {
    // The data folder is a file, so the output folder cannot be created.
    await scratch.runtime.fs.writeFile(`${scratch.runtime.root}/blocked`, "a file");
    const blocked = new OutputStore(scratch.runtime, { dataDir: `${scratch.runtime.root}/blocked` });
    const sink = new TruncationSink(blocked, { batchBytes: 1_024 }, noTask);
    let failure: unknown;
    try {
      for (let i = 0; i < 200 && failure === undefined; i++) await sink.write("w".repeat(100)).catch((e: unknown) => (failure = e));
      await sink.finish();
    } catch (error) {
      failure ??= error;
    }
    expect(isRuntimeError(failure)).toBe(true);
    expect(["ENOTDIR", "EEXIST"]).toContain((failure as { code: string }).code);
  });
});

it("MAX_BYTES and MAX_LINES are OpenCode's", () => {
  expect(MAX_LINES).toBe(2000);
  expect(MAX_BYTES).toBe(51_200);
});
