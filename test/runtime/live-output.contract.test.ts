/**
 * A program's output reaches onOutput while it runs (embedded: live-output.ts; node: real pipes), in the
 * order the command line writes it, and never past the user's own redirections and pipes. The program
 * prints a line, waits 300 ms and prints another: the first line must arrive on its own, well before the
 * command ends (a runtime that hands output over at the end delivers both at the same moment).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputChunk, Runtime } from "../../src/runtime/types.js";
import { backends } from "../support/backends.js";

const PROGRAM = `console.log("first");
console.error("warned");
setTimeout(() => console.log("second"), 300);
`;

interface Timed extends OutputChunk {
  at: number;
}

async function run(runtime: Runtime, command: string) {
  const chunks: Timed[] = [];
  const result = await runtime.exec(command, { onOutput: (chunk) => void chunks.push({ ...chunk, at: performance.now() }) });
  return { result, chunks, endedAt: performance.now() };
}

const joined = (chunks: Timed[], stream: OutputChunk["stream"]) =>
  chunks
    .filter((chunk) => chunk.stream === stream)
    .map((chunk) => chunk.text)
    .join("");

describe.each(backends.filter((backend) => backend.name === "embedded" || backend.name === "node"))(
  "live program output: $name",
  (backend) => {
    let runtime: Runtime;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ runtime, cleanup } = await backend.create());
      await runtime.fs.writeFile(`${runtime.root}/slow.js`, PROGRAM);
    });
    afterAll(async () => cleanup());

    it("the first line arrives alone, at least 200 ms before the program ends", { timeout: 30_000 }, async () => {
      const { result, chunks, endedAt } = await run(runtime, "node slow.js");
      expect(result.exitCode).toBe(0);
      const first = chunks.find((chunk) => chunk.stream === "stdout")!;
      expect(first.text).toBe("first\n");
      expect(endedAt - first.at).toBeGreaterThanOrEqual(200);
      // stderr is live too: its line came before the second stdout line.
      const warned = chunks.findIndex((chunk) => chunk.text.includes("warned"));
      const second = chunks.findIndex((chunk) => chunk.text.includes("second"));
      expect(warned).toBeGreaterThanOrEqual(0);
      expect(warned).toBeLessThan(second);
      expect(joined(chunks, "stdout")).toBe("first\nsecond\n");
    });

    it("keeps the line's order around it: before, the program's lines, after", { timeout: 30_000 }, async () => {
      const { chunks } = await run(runtime, "echo before; node slow.js 2>/dev/null; echo after && node slow.js; echo end");
      expect(joined(chunks, "stdout")).toBe("before\nfirst\nsecond\nafter\nfirst\nsecond\nend\n");
      expect(joined(chunks, "stderr")).toBe("warned\n");
    });

    it("a redirection or a pipe still gets all of the output, and none of it reaches the terminal", { timeout: 30_000 }, async () => {
      const { chunks } = await run(runtime, "node slow.js > out.txt 2>&1; node slow.js 2>&1 | sort; cat out.txt | wc -l");
      // Sorted: just-bash hands a command's stdout and stderr over apart, so `2>&1` into a file does not interleave them.
      const saved = new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/out.txt`));
      expect(saved.split("\n").sort()).toEqual(["", "first", "second", "warned"]);
      expect(joined(chunks, "stdout")).toMatch(/^first\nsecond\nwarned\n *3\n$/);
      expect(joined(chunks, "stderr")).toBe("");
    });

    it("a $( ) keeps the program's stdout as its value while its stderr still reaches the terminal", { timeout: 30_000 }, async () => {
      const { chunks } = await run(runtime, 'x=$(node slow.js); echo "got: $x"');
      expect(joined(chunks, "stdout")).toBe("got: first\nsecond\n");
      expect(joined(chunks, "stderr")).toBe("warned\n");
    });

    it("inside a loop each run streams, and a marker typed by hand sends nothing past a redirection", { timeout: 30_000 }, async () => {
      const loop = await run(runtime, "for i in 1 2; do node -e 'console.log(process.argv[1])' $i; done");
      expect(joined(loop.chunks, "stdout")).toBe("1\n2\n");
      const spoofed = await run(runtime, "WORKBENCH_LIVE_OUTPUT=guess:stdout,stderr node slow.js > spoof.txt 2>/dev/null");
      expect(joined(spoofed.chunks, "stdout")).toBe("");
      expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/spoof.txt`))).toBe("first\nsecond\n");
    });

    it("under set -x the trace shows the command as typed, never the mark", { timeout: 30_000 }, async () => {
      const { result, chunks } = await run(runtime, "set -x; node slow.js; echo after");
      expect(result.exitCode).toBe(0);
      expect(joined(chunks, "stdout")).toBe("first\nsecond\nafter\n");
      expect(joined(chunks, "stderr")).toContain("+ node slow.js");
      expect(joined(chunks, "stderr")).not.toContain("WORKBENCH_LIVE");
    });

    it("npm test streams its script's program, each banner before its script's output", { timeout: 60_000 }, async () => {
      await runtime.fs.writeFile(
        `${runtime.root}/package.json`,
        JSON.stringify({ name: "live", version: "1.0.0", scripts: { pretest: "echo pre", test: "node slow.js" } }),
      );
      const { result, chunks, endedAt } = await run(runtime, "npm test");
      expect(result.exitCode).toBe(0);
      let seen = "";
      let firstAt: number | undefined;
      for (const chunk of chunks.filter((chunk) => chunk.stream === "stdout")) {
        seen += chunk.text;
        if (seen.includes("first") && firstAt === undefined) {
          firstAt = chunk.at;
          expect(seen).not.toContain("second");
        }
      }
      expect(endedAt - firstAt!).toBeGreaterThanOrEqual(200);
      expect(seen).toBe("\n> live@1.0.0 pretest\n> echo pre\n\npre\n\n> live@1.0.0 test\n> node slow.js\n\nfirst\nsecond\n");
      const redirected = await run(runtime, 'npm test > npm-out.txt 2>/dev/null; x=$(npm test 2>/dev/null); echo "$x" | tail -1');
      expect(joined(redirected.chunks, "stdout")).toBe("second\n");
      expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/npm-out.txt`))).toBe(seen);
    });

    it("the program's environment holds no marker, nor does a script npm runs", { timeout: 30_000 }, async () => {
      const probe = `node -e 'console.log(Object.keys(process.env).filter((k) => k.startsWith("WORKBENCH_LIVE")).length)'`;
      const { result } = await run(runtime, probe);
      expect(result.stdout).toBe("0\n");
      await runtime.fs.writeFile(
        `${runtime.root}/package.json`,
        JSON.stringify({
          name: "env",
          version: "1.0.0",
          scripts: { env: 'env | grep -c ^WORKBENCH_LIVE; echo "[$WORKBENCH_LIVE_OUTPUT]"', probe },
        }),
      );
      const viaNpm = await run(runtime, "npm run -s env; npm run -s probe");
      expect(viaNpm.result.stdout).toBe("0\n[]\n0\n");
    });
  },
);
