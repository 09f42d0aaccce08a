import { describe, expect, it } from "vitest";
import { parsePatch, PatchError, planPatch, type PlannedChange } from "../../../src/tools/patch/index.js";
import { memoryIo, patch } from "./helpers.js";

async function plan(text: string, files: Record<string, string>, options?: Parameters<typeof memoryIo>[1]): Promise<PlannedChange[]> {
  return planPatch(parsePatch(text), memoryIo(files, options).io);
}

async function planError(text: string, files: Record<string, string>, options?: Parameters<typeof memoryIo>[1]): Promise<PatchError> {
  const error = await plan(text, files, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PatchError);
  return error as PatchError;
}

const update = (path: string, ...lines: string[]) => patch("*** Begin Patch", `*** Update File: ${path}`, ...lines, "*** End Patch");

describe("planPatch: operations", () => {
  it("plans an add with a trailing newline and a diff", async () => {
    const [change] = await plan(patch("*** Begin Patch", "*** Add File: src/new.ts", "+export const a = 1;", "*** End Patch"), {});
    expect(change).toMatchObject({
      type: "add",
      path: "/ws/src/new.ts",
      relativePath: "src/new.ts",
      before: "",
      after: "export const a = 1;\n",
      additions: 1,
      deletions: 0,
    });
    expect(change?.diff).toContain("+++ src/new.ts");
    expect(change?.diff).toContain("+export const a = 1;");
  });

  it("adds a trailing newline to hand-built add contents", async () => {
    const [change] = await planPatch([{ type: "add", path: "a.txt", contents: "no newline" }], memoryIo({}).io);
    expect(change?.after).toBe("no newline\n");
  });

  it("plans an add over an existing file with the old text as before", async () => {
    const [change] = await plan(patch("*** Begin Patch", "*** Add File: a.txt", "+new", "*** End Patch"), { "/ws/a.txt": "old\n" });
    expect(change).toMatchObject({ type: "add", before: "old\n", after: "new\n", additions: 1, deletions: 1 });
  });

  it("plans a delete", async () => {
    const [change] = await plan(patch("*** Begin Patch", "*** Delete File: a.txt", "*** End Patch"), { "/ws/a.txt": "one\ntwo\n" });
    expect(change).toMatchObject({
      type: "delete",
      path: "/ws/a.txt",
      relativePath: "a.txt",
      before: "one\ntwo\n",
      after: "",
      additions: 0,
      deletions: 2,
    });
  });

  it("plans an update", async () => {
    const [change] = await plan(update("a.py", "@@ def f():", "     x = 1", "-    return x", "+    return x + 1"), {
      "/ws/a.py": "import os\n\ndef f():\n    x = 1\n    return x\n",
    });
    expect(change).toMatchObject({
      type: "update",
      path: "/ws/a.py",
      relativePath: "a.py",
      before: "import os\n\ndef f():\n    x = 1\n    return x\n",
      after: "import os\n\ndef f():\n    x = 1\n    return x + 1\n",
      additions: 1,
      deletions: 1,
    });
    expect(change?.movePath).toBeUndefined();
  });

  it("plans a move with changes", async () => {
    const [change] = await plan(update("old/a.txt", "*** Move to: new/b.txt", "@@", "-one", "+uno"), { "/ws/old/a.txt": "one\ntwo\n" });
    expect(change).toMatchObject({
      type: "move",
      path: "/ws/old/a.txt",
      relativePath: "old/a.txt",
      movePath: "/ws/new/b.txt",
      moveRelativePath: "new/b.txt",
      before: "one\ntwo\n",
      after: "uno\ntwo\n",
    });
    expect(change?.diff).toContain("--- old/a.txt");
    expect(change?.diff).toContain("+++ new/b.txt");
  });

  it("plans a pure rename", async () => {
    const [change] = await plan(update("a.txt", "*** Move to: b.txt"), { "/ws/a.txt": "same\n" });
    expect(change).toMatchObject({ type: "move", before: "same\n", after: "same\n", additions: 0, deletions: 0 });
  });

  it("treats a move to the same path as an update", async () => {
    const [change] = await plan(update("a.txt", "*** Move to: ./a.txt", "@@", "-x", "+y"), { "/ws/a.txt": "x\n" });
    expect(change).toMatchObject({ type: "update", after: "y\n" });
  });

  it("resolves absolute paths as given and shows paths outside the root absolute", async () => {
    const changes = await plan(
      patch("*** Begin Patch", "*** Delete File: /ws/in.txt", "*** Delete File: /elsewhere/out.txt", "*** End Patch"),
      {
        "/ws/in.txt": "a\n",
        "/elsewhere/out.txt": "b\n",
      },
    );
    expect(changes.map((change) => [change.path, change.relativePath])).toEqual([
      ["/ws/in.txt", "in.txt"],
      ["/elsewhere/out.txt", "/elsewhere/out.txt"],
    ]);
  });

  it("plans steps on one file from the previous step (add then update, update then update)", async () => {
    const changes = await plan(
      patch(
        "*** Begin Patch",
        "*** Add File: n.txt",
        "+a",
        "*** Update File: n.txt",
        "@@",
        "-a",
        "+b",
        "*** Update File: o.txt",
        "@@",
        "-1",
        "+2",
        "*** Update File: o.txt",
        "@@",
        "-2",
        "+3",
        "*** End Patch",
      ),
      { "/ws/o.txt": "1\n" },
    );
    expect(changes.map((change) => [change.type, change.before, change.after])).toEqual([
      ["add", "", "a\n"],
      ["update", "a\n", "b\n"],
      ["update", "1\n", "2\n"],
      ["update", "2\n", "3\n"],
    ]);
  });

  it("reads nothing it does not need and writes nothing", async () => {
    const files = { "/ws/a.txt": "x\n" };
    const { io, reads } = memoryIo(files);
    await planPatch(parsePatch(update("a.txt", "@@", "-x", "+y")), io);
    expect(reads).toEqual(["/ws/a.txt"]);
    expect(files).toEqual({ "/ws/a.txt": "x\n" });
  });
});

