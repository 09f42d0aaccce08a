/** Issue 30, item 11: the model's formats turned into what a person reads, and left alone when they do not fit. */
import { createPatch } from "diff";
import { describe, expect, it } from "vitest";
import { diffForPeople, readView, todoTitle } from "../../src/ui/tools/card-formats.js";

describe("readView", () => {
  it("gives the file's own lines, where they start, and the tool's closing words", () => {
    const output =
      "<file>\n00120| const a = 1;\n00121| 00001| not a prefix\n\n(File has more lines. Use 'offset' parameter to read beyond line 121)\n</file>";
    expect(readView(output)).toEqual({
      lines: ["const a = 1;", "00001| not a prefix"],
      firstLine: 120,
      notes: ["(File has more lines. Use 'offset' parameter to read beyond line 121)"],
    });
  });

  it("numbers past 99999 keep their digits; output without the wrapper is not touched", () => {
    expect(readView("<file>\n100000| last\n</file>")?.lines).toEqual(["last"]);
    expect(readView("00001| loose")).toBeUndefined();
  });
});

describe("diffForPeople", () => {
  it("drops the Index and ===== header lines the diff library writes, and keeps every change line", () => {
    const patch = createPatch("notes.txt", "Index: a\n=====\nbeta\n", "Index: b\n==========\nbeta\n");
    expect(patch).toMatch(/^Index: notes.txt\n={10,}\n/);
    const shown = diffForPeople(patch).split("\n");
    expect(shown[0]).toBe("--- notes.txt");
    expect(shown).toContain("-Index: a");
    expect(shown).toContain("+==========");
    expect(shown.filter((line) => /^[+-](?![+-]{2})/.test(line))).toHaveLength(4);
  });
});

describe("todoTitle", () => {
  it("agrees with the list: open of total, all done, empty", () => {
    const item = (status: string) => ({ content: status, status });
    expect(todoTitle([item("completed"), item("in_progress"), item("pending")])).toBe("2 of 3 open");
    expect(todoTitle([item("completed"), item("cancelled")])).toBe("all 2 done");
    expect(todoTitle([])).toBe("empty list");
  });
});
