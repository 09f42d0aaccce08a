import { describe, expect, it } from "vitest";
import { parsePatch, PatchError } from "../../../src/tools/patch/index.js";
import { patch } from "./helpers.js";

function parseError(text: string): PatchError {
  try {
    parsePatch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PatchError);
    return error as PatchError;
  }
  throw new Error("expected a PatchError");
}

describe("parsePatch: markers", () => {
  it("reads every file operation and chunk marker", () => {
    const hunks = parsePatch(
      patch(
        "*** Begin Patch",
        "*** Add File: docs/new.md",
        "+# Title",
        "+",
        "+body",
        "*** Delete File: old.txt",
        "*** Update File: src/a.ts",
        "*** Move to: src/b.ts",
        "@@ function main() {",
        " const a = 1;",
        "-const b = 2;",
        "+const b = 3;",
        "@@",
        "-last",
        "+final",
        "*** End of File",
        "*** End Patch",
      ),
    );
    expect(hunks).toEqual([
      { type: "add", path: "docs/new.md", contents: "# Title\n\nbody\n" },
      { type: "delete", path: "old.txt" },
      {
        type: "update",
        path: "src/a.ts",
        movePath: "src/b.ts",
        chunks: [
          {
            context: "function main() {",
            oldLines: ["const a = 1;", "const b = 2;"],
            newLines: ["const a = 1;", "const b = 3;"],
            endOfFile: false,
          },
          { oldLines: ["last"], newLines: ["final"], endOfFile: true },
        ],
      },
    ]);
  });

  it("gives an add with no lines empty contents", () => {
    expect(parsePatch(patch("*** Begin Patch", "*** Add File: empty.txt", "*** End Patch"))).toEqual([
      { type: "add", path: "empty.txt", contents: "" },
    ]);
  });

  it("ignores what follows a delete marker", () => {
    expect(parsePatch(patch("*** Begin Patch", "*** Delete File: a.txt", "-old line", "*** End Patch"))).toEqual([
      { type: "delete", path: "a.txt" },
    ]);
  });

  it("keeps a pure rename (update with a move and no chunks)", () => {
    expect(parsePatch(patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "*** End Patch"))).toEqual([
      { type: "update", path: "a.txt", movePath: "b.txt", chunks: [] },
    ]);
  });

  it("reads a unified hunk header's trailing text as the context and drops its numbers", () => {
    const [hunk] = parsePatch(
      patch(
        "*** Begin Patch",
        "*** Update File: a.py",
        "@@ -10,3 +10,3 @@ def main():",
        "-x",
        "+y",
        "@@ -20 +20 @@",
        "-p",
        "+q",
        "*** End Patch",
      ),
    );
    expect(hunk).toEqual({
      type: "update",
      path: "a.py",
      chunks: [
        { context: "def main():", oldLines: ["x"], newLines: ["y"], endOfFile: false },
        { oldLines: ["p"], newLines: ["q"], endOfFile: false },
      ],
    });
  });

  it("keeps consecutive @@ lines as context-only chunks that narrow the search", () => {
    const [hunk] = parsePatch(
      patch(
        "*** Begin Patch",
        "*** Update File: a.py",
        "@@ class A:",
        "@@     def run(self):",
        "-        pass",
        "+        return 1",
        "*** End Patch",
      ),
    );
    expect(hunk).toMatchObject({
      chunks: [
        { context: "class A:", oldLines: [], newLines: [], endOfFile: false },
        { context: "    def run(self):", oldLines: ["        pass"], newLines: ["        return 1"] },
      ],
    });
  });

  it("treats lines starting with + or - as content even when they look like markers", () => {
    const [hunk] = parsePatch(
      patch("*** Begin Patch", "*** Add File: notes.md", "+*** End Patch", "+*** Update File: x", "-- not a header", "*** End Patch"),
    );
    expect(hunk).toEqual({ type: "add", path: "notes.md", contents: "*** End Patch\n*** Update File: x\n-- not a header\n" });
  });

  it("keeps a context line that starts with *** but is no marker", () => {
    const [hunk] = parsePatch(patch("*** Begin Patch", "*** Update File: a.md", "@@", " ***bold***", "-x", "+y", "*** End Patch"));
    expect(hunk).toMatchObject({ chunks: [{ oldLines: ["***bold***", "x"], newLines: ["***bold***", "y"] }] });
  });

  it("skips `\\ No newline at end of file` notes", () => {
    const [hunk] = parsePatch(
      patch("*** Begin Patch", "*** Update File: a", "@@", "-x", "\\ No newline at end of file", "+y", "*** End Patch"),
    );
    expect(hunk).toMatchObject({ chunks: [{ oldLines: ["x"], newLines: ["y"] }] });
  });
});

