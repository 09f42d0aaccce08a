/** edit and multiedit as tools: messages, file shape kept, the lock, permissions, all-or-nothing. */
import { afterEach, describe, expect, it } from "vitest";
import { fileBackends, sessionOn } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe.each(fileBackends)("edit on %s", (backend) => {
  async function open(files: Record<string, string | Uint8Array>, config?: object, read: string[] = Object.keys(files)) {
    const s = await sessionOn(backend, config ? { ...files, "opencode.json": JSON.stringify(config) } : files);
    dispose = s.dispose;
    for (const path of read) await s.session.run("read", { filePath: path });
    return s;
  }

  it("replaces a unique match and reports the diff and line counts", async () => {
    const { session, text } = await open({ "a.ts": "const a = 1;\nconst b = 2;\n" });
    const call = await session.run("edit", { filePath: "a.ts", oldString: "const b = 2;", newString: "const b = 3;\nconst c = 4;" });
    expect(call).toMatchObject({ status: "completed", output: "Edit applied successfully.", title: "a.ts" });
    expect(call.metadata).toMatchObject({ additions: 2, deletions: 1, strategy: "Simple" });
    expect(String(call.metadata.diff)).toContain("-const b = 2;\n+const b = 3;\n+const c = 4;");
    expect(await text("a.ts")).toBe("const a = 1;\nconst b = 3;\nconst c = 4;\n");
  });

  it("rejects identical strings, and says not found or not unique in OpenCode's words", async () => {
    const { session } = await open({ "a.ts": "x = 1\nx = 1\ny = 2\n" });
    expect((await session.run("edit", { filePath: "a.ts", oldString: "y", newString: "y" })).error).toBe(
      "No changes to apply: oldString and newString are identical.",
    );
    expect((await session.run("edit", { filePath: "a.ts", oldString: "zzz", newString: "q" })).error).toMatch(
      /^Could not find oldString in the file\. It must match exactly, including whitespace, indentation, and line endings\./,
    );
    expect((await session.run("edit", { filePath: "a.ts", oldString: "x = 1", newString: "x = 2" })).error).toMatch(
      /^Found multiple matches for oldString\. Provide more surrounding context to make the match unique\./,
    );
  });

  it("says a missing file or a folder is not editable", async () => {
    const { session, root } = await open({ "d/x": "" }, undefined, []);
    expect((await session.run("edit", { filePath: "nope.ts", oldString: "a", newString: "b" })).error).toBe(
      `File ${root}/nope.ts not found`,
    );
    expect((await session.run("edit", { filePath: "d", oldString: "a", newString: "b" })).error).toBe(
      `Path is a directory, not a file: ${root}/d`,
    );
  });

  it("insists on a read first", async () => {
    const { session } = await open({ "a.ts": "a\n" }, undefined, []);
    expect((await session.run("edit", { filePath: "a.ts", oldString: "a", newString: "b" })).error).toMatch(
      /You must read file .* before overwriting it/,
    );
  });

  it("replaces all occurrences literally: $& and $$ stay as written", async () => {
    const { session, text } = await open({ "a.txt": "cost cost cost\n" });
    const call = await session.run("edit", { filePath: "a.txt", oldString: "cost", newString: "$&$$", replaceAll: true });
    expect(call.output).toBe("Edit applied successfully. (3 occurrences replaced.)");
    expect(await text("a.txt")).toBe("$&$$ $&$$ $&$$\n");
  });

  it("keeps CRLF line endings, a BOM and the final newline", async () => {
    const { session, runtime } = await open({ "w.txt": "\uFEFFone\r\ntwo\r\nthree\r\n" });
    await session.run("edit", { filePath: "w.txt", oldString: "two\nthree", newString: "2\n3" });
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await runtime.fs.readFile(`${runtime.root}/w.txt`))).toBe(
      "\uFEFFone\r\n2\r\n3\r\n",
    );
  });

  it("keeps a file without a final newline without one", async () => {
    const { session, text } = await open({ "n.txt": "a\nb" });
    await session.run("edit", { filePath: "n.txt", oldString: "b", newString: "c" });
    expect(await text("n.txt")).toBe("a\nc");
  });

  it("creates a file from an empty oldString, and refuses that on an existing non-empty file", async () => {
    const { session, text } = await open({ "old.txt": "content\n" });
    expect((await session.run("edit", { filePath: "new/dir/f.txt", oldString: "", newString: "hello\n" })).status).toBe("completed");
    expect(await text("new/dir/f.txt")).toBe("hello\n");
    expect((await session.run("edit", { filePath: "old.txt", oldString: "", newString: "wiped" })).error).toBe(
      "oldString cannot be empty when editing an existing file. Provide the exact text to replace, or use write for an intentional full-file replacement.",
    );
    expect(await text("old.txt")).toBe("content\n");
  });

  it("loses no update when two edits of one file run at once", async () => {
    const { session, text } = await open({ "c.txt": "alpha\nbeta\n" });
    const [first, second] = await Promise.all([
      session.run("edit", { filePath: "c.txt", oldString: "alpha", newString: "ALPHA" }),
      session.run("edit", { filePath: "c.txt", oldString: "beta", newString: "BETA" }),
    ]);
    expect([first.status, second.status]).toEqual(["completed", "completed"]);
    expect(await text("c.txt")).toBe("ALPHA\nBETA\n");
  });

  it("leaves the file untouched when the user rejects", async () => {
    const { session, text } = await open({ "a.txt": "keep\n" }, { permission: { edit: "ask" } });
    session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => session.permissions.reply(r.id, "reject")));
    const call = await session.run("edit", { filePath: "a.txt", oldString: "keep", newString: "lose" });
    expect(call.error).toBe("The user rejected permission to use this specific tool call.");
    expect(await text("a.txt")).toBe("keep\n");
  });

  it("re-indents newString to a fuzzy match and says which strategy matched", async () => {
    const { session, text } = await open({ "f.py": "def f():\n        if x:\n            return 1\n        return 2\n" });
    const call = await session.run("edit", { filePath: "f.py", oldString: "if x:\n    return 1", newString: "if x:\n    return 10" });
    expect(call.status).toBe("completed");
    expect(call.output).toMatch(/matched lines 2-3 with the \w+ strategy/);
    expect(await text("f.py")).toBe("def f():\n        if x:\n            return 10\n        return 2\n");
  });

  it("keeps a line the model misremembered and says which of its lines differed", async () => {
    const { session, text } = await open({
      "t.py": "def t(price, qty):\n    total = price * qty\n    tax = total * RATE\n    return total + tax\n",
    });
    const call = await session.run("edit", {
      filePath: "t.py",
      oldString: "total = price * qty\ntax = total * rate\nreturn total + tax",
      newString: "total = price * quantity\ntax = total * rate\nreturn total + tax",
    });
    expect(call.status).toBe("completed");
    expect(call.output).toBe(
      "Edit applied successfully. (oldString did not match exactly; matched lines 2-4 with the BlockAnchor strategy, and the change was made on the file's own lines.\n" +
        "Your line 2 (file line 3) is not what the file has; the file's text was kept. Your lines 1, 3 differ only in whitespace, escapes or punctuation.)",
    );
    expect(await text("t.py")).toBe("def t(price, qty):\n    total = price * quantity\n    tax = total * RATE\n    return total + tax\n");
  });

  it("refuses to rewrite a misremembered line and shows the real lines, leaving the file as it was", async () => {
    const original = "def t(price, qty):\n    total = price * qty\n    tax = total * RATE\n    return total + tax\n";
    const { session, text } = await open({ "t.py": original });
    const call = await session.run("edit", {
      filePath: "t.py",
      oldString: "total = price * qty\ntax = total * rate\nreturn total + tax",
      newString: "total = price * qty\ntax = total * rate / 100\nreturn total + tax",
    });
    expect(call.error).toContain("oldString line 2 differs from file line 3.");
    expect(call.error).toContain(" 3|     tax = total * RATE");
    expect(await text("t.py")).toBe(original);
  });
});