describe("planPatch: matching", () => {
  it("applies several chunks in order", async () => {
    const [change] = await plan(update("a.txt", "@@", " a", "-b", "+B", "@@", " c", "-d", "+D", "@@", "-f", "+F"), {
      "/ws/a.txt": "a\nb\nc\nd\ne\nf\n",
    });
    expect(change?.after).toBe("a\nB\nc\nD\ne\nF\n");
  });

  it("searches each chunk after the previous one", async () => {
    const [change] = await plan(update("a.txt", "@@", "-x", "+1", "@@", "-x", "+2"), { "/ws/a.txt": "x\ny\nx\n" });
    expect(change?.after).toBe("1\ny\n2\n");
  });

  it("uses the @@ context to pick among repeated lines", async () => {
    const file = "def a():\n    return 0\n\ndef b():\n    return 0\n";
    const [change] = await plan(update("a.py", "@@ def b():", "-    return 0", "+    return 1"), { "/ws/a.py": file });
    expect(change?.after).toBe("def a():\n    return 0\n\ndef b():\n    return 1\n");
  });

  it("narrows with consecutive @@ context lines", async () => {
    const file = "class A:\n    def run(self):\n        pass\nclass B:\n    def run(self):\n        pass\n";
    const [change] = await plan(update("a.py", "@@ class B:", "@@     def run(self):", "-        pass", "+        return 2"), {
      "/ws/a.py": file,
    });
    expect(change?.after).toBe("class A:\n    def run(self):\n        pass\nclass B:\n    def run(self):\n        return 2\n");
  });

  it("accepts a chunk that repeats its @@ context line as its first line", async () => {
    const [change] = await plan(update("a.py", "@@ def f():", " def f():", "-    pass", "+    return 1"), {
      "/ws/a.py": "def f():\n    pass\n",
    });
    expect(change?.after).toBe("def f():\n    return 1\n");
  });

  it("anchors End of File chunks at the end", async () => {
    const [change] = await plan(update("a.txt", "@@", "-end", "+END", "*** End of File"), { "/ws/a.txt": "end\nmiddle\nend\n" });
    expect(change?.after).toBe("end\nmiddle\nEND\n");
  });

  it("retries without a trailing empty old line", async () => {
    const [change] = await plan(update("a.txt", "@@", " a", "-b", "+c", " "), { "/ws/a.txt": "a\nb" });
    expect(change?.after).toBe("a\nc\n");
  });

  it("inserts a pure addition without context at the end of the file", async () => {
    const [change] = await plan(update("a.txt", "@@", "+z"), { "/ws/a.txt": "x\ny" });
    expect(change?.after).toBe("x\ny\nz\n");
  });

  it("inserts a pure addition right after its @@ context line", async () => {
    const [change] = await plan(update("a.py", "@@ import os", "+import sys"), { "/ws/a.py": "import os\n\nprint(1)\n" });
    expect(change?.after).toBe("import os\nimport sys\n\nprint(1)\n");
  });

  it("inserts a pure addition marked End of File at the end even with context", async () => {
    const [change] = await plan(update("a.txt", "@@ x", "+tail", "*** End of File"), { "/ws/a.txt": "x\ny\n" });
    expect(change?.after).toBe("x\ny\ntail\n");
  });

  it("matches despite trailing whitespace and indentation differences, keeping the file's context lines", async () => {
    const [change] = await plan(update("a.txt", "@@", " keep", "-  old", "+new"), { "/ws/a.txt": "keep   \n    old\t\n" });
    expect(change?.after).toBe("keep   \nnew\n");
  });

  it("matches Unicode quotes and dashes in the file against ASCII in the patch, keeping the file's context and its quotes in an edited line", async () => {
    const file = "title = “Hello — world”\nsay(‘hi’)\n";
    const [change] = await plan(update("a.py", "@@", ' title = "Hello - world"', "-say('hi')", "+say('bye')"), { "/ws/a.py": file });
    expect(change?.after).toBe("title = “Hello — world”\nsay(‘bye’)\n");
  });

  it("keeps an edited line's quotes, spacing and indentation when the hunk matched only loosely; a rewritten line keeps only the indentation", async () => {
    const file = '    msg = "it’s  done"   \n    count = 1\n';
    const [change] = await plan(update("a.py", "@@", '-msg = "it\'s  done"', '+msg = "it\'s  done now"', "-count = 1", "+total = 99"), {
      "/ws/a.py": file,
    });
    expect(change?.after).toBe('    msg = "it’s  done now"   \n    total = 99\n');
  });

  it("matches hunk lines with line-number prefixes and strips them from added lines", async () => {
    const file = "def f():\n    x = 1\n    return x\n";
    const [change] = await plan(
      update("a.py", "@@", " 00001| def f():", " 00002|     x = 1", "-00003|     return x", "+00003|     return x + 1", "+    # done"),
      { "/ws/a.py": file },
    );
    expect(change?.after).toBe("def f():\n    x = 1\n    return x + 1\n    # done\n");
  });

  it("always ends the result with a newline", async () => {
    const [change] = await plan(update("a.txt", "@@", "-a", "+b"), { "/ws/a.txt": "a" });
    expect(change?.after).toBe("b\n");
  });

  it("can delete every line", async () => {
    const [change] = await plan(update("a.txt", "@@", "-a", "-b"), { "/ws/a.txt": "a\nb\n" });
    expect(change?.after).toBe("");
  });
});