describe("parsePatch: tolerance", () => {
  const body = ["*** Update File: a.txt", "@@", "-one", "+two"];
  const expected = [{ type: "update", path: "a.txt", chunks: [{ oldLines: ["one"], newLines: ["two"], endOfFile: false }] }];

  it.each([
    ["cat <<'EOF'", "EOF"],
    ["<<EOF", "EOF"],
    ['apply_patch <<"EOF"', "EOF"],
    ["```diff", "```"],
    ["Here is the patch:", "Let me know if it works."],
  ])("ignores a wrapper %s … %s", (open, close) => {
    expect(parsePatch(patch(open, "*** Begin Patch", ...body, "*** End Patch", close))).toEqual(expected);
  });

  it("reads a CRLF patch", () => {
    expect(parsePatch(["*** Begin Patch", ...body, "*** End Patch", ""].join("\r\n"))).toEqual(expected);
  });

  it("accepts trailing whitespace and indentation on marker lines", () => {
    const hunks = parsePatch(
      patch("  *** Begin Patch  ", "*** Update File: a.txt   ", "@@  ", "-one", "+two", "*** End of File\t", " *** End Patch "),
    );
    expect(hunks).toEqual([{ type: "update", path: "a.txt", chunks: [{ oldLines: ["one"], newLines: ["two"], endOfFile: true }] }]);
  });

  it("skips unknown *** headers", () => {
    expect(
      parsePatch(
        patch("*** Begin Patch", "*** Something Else: x", "*** Update File: a.txt", "*** Comment", "@@", "-one", "+two", "*** End Patch"),
      ),
    ).toEqual(expected);
  });

  it("ignores lines before the first @@ of an update", () => {
    expect(
      parsePatch(
        patch(
          "*** Begin Patch",
          "*** Update File: a.txt",
          "--- a/a.txt",
          "+++ b/a.txt",
          "some note",
          "@@",
          "-one",
          "+two",
          "*** End Patch",
        ),
      ),
    ).toEqual(expected);
  });

  it("reads an update without any @@ as one chunk", () => {
    expect(parsePatch(patch("*** Begin Patch", "*** Update File: a.txt", "-one", "+two", "*** End Patch"))).toEqual(expected);
  });

  it("treats an empty line inside a chunk as an empty context line, and drops empty lines ending a chunk", () => {
    const [hunk] = parsePatch(
      patch(
        "*** Begin Patch",
        "*** Update File: a.py",
        "@@",
        " def f():",
        "",
        "-    return 1",
        "+    return 2",
        "",
        "",
        "*** Update File: b.py",
        "@@",
        "-x",
        "+y",
        "*** End Patch",
      ),
    );
    expect(hunk).toEqual({
      type: "update",
      path: "a.py",
      chunks: [{ oldLines: ["def f():", "", "    return 1"], newLines: ["def f():", "", "    return 2"], endOfFile: false }],
    });
  });

  it("keeps a non-empty line without a prefix as context", () => {
    const [hunk] = parsePatch(
      patch("*** Begin Patch", "*** Update File: a.py", "@@", "def f():", "-    return 1", "+    return 2", "*** End Patch"),
    );
    expect(hunk).toMatchObject({ chunks: [{ oldLines: ["def f():", "    return 1"], newLines: ["def f():", "    return 2"] }] });
  });

  it("keeps an empty line inside an added file and unprefixed lines as written", () => {
    const [hunk] = parsePatch(patch("*** Begin Patch", "*** Add File: a.txt", "", "+one", "", "two", "+three", "", "*** End Patch"));
    expect(hunk).toEqual({ type: "add", path: "a.txt", contents: "one\n\ntwo\nthree\n" });
  });

  it("keeps hunk lines with line-number prefixes as written (the planner matches them)", () => {
    const [hunk] = parsePatch(
      patch(
        "*** Begin Patch",
        "*** Update File: a.py",
        "@@",
        " 00011| def f():",
        "-00012|     return 1",
        "+00012|     return 2",
        "*** End Patch",
      ),
    );
    expect(hunk).toMatchObject({
      chunks: [{ oldLines: ["00011| def f():", "00012|     return 1"], newLines: ["00011| def f():", "00012|     return 2"] }],
    });
  });

  it("reads several Begin/End blocks as one patch", () => {
    const hunks = parsePatch(
      patch("*** Begin Patch", "*** Delete File: a", "*** End Patch", "and then", "*** Begin Patch", "*** Delete File: b", "*** End Patch"),
    );
    expect(hunks).toEqual([
      { type: "delete", path: "a" },
      { type: "delete", path: "b" },
    ]);
  });

  it("marks the previous chunk when *** End of File follows a closed chunk", () => {
    const [hunk] = parsePatch(
      patch("*** Begin Patch", "*** Update File: a", "@@", "-x", "+y", "*** End of File", "*** End of File", "*** End Patch"),
    );
    expect(hunk).toMatchObject({ chunks: [{ endOfFile: true }] });
  });
});

