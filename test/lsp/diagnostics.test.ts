/**
 * The promise of issue 20 item 4 for writes: after write, edit, multiedit and apply_patch on a file the
 * language service covers, its errors are appended to the tool's output in OpenCode's format and limits,
 * and they go away once fixed. Real TypeScript (in this thread), real files on the node runtime.
 */
import { afterEach, describe, expect, it } from "vitest";
import { lspWorkspace } from "./support.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

async function open(files: Record<string, string>, config?: object) {
  const ws = await lspWorkspace(config ? { ...files, "opencode.json": JSON.stringify(config) } : files);
  dispose = ws.dispose;
  for (const path of Object.keys(files)) await ws.session.run("read", { filePath: path });
  return ws;
}

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", noEmit: true },
});

describe("diagnostics after an edit", () => {
  it("appends a type error the edit introduced, and nothing once it is fixed", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "src/a.ts": "export const count: number = 1;\nexport const label = 'x';\n" });
    const broken = await ws.session.run("edit", { filePath: "src/a.ts", oldString: "number = 1", newString: "number = 'one'" });
    expect(broken.status).toBe("completed");
    expect(broken.output).toBe(
      `Edit applied successfully.\n\nLSP errors detected in this file, please fix:\n<diagnostics file="${ws.path("src/a.ts")}">\nERROR [1:14] Type 'string' is not assignable to type 'number'.\n</diagnostics>`,
    );
    const listed = (broken.metadata.diagnostics as Record<string, Array<{ code: number; severity: number }>>)[ws.path("src/a.ts")];
    expect(listed).toEqual([expect.objectContaining({ code: 2322, severity: 1 })]);

    const fixed = await ws.session.run("edit", { filePath: "src/a.ts", oldString: "number = 'one'", newString: "number = 2" });
    expect(fixed.output).toBe("Edit applied successfully.");
  });

  it("reports syntax errors too, and only errors (not warnings or suggestions)", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "a.ts": "export function f() {\n  return 1;\n}\n" });
    const call = await ws.session.run("edit", { filePath: "a.ts", oldString: "  return 1;\n}", newString: "  return 1;\n" });
    expect(call.output).toContain(`<diagnostics file="${ws.path("a.ts")}">\nERROR [4:1] '}' expected.`);
    // An unused local is a suggestion (severity 4) with these options: never shown.
    const unused = await ws.session.run("edit", {
      filePath: "a.ts",
      oldString: "  return 1;\n",
      newString: "  const unused = 2;\n  return 1;\n}",
    });
    expect(unused.output).toBe("Edit applied successfully.");
  });

  it("stops at 20 errors a file and says how many more", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "many.ts": "export {};\n" });
    const lines = Array.from({ length: 25 }, (_, i) => `const v${i}: number = "s${i}";`).join("\n");
    const call = await ws.session.run("write", { filePath: "many.ts", content: `export {};\n${lines}\n` });
    const block = call.output!.slice(call.output!.indexOf("<diagnostics"));
    expect(block.split("\n").filter((line) => line.startsWith("ERROR ["))).toHaveLength(20);
    expect(block).toContain("ERROR [2:7] Type 'string' is not assignable to type 'number'.\n");
    expect(block.endsWith("\n... and 5 more\n</diagnostics>")).toBe(true);
  });

  it("write lists errors it caused in other open files, each in its own block", async () => {
    const ws = await open({
      "tsconfig.json": TSCONFIG,
      "lib.ts": "export function twice(n: number): number {\n  return n * 2;\n}\n",
      "use.ts": "import { twice } from './lib';\nexport const four: number = twice(2);\n",
    });
    const call = await ws.session.run("write", {
      filePath: "lib.ts",
      content: "export function twice(n: number): string {\n  return String(n * 2);\n}\n",
    });
    expect(call.output).toBe(
      `Wrote file successfully.\n\nLSP errors detected in other files:\n<diagnostics file="${ws.path("use.ts")}">\nERROR [2:14] Type 'string' is not assignable to type 'number'.\n</diagnostics>`,
    );
  });

  it("multiedit appends the file's errors once, after all its edits", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "m.ts": "export const a = 1;\nexport const b = 2;\n" });
    const call = await ws.session.run("multiedit", {
      filePath: "m.ts",
      edits: [
        { oldString: "const a = 1", newString: "const a: string = 1" },
        { oldString: "const b = 2", newString: "const b: boolean = 2" },
      ],
    });
    const output = call.output!;
    expect(output.match(/LSP errors detected in this file/g)).toHaveLength(1);
    expect(output).toContain(
      "ERROR [1:14] Type 'number' is not assignable to type 'string'.\nERROR [2:14] Type 'number' is not assignable to type 'boolean'.\n</diagnostics>",
    );
  });

  it("apply_patch names each file with errors by its relative path", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "p.ts": "export const ok = 1;\n" });
    const patch = [
      "*** Begin Patch",
      "*** Update File: p.ts",
      "@@",
      "-export const ok = 1;",
      "+export const ok: number = 'no';",
      "*** Add File: q.ts",
      "+export const q: string = 5;",
      "*** End Patch",
    ].join("\n");
    const call = await ws.session.run("apply_patch", { patchText: patch });
    expect(call.status).toBe("completed");
    expect(call.output).toBe(
      [
        "Success. Updated the following files:\nM p.ts\nA q.ts",
        `\n\nLSP errors detected in p.ts, please fix:\n<diagnostics file="${ws.path("p.ts")}">\nERROR [1:14] Type 'string' is not assignable to type 'number'.\n</diagnostics>`,
        `\n\nLSP errors detected in q.ts, please fix:\n<diagnostics file="${ws.path("q.ts")}">\nERROR [1:14] Type 'number' is not assignable to type 'string'.\n</diagnostics>`,
      ].join(""),
    );
  });

  it("gives JSON files syntax diagnostics (strict JSON; tsconfig may have comments)", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "data.json": '{ "a": 1 }\n' });
    const call = await ws.session.run("write", { filePath: "data.json", content: '{\n  "a": 1,\n  "b": \n}\n' });
    expect(call.output).toBe(
      `Wrote file successfully.\n\nLSP errors detected in this file, please fix:\n<diagnostics file="${ws.path("data.json")}">\nERROR [4:1] Value expected\n</diagnostics>`,
    );
    const commented = await ws.session.run("write", {
      filePath: "tsconfig.json",
      content: '{\n  // strict on\n  "compilerOptions": { "strict": true, },\n}\n',
    });
    // data.json stays open with its error, so it is listed among the other files; tsconfig has none of its own.
    expect(commented.output).not.toContain(`<diagnostics file="${ws.path("tsconfig.json")}">`);
    expect(commented.output).toContain(`LSP errors detected in other files:\n<diagnostics file="${ws.path("data.json")}">`);
  });

  it("checks JavaScript files outside the config's files as an editor does, for syntax", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "s.js": "export const a = 1;\n" });
    const call = await ws.session.run("write", { filePath: "s.js", content: "export const a = ;\n" });
    expect(call.output).toContain(`<diagnostics file="${ws.path("s.js")}">\nERROR [1:18] Expression expected.`);
  });

  it("sees files a shell command made (the runtime cannot say which): no stale 'cannot find module'", async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "a.ts": "export const a = 1;\n" });
    const first = await ws.session.run("write", { filePath: "a.ts", content: "import { g } from './gen';\nexport const a: number = g;\n" });
    expect(first.output).toContain("ERROR [1:19] Cannot find module './gen' or its corresponding type declarations.");
    const made = await ws.session.run("bash", { command: "printf 'export const g = 2;\\n' > gen.ts", description: "Generate a module" });
    expect(made.status).toBe("completed");
    await ws.session.run("read", { filePath: "a.ts" });
    const again = await ws.session.run("edit", { filePath: "a.ts", oldString: "number = g", newString: "number = g + 1" });
    expect(again.output).toBe("Edit applied successfully.");
  });

  it('adds nothing when opencode.json turns the language servers off ("lsp": false)', async () => {
    const ws = await open({ "tsconfig.json": TSCONFIG, "a.ts": "export const a = 1;\n" }, { lsp: false });
    const call = await ws.session.run("write", { filePath: "a.ts", content: "export const a: number = 'x';\n" });
    expect(call.output).toBe("Wrote file successfully.");
    expect(ws.service.started).toBe(false);
  });
});