describe.each(fileBackends)("multiedit on %s", (backend) => {
  async function open(files: Record<string, string>) {
    const s = await sessionOn(backend, files);
    dispose = s.dispose;
    for (const path of Object.keys(files)) await s.session.run("read", { filePath: path });
    return s;
  }

  it("applies edits in order, each on the result of the one before", async () => {
    const { session, text } = await open({ "m.ts": "let a = 1;\nlet b = 2;\n" });
    const call = await session.run("multiedit", {
      filePath: "m.ts",
      edits: [
        { oldString: "let a = 1;", newString: "let a = 10;" },
        { oldString: "let a = 10;\nlet b = 2;", newString: "let a = 10;\nlet b = 20;" },
      ],
    });
    expect(call).toMatchObject({ status: "completed", output: "Edit applied successfully. (2 edits.)" });
    expect(await text("m.ts")).toBe("let a = 10;\nlet b = 20;\n");
  });

  it("applies each fuzzy edit as a change on the file's lines and names its strategy", async () => {
    const { session, text } = await open({ "m.ts": 'const a = "x";\nconst b = "y";\n// it’s\nconst c = 3;\n' });
    const call = await session.run("multiedit", {
      filePath: "m.ts",
      edits: [
        {
          oldString: String.raw`const a = \"x\";` + "\n" + String.raw`const b = \"y\";`,
          newString: String.raw`const a = \"x\";` + "\n" + String.raw`const b = \"z\";`,
        },
        { oldString: "// it's\nconst c = 3;", newString: "// it's\nconst c = 4;" },
      ],
    });
    expect(call.status).toBe("completed");
    expect(call.output).toMatch(
      /^Edit applied successfully\. \(2 edits\.\) \(edit 1's oldString did not match exactly; matched lines 1-2 with the EscapeNormalized strategy/,
    );
    expect(call.output).toContain("(edit 2's oldString did not match exactly; matched lines 3-4 with the PunctuationNormalized strategy");
    expect(await text("m.ts")).toBe('const a = "x";\nconst b = "z";\n// it’s\nconst c = 4;\n');
  });

  it("is all or nothing: a failing edit leaves the file untouched and is named", async () => {
    const { session, text } = await open({ "m.ts": "one\ntwo\n" });
    const call = await session.run("multiedit", {
      filePath: "m.ts",
      edits: [
        { oldString: "one", newString: "1" },
        { oldString: "missing", newString: "x" },
      ],
    });
    expect(call.error).toMatch(/^Edit 2 of 2 failed, so no edit was applied: Could not find oldString in the file/);
    expect(await text("m.ts")).toBe("one\ntwo\n");
  });

  it("creates a file when the first edit's oldString is empty, applying the rest in memory", async () => {
    const { session, text, root } = await open({});
    const call = await session.run("multiedit", {
      filePath: "made.txt",
      edits: [
        { oldString: "", newString: "a\nb\n" },
        { oldString: "b", newString: "B" },
      ],
    });
    expect(call.status).toBe("completed");
    expect(await text("made.txt")).toBe("a\nB\n");
    const bad = await session.run("multiedit", {
      filePath: "other.txt",
      edits: [
        { oldString: "", newString: "a" },
        { oldString: "zz", newString: "y" },
      ],
    });
    expect(bad.error).toMatch(/^Edit 2 of 2 failed/);
    expect(await session.runtime.fs.stat(`${root}/other.txt`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
  });
});
