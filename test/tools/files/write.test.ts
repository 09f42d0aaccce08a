/** write: parents made, a diff in the permission request, FileTime guarding existing files, file.edited published. */
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../../src/tools/permission/types.js";
import { fileBackends, sessionOn } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe.each(fileBackends)("write on %s", (backend) => {
  async function open(files: Record<string, string | Uint8Array> = {}, config?: object) {
    const s = await sessionOn(backend, config ? { ...files, "opencode.json": JSON.stringify(config) } : files);
    dispose = s.dispose;
    return s;
  }

  it("creates a new file and its folders, and says so", async () => {
    const { session, text } = await open();
    const edited: string[] = [];
    session.bus.subscribe("file.edited", ({ file }) => edited.push(file));
    const call = await session.run("write", { filePath: "deep/new/file.ts", content: "export const a = 1;\n" });
    expect(call).toMatchObject({ status: "completed", output: "Wrote file successfully.", title: "deep/new/file.ts" });
    expect(call.metadata).toMatchObject({ exists: false, additions: 1, deletions: 0 });
    expect(await text("deep/new/file.ts")).toBe("export const a = 1;\n");
    expect(edited).toEqual([`${session.runtime.root}/deep/new/file.ts`]);
  });

  it("puts a unified diff with trimmed indentation in the edit request", async () => {
    const { session } = await open({ "a.ts": "    if (x) {\n        return 1;\n    }\n" }, { permission: { edit: "ask" } });
    await session.run("read", { filePath: "a.ts" });
    const requests: PermissionRequest[] = [];
    session.bus.subscribe("permission.asked", (r) => {
      requests.push(r);
      queueMicrotask(() => session.permissions.reply(r.id, "once"));
    });
    await session.run("write", { filePath: "a.ts", content: "    if (x) {\n        return 2;\n    }\n" });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ permission: "edit", patterns: ["a.ts"], always: ["*"] });
    const diff = String(requests[0]!.metadata.diff);
    expect(diff).toContain("--- a.ts\n+++ a.ts\n");
    expect(diff).toContain("\n if (x) {\n-    return 1;\n+    return 2;\n }\n");
  });

  it("refuses to overwrite a file changed since it was read", async () => {
    const { session, runtime, text } = await open({ "a.txt": "v1\n" });
    await session.run("read", { filePath: "a.txt" });
    await new Promise((r) => setTimeout(r, 80));
    await runtime.fs.writeFile(`${runtime.root}/a.txt`, "changed by someone else\n");
    const call = await session.run("write", { filePath: "a.txt", content: "mine\n" });
    expect(call.error).toMatch(
      /has been modified since it was last read\.\nLast modification: .*\nLast read: .*\n\nPlease read the file again before modifying it\.$/,
    );
    expect(await text("a.txt")).toBe("changed by someone else\n");
  });

  it("leaves the file untouched when the user rejects", async () => {
    const { session, text } = await open({ "a.txt": "keep\n" }, { permission: { edit: "ask" } });
    await session.run("read", { filePath: "a.txt" });
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "reject", "not that")));
    const call = await session.run("write", { filePath: "a.txt", content: "gone\n" });
    expect(call.error).toBe("The user rejected permission to use this specific tool call with the following feedback: not that");
    expect(await text("a.txt")).toBe("keep\n");
  });

  it("keeps a CRLF file CRLF and its BOM", async () => {
    const { session, runtime } = await open({ "w.txt": "\uFEFFa\r\nb\r\n" });
    await session.run("read", { filePath: "w.txt" });
    await session.run("write", { filePath: "w.txt", content: "a\nc\n" });
    expect(Array.from(await runtime.fs.readFile(`${runtime.root}/w.txt`))).toEqual(
      Array.from(new TextEncoder().encode("\uFEFFa\r\nc\r\n")),
    );
  });

  it("refuses a folder, and asks external_directory outside the workspace", async () => {
    const { session, root } = await open({ "d/x": "" });
    expect((await session.run("write", { filePath: "d", content: "x" })).error).toBe(`Path is a directory, not a file: ${root}/d`);
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "reject")));
    const call = await session.run("write", { filePath: "../../escape.txt", content: "x" });
    expect(call.permissions[0]).toMatchObject({ permission: "external_directory", answer: "reject" });
  });
});
