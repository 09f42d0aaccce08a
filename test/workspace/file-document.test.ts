import { afterEach, describe, expect, it } from "vitest";
import { currentMtime, lineSeparatorOf, openDocument, SaveConflict, saveDocument } from "../../src/workspace/file-document.js";
import { FileTime } from "../../src/tools/file-time.js";
import { fileBackends, sessionOn } from "../support/tool-session.js";

const COARSE_CLOCK_MS = 30;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

async function on(backend: (typeof fileBackends)[number], files: Record<string, string | Uint8Array> = {}) {
  const opened = await sessionOn(backend, files);
  cleanups.push(opened.dispose);
  return { ...opened, at: (name: string) => `${opened.root}/${name}` };
}

/**
 * Waits until the clock is past `time`. Real disks stamp mtimes from a coarse kernel clock (up to a
 * tick behind Date.now), hence the margin callers add.
 */
async function clockPast(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each(fileBackends)("contract (%s): opening a file for the editor says what it is", (backend) => {
  it("gives a text file's text, size and mtime", async () => {
    const { runtime, at } = await on(backend, { "a.ts": "const x = 1;\n" });
    const doc = await openDocument(runtime, at("a.ts"));
    expect(doc).toMatchObject({ kind: "text", text: "const x = 1;\n", size: 13, lineSeparator: "\n" });
    if (doc.kind !== "text") throw new Error("not text");
    expect(doc.mtimeMs).toBe((await runtime.fs.stat(at("a.ts"))).mtimeMs);
  });

  it("refuses a binary file, by its bytes or by its extension, without decoding it", async () => {
    const { runtime, at } = await on(backend, {
      "blob.dat2": new Uint8Array([1, 0, 2, 3]),
      "x.zip": "text in a zip name",
      "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
    });
    expect(await openDocument(runtime, at("blob.dat2"))).toMatchObject({ kind: "binary", reason: "it looks binary" });
    expect(await openDocument(runtime, at("x.zip"))).toMatchObject({ kind: "binary" });
    expect(await openDocument(runtime, at("latin1.txt"))).toMatchObject({ kind: "binary", reason: "it is not UTF-8 text" });
  });

  it("refuses a file over the limit by its size alone", async () => {
    const { runtime, at } = await on(backend, { "big.log": "x".repeat(5000) });
    expect(await openDocument(runtime, at("big.log"), 4096)).toEqual({ kind: "too-large", path: at("big.log"), size: 5000, limit: 4096 });
    expect(await openDocument(runtime, at("big.log"), 5000)).toMatchObject({ kind: "text" });
  });

  it("says missing for a file that is not there, and not-a-file for a folder", async () => {
    const { runtime, at } = await on(backend, { "d/inner.txt": "" });
    expect(await openDocument(runtime, at("gone.txt"))).toEqual({ kind: "missing", path: at("gone.txt") });
    expect(await openDocument(runtime, at("d"))).toEqual({ kind: "not-a-file", path: at("d") });
    expect(await currentMtime(runtime, at("gone.txt"))).toBeUndefined();
  });

  it("keeps a BOM and CRLF line ends through open and save", async () => {
    const { runtime, at } = await on(backend, { "w.txt": "\uFEFFa\r\nb\r\n" });
    const doc = await openDocument(runtime, at("w.txt"));
    if (doc.kind !== "text") throw new Error(`not text: ${doc.kind}`);
    expect(doc.lineSeparator).toBe("\r\n");
    await saveDocument(runtime, at("w.txt"), doc.text.replace("b", "c"));
    expect(Array.from(await runtime.fs.readFile(at("w.txt")))).toEqual(Array.from(new TextEncoder().encode("\uFEFFa\r\nc\r\n")));
  });
});

describe("contract: which line ending a document keeps", () => {
  it("CRLF only when every line has it, LF when none does, nothing for a mix or a single line", () => {
    expect(lineSeparatorOf("a\r\nb\r\n")).toBe("\r\n");
    expect(lineSeparatorOf("a\nb\n")).toBe("\n");
    expect(lineSeparatorOf("a\r\nb\n")).toBeUndefined();
    expect(lineSeparatorOf("one line")).toBeUndefined();
  });
});

describe.each(fileBackends)("contract (%s): a save never silently overwrites a change made on disk", (backend) => {
  it("writes when the file is as the editor opened it, and returns the new mtime", async () => {
    const { runtime, at, text } = await on(backend, { "a.txt": "old\n" });
    const doc = await openDocument(runtime, at("a.txt"));
    if (doc.kind !== "text") throw new Error("not text");
    const mtime = await saveDocument(runtime, at("a.txt"), "new\n", { expectedMtimeMs: doc.mtimeMs });
    expect(await text("a.txt")).toBe("new\n");
    expect(mtime).toBe(await currentMtime(runtime, at("a.txt")));
  });

  it("refuses when the file changed since it was opened, and when it was deleted", async () => {
    const { runtime, at, text } = await on(backend, { "a.txt": "old\n", "b.txt": "b\n" });
    const a = await openDocument(runtime, at("a.txt"));
    const b = await openDocument(runtime, at("b.txt"));
    if (a.kind !== "text" || b.kind !== "text") throw new Error("not text");
    await clockPast(a.mtimeMs + 5);
    await runtime.fs.writeFile(at("a.txt"), "by a tool\n");
    await runtime.fs.rm(at("b.txt"));

    const changed = await saveDocument(runtime, at("a.txt"), "mine\n", { expectedMtimeMs: a.mtimeMs }).catch((error: unknown) => error);
    expect(changed).toBeInstanceOf(SaveConflict);
    expect(changed).toMatchObject({
      reason: "changed",
      message: expect.stringContaining("changed on disk since you opened it. Reload it"),
    });
    expect(await text("a.txt")).toBe("by a tool\n");

    const deleted = await saveDocument(runtime, at("b.txt"), "mine\n", { expectedMtimeMs: b.mtimeMs }).catch((error: unknown) => error);
    expect(deleted).toMatchObject({ reason: "deleted" });
    expect(await currentMtime(runtime, at("b.txt"))).toBeUndefined();

    // The user chose to overwrite / recreate: no expected mtime.
    await saveDocument(runtime, at("a.txt"), "mine\n");
    await saveDocument(runtime, at("b.txt"), "again\n");
    expect([await text("a.txt"), await text("b.txt")]).toEqual(["mine\n", "again\n"]);
  });
});

describe.each(fileBackends)("contract (%s): a hand edit counts for FileTime", (backend) => {
  // FileTime compares the file's mtime with the session's last read, so the save alone is enough
  // (no hook from the editor into the session), except within FileTime's 50 ms slack after a read.
  it("an edit after a hand save fails until the tool reads the file again", async () => {
    const { session, runtime, at, text } = await on(backend, { "a.txt": "alpha\nbeta\n" });
    expect((await session.run("read", { filePath: "a.txt" })).status).toBe("completed");
    const readAt = session.fileTime.get(session.session.id, at("a.txt"));
    expect(readAt).toBeDefined();
    await clockPast(readAt! + FileTime.TOLERANCE_MS + COARSE_CLOCK_MS);

    await saveDocument(runtime, at("a.txt"), "alpha\nBETA by hand\n");
    const refused = await session.run("edit", { filePath: "a.txt", oldString: "alpha", newString: "ALPHA" });
    expect(refused.status).toBe("error");
    expect(refused.error).toMatch(
      /^File .*a\.txt has been modified since it was last read\.\n.*\n.*\n\nPlease read the file again before modifying it\.$/,
    );
    expect(await text("a.txt")).toBe("alpha\nBETA by hand\n");

    await session.run("read", { filePath: "a.txt" });
    const edited = await session.run("edit", { filePath: "a.txt", oldString: "alpha", newString: "ALPHA" });
    expect(edited.status).toBe("completed");
    expect(await text("a.txt")).toBe("ALPHA\nBETA by hand\n");
  });

  it("without a hand save the same edit succeeds (the refusal above is the save's doing)", async () => {
    const { session, at, text } = await on(backend, { "a.txt": "alpha\nbeta\n" });
    await session.run("read", { filePath: "a.txt" });
    await clockPast(session.fileTime.get(session.session.id, at("a.txt"))! + FileTime.TOLERANCE_MS + COARSE_CLOCK_MS);
    const edited = await session.run("edit", { filePath: "a.txt", oldString: "alpha", newString: "ALPHA" });
    expect(edited.status).toBe("completed");
    expect(await text("a.txt")).toBe("ALPHA\nbeta\n");
  });
});