describe("parsePatch: errors", () => {
  it("rejects text without a Begin marker, saying what to add", () => {
    const error = parseError(patch("*** Update File: a", "@@", "-x", "+y"));
    expect(error.kind).toBe("invalid");
    expect(error.message).toBe(
      "Invalid patch: the first line of the patch must be '*** Begin Patch' and the last line '*** End Patch'. " +
        "Put the file operations ('*** Add File: <path>', '*** Update File: <path>', '*** Delete File: <path>') between those two lines.",
    );
  });

  it("rejects a patch whose End marker is missing", () => {
    const error = parseError(patch("intro", "*** Begin Patch", "*** Delete File: a"));
    expect(error.kind).toBe("invalid");
    expect(error.message).toBe(
      "Invalid patch: '*** Begin Patch' on line 2 is never closed. The last line of the patch must be '*** End Patch'; if the patch was cut short, send it again in full.",
    );
  });

  it("rejects an empty patch", () => {
    for (const text of ["*** Begin Patch\n*** End Patch", "*** Begin Patch\n\n  \n*** End Patch\n"]) {
      const error = parseError(text);
      expect(error.kind).toBe("empty");
      expect(error.message).toBe("patch rejected: empty patch");
    }
  });

  it("rejects a patch with no file operations", () => {
    const error = parseError(patch("*** Begin Patch", "just words", "*** End Patch"));
    expect(error.kind).toBe("no_hunks");
    expect(error.message).toBe("no hunks found");
  });

  it("rejects a marker without a path", () => {
    const error = parseError(patch("*** Begin Patch", "*** Update File:  ", "@@", "-x", "*** End Patch"));
    expect(error.message).toBe("Invalid patch line 2: '*** Update File:' needs a path, e.g. '*** Update File: src/app.ts'.");
  });

  it("rejects a move outside an update section", () => {
    const error = parseError(patch("*** Begin Patch", "*** Add File: a", "+x", "*** Move to: b", "*** End Patch"));
    expect(error.message).toBe(
      "Invalid patch line 4: '*** Move to:' must belong to an '*** Update File: <path>' section (it renames the updated file).",
    );
  });

  it("rejects an update with no changes", () => {
    const error = parseError(patch("*** Begin Patch", "*** Update File: a.txt", "*** End Patch"));
    expect(error.kind).toBe("invalid");
    expect(error.message).toBe(
      "Invalid patch line 2: '*** Update File: a.txt' has no changes. Follow it with '@@' and the chunk's lines: ' ' for context, '-' for removed, '+' for added.",
    );
  });
});