describe("planPatch: line endings and BOM", () => {
  it("keeps a CRLF file CRLF", async () => {
    const [change] = await plan(update("a.txt", "@@", " one", "-two", "+2", "+2b", " three"), { "/ws/a.txt": "one\r\ntwo\r\nthree\r\n" });
    expect(change?.after).toBe("one\r\n2\r\n2b\r\nthree\r\n");
    // The diff is of the LF text.
    expect(change?.diff).not.toContain("\r");
    expect(change).toMatchObject({ additions: 2, deletions: 1 });
  });

  it("matches a CRLF file with a CRLF patch", async () => {
    const text = ["*** Begin Patch", "*** Update File: a.txt", "@@", "-two", "+2", "*** End Patch"].join("\r\n");
    const [change] = await plan(text, { "/ws/a.txt": "one\r\ntwo\r\n" });
    expect(change?.after).toBe("one\r\n2\r\n");
  });

  it("ends a CRLF file without a final newline with CRLF", async () => {
    const [change] = await plan(update("a.txt", "@@", "+c"), { "/ws/a.txt": "a\r\nb" });
    expect(change?.after).toBe("a\r\nb\r\nc\r\n");
  });

  it("leaves the untouched lines of a mixed file as they are", async () => {
    const [change] = await plan(update("a.txt", "@@", "-b", "+B"), { "/ws/a.txt": "a\r\nb\r\nc\nd\r\n" });
    expect(change?.after).toBe("a\r\nB\r\nc\nd\r\n");
  });

  it("keeps a UTF-8 BOM", async () => {
    const [change] = await plan(update("a.txt", "@@", "-first", "+1st"), { "/ws/a.txt": "\uFEFFfirst\r\nsecond\r\n" });
    expect(change?.after).toBe("\uFEFF1st\r\nsecond\r\n");
    expect(change?.diff).not.toContain("\uFEFF");
  });
});

