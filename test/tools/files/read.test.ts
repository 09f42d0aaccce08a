/** read: seed 003's format to the byte, its errors, binary and attachments, folders, and ranged reads. */
import { afterEach, describe, expect, it } from "vitest";
import { fileBackends, sessionOn } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

const lines = (n: number, text = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => text(i + 1)).join("\n") + "\n";

describe.each(fileBackends)("read on %s", (backend) => {
  async function open(files: Record<string, string | Uint8Array>) {
    const s = await sessionOn(backend, files);
    dispose = s.dispose;
    return s;
  }

  it("numbers lines from 00001 and says where the file ends", async () => {
    const { session } = await open({ "a.txt": "first\nsecond\n" });
    const call = await session.run("read", { filePath: "a.txt" });
    expect(call.output).toBe("<file>\n00001| first\n00002| second\n\n(End of file - total 2 lines)\n</file>");
    expect(call.title).toBe("a.txt");
    expect(call.metadata).toMatchObject({ preview: "first\nsecond", truncated: false });
  });

  it("takes a 0-based offset and a limit, and names the offset to read on", async () => {
    const { session, root } = await open({ "n.txt": lines(10) });
    const call = await session.run("read", { filePath: `${root}/n.txt`, offset: 3, limit: 2 });
    expect(call.output).toBe("<file>\n00004| line 4\n00005| line 5\n\n(Showing lines 4-5 of 10. Use offset=5 to read on.)\n</file>");
    expect(call.metadata.truncated).toBe(true);
    const next = await session.run("read", { filePath: "n.txt", offset: 5, limit: 100 });
    expect(next.output).toMatch(/^<file>\n00006\| line 6\n[\s\S]*00010\| line 10\n\n\(End of file - total 10 lines\)\n<\/file>$/);
  });

  it("reads 2,000 lines by default", async () => {
    const { session } = await open({ "long.txt": lines(2500) });
    const call = await session.run("read", { filePath: "long.txt" });
    expect(call.output).toContain("02000| line 2000\n\n(Showing lines 1-2000 of 2500. Use offset=2000 to read on.)");
    expect(call.output).not.toContain("02001|");
  });

  it("cuts lines over 2,000 characters and caps the output at 50 KB", async () => {
    const { session } = await open({ "wide.txt": lines(60, (i) => `${i}:`.padEnd(3000, "x")) });
    const call = await session.run("read", { filePath: "wide.txt" });
    expect(call.output).toContain("... (line truncated to 2000 chars)");
    const shown = call.output!.split("\n").filter((l) => /^\d{5}\| /.test(l)).length;
    expect(shown).toBe(25);
    expect(call.output).toContain("(Output capped at 50 KB. Showing lines 1-25. Use offset=25 to read on.)");
  });

  it("handles CRLF, a BOM, Unicode and a last line without a newline", async () => {
    const { session } = await open({ "w.txt": "\uFEFFcafé ☕\r\nsecond\r\nno newline" });
    const call = await session.run("read", { filePath: "w.txt" });
    expect(call.output).toBe("<file>\n00001| café ☕\n00002| second\n00003| no newline\n\n(End of file - total 3 lines)\n</file>");
  });

  it("reminds that an empty file is empty", async () => {
    const { session } = await open({ "empty.txt": "" });
    expect((await session.run("read", { filePath: "empty.txt" })).output).toBe(
      "<file>\n<system-reminder>Warning: the file exists but its contents are empty.</system-reminder>\n</file>",
    );
  });

  it("says an offset past the end is out of range", async () => {
    const { session } = await open({ "a.txt": "one\n" });
    expect((await session.run("read", { filePath: "a.txt", offset: 5 })).error).toBe("Offset 5 is out of range for this file (1 lines)");
  });

  it("suggests up to three similar names for a missing file", async () => {
    const { session, root } = await open({
      "src/button.tsx": "",
      "src/Button.test.tsx": "",
      "src/buttons.css": "",
      "src/other.ts": "",
      "src/button.md": "",
    });
    const call = await session.run("read", { filePath: "src/button" });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(new RegExp(`^File not found: ${root}/src/button\\n\\nDid you mean one of these\\?\\n`));
    expect(call.error!.split("\n").slice(3)).toHaveLength(3);
    expect((await session.run("read", { filePath: "nothing-like-it" })).error).toBe(`File not found: ${root}/nothing-like-it`);
  });

  it("refuses binary files, by extension and by content", async () => {
    const { session, root } = await open({ "app.wasm": "text really", "blob.txt": new Uint8Array([104, 105, 0, 1, 2]) });
    expect((await session.run("read", { filePath: "app.wasm" })).error).toBe(`Cannot read binary file: ${root}/app.wasm`);
    expect((await session.run("read", { filePath: "blob.txt" })).error).toBe(`Cannot read binary file: ${root}/blob.txt`);
  });

  it("returns images and PDFs as data-URL attachments", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    const { session } = await open({ "pic.png": png, "doc.pdf": "%PDF-1.4\n" });
    const image = await session.run("read", { filePath: "pic.png" });
    expect(image.output).toBe("Image read successfully");
    expect(image.attachments?.[0]).toMatchObject({
      type: "file",
      mime: "image/png",
      url: `data:image/png;base64,${Buffer.from(png).toString("base64")}`,
    });
    expect((await session.run("read", { filePath: "doc.pdf" })).output).toBe("PDF read successfully");
  });

  it("lists a folder, sub-folders with a slash", async () => {
    const { session, root } = await open({ "d/b.txt": "", "d/a/x": "", "d/c.md": "" });
    const call = await session.run("read", { filePath: "d" });
    expect(call.output).toBe(`<path>${root}/d</path>\n<type>directory</type>\n<entries>\na/\nb.txt\nc.md\n\n(3 entries)\n</entries>`);
  });

  it("records the read, so a later write of the file is allowed", async () => {
    const { session, text } = await open({ "a.txt": "old\n" });
    expect((await session.run("write", { filePath: "a.txt", content: "new\n" })).error).toMatch(
      /You must read file .*a\.txt before overwriting it/,
    );
    await session.run("read", { filePath: "a.txt" });
    expect((await session.run("write", { filePath: "a.txt", content: "new\n" })).status).toBe("completed");
    expect(await text("a.txt")).toBe("new\n");
  });

  it("asks read with the absolute path, and external_directory for a path outside the workspace", async () => {
    const { session, runtime } = await open({ "a.txt": "x\n" });
    const outside = runtime.root.replace(/\/workspace$/, "") + "/outside.txt";
    await runtime.fs.writeFile(outside, "secret\n");
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "reject")));
    const call = await session.run("read", { filePath: "../outside.txt" });
    expect(call.status).toBe("error");
    expect(call.permissions).toEqual([
      {
        permission: "external_directory",
        patterns: [`${runtime.root.replace(/\/workspace$/, "")}/*`],
        always: [`${runtime.root.replace(/\/workspace$/, "")}/*`],
        answer: "reject",
      },
    ]);
    const inside = await session.run("read", { filePath: "a.txt" });
    expect(inside.permissions).toEqual([{ permission: "read", patterns: [`${runtime.root}/a.txt`], always: ["*"], answer: "allow" }]);
  });
});

describe("read: ranged reads of a big file", () => {
  it("reads a window near the end of a 40 MB file with ranged reads, never the whole file", async () => {
    const s = await sessionOn("node", {});
    dispose = s.dispose;
    const path = `${s.root}/big.log`;
    const line = "x".repeat(99) + "\n";
    const chunk = line.repeat(10_000); // 1,000,000 bytes
    for (let i = 0; i < 40; i++) await s.runtime.fs.appendFile(path, chunk);
    const fs = s.runtime.fs;
    let wholeReads = 0;
    let largest = 0;
    const readFile = fs.readFile.bind(fs);
    const read = fs.read.bind(fs);
    fs.readFile = async (p) => {
      if (p === path) wholeReads++;
      return readFile(p);
    };
    fs.read = async (p, range) => {
      largest = Math.max(largest, range.length);
      return read(p, range);
    };
    const call = await s.session.run("read", { filePath: "big.log", offset: 399_990 });
    expect(call.output).toContain("399991| " + "x".repeat(99));
    expect(call.output).toContain("(End of file - total 400000 lines)");
    expect(wholeReads).toBe(0);
    expect(largest).toBeLessThanOrEqual(1 << 20);
  });
});
