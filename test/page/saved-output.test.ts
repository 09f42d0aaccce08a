import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { DATA_DIR, PageTools } from "../../src/page/page-tools.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

async function page(): Promise<PageTools> {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  return PageTools.open(runtime);
}

describe("contract: a truncated call's full output can be opened from the page", () => {
  it("reads the file a truncated bash call names, up to its last line", async () => {
    const tools = await page();
    const { done } = tools.start("bash", { command: "seq 1 5000", description: "Counts to 5000" });
    const call = await done;
    expect(call.metadata.truncated).toBe(true);
    const path = call.metadata.outputPath;
    expect(typeof path).toBe("string");
    expect(call.output).toContain(String(path));
    const saved = await tools.readSavedOutput(String(path));
    expect(saved.complete).toBe(true);
    const lines = saved.text.trimEnd().split("\n");
    expect(lines).toHaveLength(5000);
    expect(lines.at(-1)).toBe("5000");
    expect(saved.size).toBe(new TextEncoder().encode(saved.text).length);
  });

  it("says the output is gone when the saved file was removed", async () => {
    const tools = await page();
    await expect(tools.readSavedOutput(`${DATA_DIR}/tool-output/tool_missing`)).rejects.toThrow(/no longer exists/);
  });
});

describe("security: only files inside the data folder can be read this way", () => {
  it("refuses workspace files, relative paths and paths that climb out with ..", async () => {
    const tools = await page();
    await runtime!.fs.writeFile(`${runtime!.root}/secret.txt`, "secret");
    for (const path of [
      `${runtime!.root}/secret.txt`,
      "secret.txt",
      `${DATA_DIR}/../${runtime!.root}/secret.txt`,
      `${DATA_DIR}/tool-output/../../etc/passwd`,
      DATA_DIR,
      `${DATA_DIR}x/a`,
    ]) {
      await expect(tools.readSavedOutput(path), path).rejects.toThrow(/Only saved outputs under \/data/);
    }
  });

  it("refuses a symlink inside the data folder that points outside it", async () => {
    const tools = await page();
    await runtime!.fs.writeFile(`${runtime!.root}/secret.txt`, "secret");
    await runtime!.fs.mkdir(`${DATA_DIR}/tool-output`, { recursive: true });
    await runtime!.fs.symlink(`${runtime!.root}/secret.txt`, `${DATA_DIR}/tool-output/tool_link`);
    await expect(tools.readSavedOutput(`${DATA_DIR}/tool-output/tool_link`)).rejects.toThrow(/leads outside/);
  });
});
