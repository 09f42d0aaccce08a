/**
 * A 50 MB output goes through the bash tool without being held whole in memory: the model gets the head and
 * the truncation notice, the saved file has every byte, and the heap never grows by anything near 50 MB.
 * Embedded and node only: the webcontainer stand-in runs just-bash in this very thread, where the output
 * exists as one string before it reaches the tool (the real WebContainer streams it from its own process).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../../src/runtime/types.js";
import { bashBackends, runBash } from "./harness.js";

const MB = 1024 * 1024;

/** The command and the exact bytes it prints: node has `yes`; the embedded shell cats a 5.2 MB file ten times. */
async function bigCommand(backend: string, runtime: Runtime): Promise<{ command: string; bytes: number; line: string }> {
  if (backend === "node") return { command: "yes line | head -c 50000000", bytes: 50_000_000, line: "line" };
  await runtime.fs.writeFile(`${runtime.root}/part.txt`, "line\n".repeat(1_040_000));
  return { command: `cat ${Array(10).fill("part.txt").join(" ")}`, bytes: 52_000_000, line: "line" };
}

describe.each(bashBackends.filter((b) => b.name === "embedded" || b.name === "node"))("a 50 MB output on $name", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ runtime, cleanup } = await backend.create()));
  afterEach(async () => cleanup());

  it("is saved in full through the truncation sink, shown as a head with the notice, with a flat heap", async () => {
    const { command, bytes, line } = await bigCommand(backend.name, runtime);
    await runBash(runtime, { command: "echo warm", description: "Warms up" });
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    const sample = () => (peak = Math.max(peak, process.memoryUsage().heapUsed - base));
    const timer = setInterval(sample, 1);
    let run;
    try {
      run = await runBash(runtime, { command, description: "Prints a lot" }, { onUpdate: sample });
    } finally {
      clearInterval(timer);
    }
    sample();
    const { result } = run;

    expect(result.metadata.exit).toBe(0);
    expect(result.metadata.truncated).toBe(true);
    const path = result.metadata.outputPath as string;
    expect(path).toMatch(new RegExp(`^${runtime.root}/\\.data/tool-output/tool_`));
    expect(result.output).toBe(
      `${Array(2000).fill(line).join("\n")}\n\n...${bytes / 5 + 1 - 2000} lines truncated...\n\n` +
        `The tool call succeeded but the output was truncated. Full output saved to: ${path}\n` +
        "Use Grep to search the full content or Read with offset/limit to view specific sections.",
    );
    expect((result.metadata.output as string).length).toBe(30_000 + "\n\n...".length);

    expect((await runtime.fs.stat(path)).size).toBe(bytes);
    const tail = new TextDecoder().decode(await runtime.fs.read(path, { position: bytes - 10, length: 10 }));
    expect(tail).toBe("line\nline\n");

    // Without the streaming truncation this peaks at 250-420 MB (measured); what remains is young garbage.
    expect(peak).toBeLessThan(25 * MB);
  }, 180_000);
});
