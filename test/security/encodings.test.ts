/**
 * Issue 15, item 12: bytes changed outside the edit. An edit may change only the bytes of the lines it edits:
 * a Latin-1 byte on another line, another line's CRLF or LF, a BOM are kept exactly; an edit that cannot
 * name the text it should replace (it spans bytes that are not UTF-8) is refused with a message saying why.
 * Expectations are built from bytes, line by line, independently of the code under test.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fileBackends } from "../support/tool-session.js";
import { attackedSession, type Attacked } from "./write-session.js";

let current: Attacked | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

/** Bytes from pieces: strings are ASCII, numbers are raw bytes. */
const raw = (...pieces: Array<string | number>) =>
  Uint8Array.from(pieces.flatMap((piece) => (typeof piece === "number" ? [piece] : [...piece].map((c) => c.charCodeAt(0)))));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

const latin1 = raw("caf", 0xe9, " cr", 0xe8, "me\n", "line two\n", "na", 0xef, "ve\n", "line four\n");

describe.each(fileBackends)("encodings and line endings on %s", (backend) => {
  async function open(files: Record<string, string | Uint8Array>) {
    current = await attackedSession(backend, files);
    return current;
  }

  it("edit of line 2 of a Latin-1 file keeps line 1's and line 3's bytes", async () => {
    const s = await open({ "l1.txt": latin1 });
    await s.session.run("read", { filePath: "l1.txt" });
    const call = await s.session.run("edit", { filePath: "l1.txt", oldString: "line two", newString: "line 2" });
    expect(call.status).toBe("completed");
    expect(JSON.stringify(call.metadata)).not.toMatch(/\\udc[89a-f][0-9a-f]/i);
    expect(String(call.metadata.diff)).toContain(" caf\uFFFD cr\uFFFDme\n-line two\n+line 2");
    expect(hex(await s.bytes("l1.txt"))).toBe(hex(raw("caf", 0xe9, " cr", 0xe8, "me\n", "line 2\n", "na", 0xef, "ve\n", "line four\n")));
    await s.sentinel.assertUntouched();
  });

  it("multiedit and apply_patch on a Latin-1 file keep the lines they do not edit", async () => {
    const s = await open({ "l1.txt": latin1 });
    await s.session.run("read", { filePath: "l1.txt" });
    const multi = await s.session.run("multiedit", {
      filePath: "l1.txt",
      edits: [
        { oldString: "line two", newString: "LINE TWO" },
        { oldString: "line four", newString: "LINE FOUR" },
      ],
    });
    expect(multi.status).toBe("completed");
    expect(hex(await s.bytes("l1.txt"))).toBe(hex(raw("caf", 0xe9, " cr", 0xe8, "me\n", "LINE TWO\n", "na", 0xef, "ve\n", "LINE FOUR\n")));
    const patched = await s.session.run("apply_patch", {
      patchText: ["*** Begin Patch", "*** Update File: l1.txt", "@@", "-LINE FOUR", "+line 4", "*** End Patch"].join("\n"),
    });
    expect(patched.status).toBe("completed");
    expect(hex(await s.bytes("l1.txt"))).toBe(hex(raw("caf", 0xe9, " cr", 0xe8, "me\n", "LINE TWO\n", "na", 0xef, "ve\n", "line 4\n")));
  });

  it("apply_patch moving a Latin-1 file keeps its bytes at the new place", async () => {
    const s = await open({ "l1.txt": latin1 });
    const call = await s.session.run("apply_patch", {
      patchText: [
        "*** Begin Patch",
        "*** Update File: l1.txt",
        "*** Move to: moved.txt",
        "@@",
        "-line two",
        "+line 2",
        "*** End Patch",
      ].join("\n"),
    });
    expect(call.status).toBe("completed");
    // What is shown (diffs, before and after) names the bytes U+FFFD, as read does, never as lone surrogates.
    expect(JSON.stringify(call.metadata)).not.toMatch(/\\udc[89a-f][0-9a-f]/i);
    expect(String(call.metadata.diff)).toContain("-line two\n+line 2");
    expect(hex(await s.bytes("moved.txt"))).toBe(hex(raw("caf", 0xe9, " cr", 0xe8, "me\n", "line 2\n", "na", 0xef, "ve\n", "line four\n")));
  });

  it("an edit of one line of a mixed-ending file keeps every other line's ending", async () => {
    const s = await open({ "mixed.txt": "a\r\nb\nc\r\nd\ne" });
    await s.session.run("read", { filePath: "mixed.txt" });
    expect((await s.session.run("edit", { filePath: "mixed.txt", oldString: "b", newString: "B" })).status).toBe("completed");
    expect(await s.text("mixed.txt")).toBe("a\r\nB\nc\r\nd\ne");
    // A line that becomes two: the first keeps the replaced line's ending, the new one gets the usual one
    // (here CRLF and LF tie, and CRLF wins the tie), and the last line still has none.
    expect((await s.session.run("edit", { filePath: "mixed.txt", oldString: "c", newString: "C\nC2" })).status).toBe("completed");
    expect(await s.text("mixed.txt")).toBe("a\r\nB\nC\r\nC2\r\nd\ne");
    expect((await s.session.run("edit", { filePath: "mixed.txt", oldString: "e", newString: "E\n" })).status).toBe("completed");
    expect(await s.text("mixed.txt")).toBe("a\r\nB\nC\r\nC2\r\nd\nE\r\n");
  });

  it("write with LF content over a mixed-ending file keeps the endings of the lines it keeps", async () => {
    const s = await open({ "mixed.txt": "one\r\ntwo\nthree\r\nfour\n" });
    await s.session.run("read", { filePath: "mixed.txt" });
    const call = await s.session.run("write", { filePath: "mixed.txt", content: "one\nTWO\nthree\nfour\n" });
    expect(call.status).toBe("completed");
    expect(await s.text("mixed.txt")).toBe("one\r\nTWO\nthree\r\nfour\n");
  });

  it("keeps a BOM, CRLF and a stray byte on lines the edit does not touch", async () => {
    const s = await open({ "bom.txt": raw(0xef, 0xbb, 0xbf, "head ", 0xff, "\r\n", "body\r\n", "tail\r\n") });
    await s.session.run("read", { filePath: "bom.txt" });
    expect((await s.session.run("edit", { filePath: "bom.txt", oldString: "body", newString: "BODY" })).status).toBe("completed");
    expect(hex(await s.bytes("bom.txt"))).toBe(hex(raw(0xef, 0xbb, 0xbf, "head ", 0xff, "\r\n", "BODY\r\n", "tail\r\n")));
  });

  it("refuses an edit that spans bytes that are not UTF-8, saying why and what to do, and changes nothing", async () => {
    const s = await open({ "l1.txt": latin1 });
    const read = await s.session.run("read", { filePath: "l1.txt" });
    // The model copies the line as read showed it: U+FFFD where the file has 0xE9 and 0xE8.
    expect(read.output).toContain("caf\uFFFD cr\uFFFDme");
    const call = await s.session.run("edit", { filePath: "l1.txt", oldString: "caf\uFFFD cr\uFFFDme", newString: "coffee" });
    expect(call.status).toBe("error");
    expect(call.error).toContain("Could not find oldString in the file.");
    expect(call.error).toContain("This file is not valid UTF-8: lines 1, 3 hold bytes that read shows as \uFFFD");
    expect(call.error).toContain("iconv -f latin1 -t utf-8");
    expect(call.error).not.toMatch(/[\uDC80-\uDCFF]/);
    expect(hex(await s.bytes("l1.txt"))).toBe(hex(latin1));
  });
});
