/** A workspace of 2,000 TypeScript files: the service loads it, and an edit's errors (and its ripple) are reported. */
import { afterEach, describe, expect, it } from "vitest";
import { chainWorkspace } from "../../bench/lsp-workspace.js";
import { lspWorkspace, runTsc } from "./support.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe("a 2,000-file workspace", () => {
  it("reports the errors a write makes in the file and in the file that imports it, then none once fixed", async () => {
    const ws = await lspWorkspace(chainWorkspace(2000));
    dispose = ws.dispose;
    const m1000 = "src/part10/m1000.ts";
    const m1001 = "src/part10/m1001.ts";
    await ws.session.run("read", { filePath: m1000 });
    await ws.session.run("read", { filePath: m1001 });
    const original = await ws.runtime.fs.readFile(ws.path(m1000)).then((b) => new TextDecoder().decode(b));
    const broken = original.replace(
      "export const v1000: number = v999 + 1;",
      'export const v1000: string = "x" + v999;\nconst wrong: boolean = v1000;',
    );
    const call = await ws.session.run("write", { filePath: m1000, content: broken });
    // The expected report is built from the oracle: real tsc on the same files after the write.
    const tsc = await runTsc(ws.root);
    expect(new Set(tsc.map((e) => e.file))).toEqual(new Set([ws.path(m1000), ws.path(m1001)]));
    const block = (file: string) =>
      `<diagnostics file="${file}">\n${tsc
        .filter((e) => e.file === file)
        .map((e) => `ERROR [${e.line}:${e.column}] ${e.message}`)
        .join("\n")}\n</diagnostics>`;
    expect(call.output).toBe(
      `Wrote file successfully.\n\nLSP errors detected in this file, please fix:\n${block(ws.path(m1000))}\n\nLSP errors detected in other files:\n${block(ws.path(m1001))}`,
    );
    const fixed = await ws.session.run("write", { filePath: m1000, content: original });
    expect(fixed.output).toBe("Wrote file successfully.");
  }, 300_000);
});
