/**
 * python3's output reaches the terminal and the card while the program runs (live-output.ts), and its first
 * run says the interpreter is loading, there only: never into a file, a pipe or a `$( )`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import type { OutputChunk } from "../../../src/runtime/types.js";
import { pythonRuntime, ROOT, START_MS } from "./support.js";

const LOADING = "python3: loading the Python interpreter (first run only)...\n";

let runtime: EmbeddedRuntime;
beforeAll(async () => {
  runtime = await pythonRuntime();
  await runtime.fs.writeFile(
    `${ROOT}/slow.py`,
    'import sys, time\nprint("first", flush=True)\nprint("warned", file=sys.stderr, flush=True)\ntime.sleep(0.3)\nprint("second")\n',
  );
});
afterAll(async () => runtime.dispose());

async function run(command: string, signal?: AbortSignal) {
  const chunks: (OutputChunk & { at: number })[] = [];
  const result = await runtime.exec(command, { signal, onOutput: (chunk) => void chunks.push({ ...chunk, at: performance.now() }) });
  const text = (stream: OutputChunk["stream"]) =>
    chunks
      .filter((chunk) => chunk.stream === stream)
      .map((chunk) => chunk.text)
      .join("");
  return { result, chunks, text, endedAt: performance.now() };
}

describe("python3's live output", () => {
  it("the first run says it is loading before anything else, then streams: the first line 200 ms before the end", {
    timeout: START_MS,
  }, async () => {
    const { result, chunks, text, endedAt } = await run("python3 slow.py");
    expect(result.exitCode).toBe(0);
    expect(chunks[0]).toMatchObject({ stream: "stderr", text: LOADING });
    const first = chunks.find((chunk) => chunk.stream === "stdout")!;
    expect(first.text).toMatch(/^first\n?$/);
    expect(endedAt - first.at).toBeGreaterThanOrEqual(200);
    expect(text("stdout")).toBe("first\nsecond\n");
    expect(text("stderr")).toBe(`${LOADING}warned\n`);
  });

  it("a warm run says nothing of loading; a redirected one keeps its output in the file", { timeout: START_MS }, async () => {
    const { text } = await run("python3 slow.py > out.txt 2>&1; cat out.txt | sort");
    expect(text("stdout")).toBe("first\nsecond\nwarned\n");
    expect(text("stderr")).toBe("");
  });

  it("after a stop the next run loads again, and says so only where a person watches", { timeout: START_MS * 2 }, async () => {
    const stop = new AbortController();
    const endless = run("python3 -c 'while True: pass'", stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    stop.abort();
    expect((await endless).result.aborted).toBe(true);
    const { result, text } = await run("python3 -c 'print(\"v\")' 2> err.txt; x=$(python3 -c 'print(2)' 2>&1); echo \"got $x\"");
    expect(result.exitCode).toBe(0);
    expect(text("stdout")).toBe("v\ngot 2\n");
    expect(text("stderr")).toBe("");
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${ROOT}/err.txt`))).toBe("");
  });
});