describe("planPatch: errors and all-or-nothing", () => {
  it("fails an update of a missing file", async () => {
    const error = await planError(update("missing.txt", "@@", "-a", "+b"), {});
    expect(error.kind).toBe("missing_file");
    expect(error.message).toBe("Failed to read file to update: /ws/missing.txt");
  });

  it("fails an update of a folder", async () => {
    const error = await planError(update("src", "@@", "-a", "+b"), { "/ws/src/x.ts": "" });
    expect(error.message).toBe("Failed to read file to update: /ws/src");
  });

  it("fails when a read throws", async () => {
    const io = memoryIo({}).io;
    io.read = async () => {
      throw new Error("EACCES");
    };
    const error = await planPatch(parsePatch(update("a.txt", "@@", "-a", "+b")), io).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PatchError);
    expect((error as PatchError).message).toBe("Failed to read file to update: /ws/a.txt");
  });

  it("fails when the old lines are not found", async () => {
    const error = await planError(update("a.txt", "@@", " one", "-zwei", "+2"), { "/ws/a.txt": "one\ntwo\n" });
    expect(error.kind).toBe("lines_not_found");
    expect(error.message).toBe("Failed to find expected lines in /ws/a.txt:\none\nzwei");
  });

  it("fails when the context is not found", async () => {
    const error = await planError(update("a.txt", "@@ def nowhere():", "-x", "+y"), { "/ws/a.txt": "x\n" });
    expect(error.kind).toBe("context_not_found");
    expect(error.message).toBe("Failed to find context 'def nowhere():' in /ws/a.txt");
  });

  it("fails chunks given out of order", async () => {
    const error = await planError(update("a.txt", "@@", "-b", "+B", "@@", "-a", "+A"), { "/ws/a.txt": "a\nb\n" });
    expect(error.message).toBe("Failed to find expected lines in /ws/a.txt:\na");
  });

  it("fails a delete of a missing file or a folder", async () => {
    const missing = await planError(patch("*** Begin Patch", "*** Delete File: gone.txt", "*** End Patch"), {});
    expect(missing.kind).toBe("delete_failed");
    expect(missing.message).toBe("Failed to delete /ws/gone.txt: no such file. Check the path; a file must exist to be deleted.");
    const folder = await planError(patch("*** Begin Patch", "*** Delete File: src", "*** End Patch"), {}, { directories: ["/ws/src"] });
    expect(folder.message).toBe("Failed to delete /ws/src: it is a directory (apply_patch deletes files only)");
  });

  it("fails a delete whose read throws", async () => {
    const io = memoryIo({}).io;
    io.read = async () => {
      throw new Error("EIO");
    };
    const error = await planPatch(parsePatch(patch("*** Begin Patch", "*** Delete File: a.txt", "*** End Patch")), io).catch(
      (thrown: unknown) => thrown,
    );
    expect((error as PatchError).message).toBe("Failed to read file to delete: /ws/a.txt");
  });

  it("fails a delete of a file an earlier hunk deleted", async () => {
    const error = await planError(patch("*** Begin Patch", "*** Delete File: a.txt", "*** Delete File: a.txt", "*** End Patch"), {
      "/ws/a.txt": "x\n",
    });
    expect(error.kind).toBe("delete_failed");
  });

  it("fails an add onto a folder and a move onto a folder", async () => {
    const add = await planError(patch("*** Begin Patch", "*** Add File: src", "+x", "*** End Patch"), {}, { directories: ["/ws/src"] });
    expect(add.kind).toBe("target_is_directory");
    expect(add.message).toBe("Failed to add /ws/src: a directory with that name exists");
    const move = await planError(update("a.txt", "*** Move to: src"), { "/ws/a.txt": "x\n" }, { directories: ["/ws/src"] });
    expect(move.message).toBe("Failed to move /ws/a.txt to /ws/src: a directory with that name exists");
  });

  it("fails an add whose read throws", async () => {
    const io = memoryIo({}).io;
    io.read = async () => {
      throw new Error("EIO");
    };
    const error = await planPatch([{ type: "add", path: "a.txt", contents: "x\n" }], io).catch((thrown: unknown) => thrown);
    expect((error as PatchError).message).toBe("Failed to read /ws/a.txt: EIO");
  });

  it("fails an update of a file moved away earlier in the patch", async () => {
    const error = await planError(
      patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "*** Update File: a.txt", "@@", "-x", "+y", "*** End Patch"),
      { "/ws/a.txt": "x\n" },
    );
    expect(error.message).toBe("Failed to read file to update: /ws/a.txt");
  });

  it("returns no plan when the second file fails", async () => {
    const files = { "/ws/a.txt": "a\n", "/ws/b.txt": "b\n" };
    const { io, reads } = memoryIo(files);
    const text = patch(
      "*** Begin Patch",
      "*** Update File: a.txt",
      "@@",
      "-a",
      "+A",
      "*** Update File: b.txt",
      "@@",
      "-nope",
      "+B",
      "*** End Patch",
    );
    const result = await planPatch(parsePatch(text), io).then(
      (changes) => ({ changes }),
      (error: unknown) => ({ error }),
    );
    expect(result).not.toHaveProperty("changes");
    expect((result as { error: PatchError }).error.message).toBe("Failed to find expected lines in /ws/b.txt:\nnope");
    expect(reads).toEqual(["/ws/a.txt", "/ws/b.txt"]);
    expect(files).toEqual({ "/ws/a.txt": "a\n", "/ws/b.txt": "b\n" });
  });
});
