/** apply_patch as a tool: one edit request with every file's diff, A/M/D output, all or nothing. */
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../../src/tools/permission/types.js";
import { fileBackends, sessionOn } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

const patch = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");

describe.each(fileBackends)("apply_patch on %s", (backend) => {
  async function open(files: Record<string, string>, config?: object) {
    const s = await sessionOn(backend, config ? { ...files, "opencode.json": JSON.stringify(config) } : files);
    dispose = s.dispose;
    return s;
  }

  it("adds, updates, moves and deletes, listing A, M and D", async () => {
    const { session, text, runtime } = await open({ "src/a.ts": "one\ntwo\nthree\n", "old.txt": "bye\n", "mv.txt": "x\ny\n" });
    const call = await session.run("apply_patch", {
      patchText: patch(
        "*** Add File: src/new.ts",
        "+export const n = 1;",
        "*** Update File: src/a.ts",
        "@@",
        " one",
        "-two",
        "+TWO",
        " three",
        "*** Update File: mv.txt",
        "*** Move to: moved/mv.txt",
        "@@",
        " x",
        "-y",
        "+z",
        "*** Delete File: old.txt",
      ),
    });
    expect(call.status).toBe("completed");
    expect(call.output).toBe("Success. Updated the following files:\nA src/new.ts\nM src/a.ts\nM moved/mv.txt\nD old.txt");
    expect(await text("src/new.ts")).toBe("export const n = 1;\n");
    expect(await text("src/a.ts")).toBe("one\nTWO\nthree\n");
    expect(await text("moved/mv.txt")).toBe("x\nz\n");
    for (const gone of ["old.txt", "mv.txt"]) {
      expect(await runtime.fs.stat(`${runtime.root}/${gone}`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
    }
  });

  it("asks edit once, with a diff per file", async () => {
    const { session } = await open({ "a.txt": "a\n", "b.txt": "b\n" }, { permission: { edit: "ask" } });
    const requests: PermissionRequest[] = [];
    session.bus.subscribe("permission.asked", (r) => {
      requests.push(r);
      queueMicrotask(() => session.permissions.reply(r.id, "once"));
    });
    await session.run("apply_patch", { patchText: patch("*** Update File: a.txt", "-a", "+A", "*** Update File: b.txt", "-b", "+B") });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ permission: "edit", patterns: ["a.txt", "b.txt"], always: ["*"] });
    const files = requests[0]!.metadata.files as Array<{ relativePath: string; diff: string; additions: number }>;
    expect(files.map((f) => f.relativePath)).toEqual(["a.txt", "b.txt"]);
    expect(files[1]!.diff).toContain("-b\n+B");
  });

  it("writes nothing when one file's hunk does not apply", async () => {
    const { session, text } = await open({ "a.txt": "a\n", "b.txt": "b\n" });
    const call = await session.run("apply_patch", {
      patchText: patch("*** Update File: a.txt", "-a", "+A", "*** Update File: b.txt", "-nope", "+B"),
    });
    expect(call.error).toBe(`apply_patch verification failed: Failed to find expected lines in ${session.runtime.root}/b.txt:\nnope`);
    expect(await text("a.txt")).toBe("a\n");
  });

  it("leaves everything untouched when the user rejects", async () => {
    const { session, text } = await open({ "a.txt": "a\n" }, { permission: { edit: "ask" } });
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "reject")));
    const call = await session.run("apply_patch", { patchText: patch("*** Update File: a.txt", "-a", "+A", "*** Add File: c.txt", "+c") });
    expect(call.status).toBe("error");
    expect(await text("a.txt")).toBe("a\n");
  });

  it("keeps a CRLF file CRLF and tolerates trailing spaces and Unicode quotes in the file", async () => {
    const { session, runtime } = await open({ "w.txt": "say “hi”  \r\nend\r\n" });
    const call = await session.run("apply_patch", { patchText: patch("*** Update File: w.txt", '-say "hi"', "+say bye", " end") });
    expect(call.status).toBe("completed");
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/w.txt`))).toBe("say bye\r\nend\r\n");
  });

  it("says an empty patch is empty, and asks external_directory for a path outside", async () => {
    const { session } = await open({});
    expect((await session.run("apply_patch", { patchText: patch() })).error).toBe("patch rejected: empty patch");
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "reject")));
    const call = await session.run("apply_patch", { patchText: patch("*** Add File: ../../evil.txt", "+x") });
    expect(call.permissions[0]).toMatchObject({ permission: "external_directory", answer: "reject" });
  });

  it("moves onto an existing file only once it was read, saying so (it was there before the call)", async () => {
    const { session, text, runtime } = await open({ "a.txt": "x\ny\n", "b.txt": "keep\n" });
    const move = patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", " x", "-y", "+z");
    const unread = await session.run("apply_patch", { patchText: move });
    expect(unread.status).toBe("error");
    expect(unread.error).toContain(`File ${runtime.root}/b.txt exists: moving ${runtime.root}/a.txt onto it would replace it.`);
    expect(unread.error).toContain(`You must read file ${runtime.root}/b.txt before overwriting it`);
    expect(unread.error).not.toContain("someone else");
    expect(await text("a.txt")).toBe("x\ny\n");
    expect(await text("b.txt")).toBe("keep\n");
    expect((await session.run("read", { filePath: `${runtime.root}/b.txt` })).status).toBe("completed");
    const moved = await session.run("apply_patch", { patchText: move });
    expect(moved.status).toBe("completed");
    expect(await text("b.txt")).toBe("x\nz\n");
    expect(await runtime.fs.stat(`${runtime.root}/a.txt`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
  });
});
