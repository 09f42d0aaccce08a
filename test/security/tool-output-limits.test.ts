import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime/types.js";
import { MAX_TIMEOUT_MS } from "../../src/tools/bash.js";
import { cutMark, MAX_SAVED_BYTES } from "../../src/tools/truncation/constants.js";
import { TruncationSink } from "../../src/tools/truncation/sink.js";
import { OutputStore } from "../../src/tools/truncation/store.js";
import { bashBackends, runBash } from "../tools/bash/harness.js";
import { decode, scratchOn, sinkBackends, type Scratch } from "../tools/truncation/helpers.js";

/**
 * Issue 25, item 9: one bash call filled the disk (2.79 GB of saved output in 15 s), and a timeout the model
 * chose had no ceiling. The saved full output stops at MAX_SAVED_BYTES and says so, in the file and to the
 * model; the timeout is lowered to MAX_TIMEOUT_MS.
 */
const noTask = { taskAvailable: false };

describe.each(sinkBackends)("the saved output of one call is capped ($name)", (backend) => {
  let scratch: Scratch;
  let store: OutputStore;
  beforeEach(async () => {
    scratch = await scratchOn(backend);
    store = new OutputStore(scratch.runtime, { dataDir: scratch.dataDir });
  });
  afterEach(async () => scratch.cleanup());

  it("saves the first bytes up to the cap, then the mark; the model is told the copy is cut", async () => {
    const capped = new TruncationSink(store, { maxSavedBytes: 1000 }, noTask);
    const whole = new TruncationSink(store, { maxSavedBytes: Number.POSITIVE_INFINITY }, noTask);
    // 3-byte characters, so the cap (1000) falls inside one: the saved part must end on a whole character.
    for (let i = 0; i < 200; i++) {
      await capped.write(`${"中".repeat(99)}\n`);
      await whole.write(`${"中".repeat(99)}\n`);
    }
    const result = await capped.finish();
    const uncapped = await whole.finish();
    if (!result.truncated || !uncapped.truncated) throw new Error("a 59,600-byte output must be truncated");
    const saved = decode(await scratch.runtime.fs.readFile(result.outputPath!));
    const total = 200 * (99 * 3 + 1);
    const head = saved.slice(0, saved.length - cutMark(999, total).length);
    expect(new TextEncoder().encode(head).length).toBe(999);
    expect(saved).toBe(head + cutMark(999, total));
    expect(head).not.toContain("\ufffd");
    expect(result.content).toContain(`its first 999 bytes are saved to: ${result.outputPath}`);
    // What was removed is still counted on the whole output, not on the saved part: the same marker and
    // preview as without a cap.
    const marker = (content: string) => content.split("\n\n").slice(0, 2).join("\n\n");
    expect(marker(result.content)).toBe(marker(uncapped.content));
    expect(marker(result.content)).toMatch(/\.\.\.\d+ bytes truncated\.\.\./);
  });

  it("keeps an output under the cap whole, with no mark", async () => {
    const sink = new TruncationSink(store, { maxSavedBytes: 100_000 }, noTask);
    await sink.write("x\n".repeat(30_000));
    const result = await sink.finish();
    if (!result.truncated) throw new Error("a 60,000-byte output must be truncated");
    expect(decode(await scratch.runtime.fs.readFile(result.outputPath!))).toBe("x\n".repeat(30_000));
    expect(result.content).toContain("Full output saved to:");
  });
});

describe("a bash call printing without end fills no disk (node)", () => {
  const backend = bashBackends.find((b) => b.name === "node")!;
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ runtime, cleanup } = await backend.create()));
  afterEach(async () => cleanup());

  it("saves at most MAX_SAVED_BYTES of an 80 MB output", async () => {
    const bytes = 80_000_000;
    const { result } = await runBash(runtime, { command: `yes line | head -c ${bytes}`, description: "Prints a lot" });
    const path = result.metadata.outputPath as string;
    const size = (await runtime.fs.stat(path)).size;
    expect(size).toBe(MAX_SAVED_BYTES + cutMark(MAX_SAVED_BYTES, bytes).length);
    const end = decode(await runtime.fs.read(path, { position: size - 200, length: 200 }));
    expect(end.endsWith(cutMark(MAX_SAVED_BYTES, bytes))).toBe(true);
    expect(result.output).toContain("The output was too large to save in full");
    expect(result.output).toContain(`...${bytes / 5 + 1 - 2000} lines truncated...`);
  }, 240_000);
});

describe.each(bashBackends.filter((b) => b.name === "node" || b.name === "embedded"))(
  "the bash timeout has a ceiling ($name)",
  (backend) => {
    let runtime: Runtime;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ runtime, cleanup } = await backend.create()));
    afterEach(async () => cleanup());

    /** The runtime, with every exec's timeout recorded. */
    function recording(seen: number[]): Runtime {
      return new Proxy(runtime, {
        get(target, key, receiver) {
          if (key !== "exec") return Reflect.get(target, key, receiver);
          return (command: string, options: Parameters<Runtime["exec"]>[1]) => {
            seen.push(options?.timeoutMs ?? Number.NaN);
            return target.exec(command, options);
          };
        },
      });
    }

    it.each([
      [1e12, MAX_TIMEOUT_MS],
      [MAX_TIMEOUT_MS + 1, MAX_TIMEOUT_MS],
      [5_000, 5_000],
    ])("a timeout of %d ms runs with %d", async (asked, used) => {
      const seen: number[] = [];
      const { result } = await runBash(recording(seen), { command: "echo hi", description: "Says hi", timeout: asked });
      expect(result.output).toBe("hi\n");
      expect(seen).toEqual([used]);
    });
  },
);
