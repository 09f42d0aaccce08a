import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { sideBySideRows } from "../../src/ui/tools/diff-rows.js";

const lineRows = (diff: string) =>
  sideBySideRows(diff)
    .filter((row) => row.type === "line")
    .map((row) => [
      row.left ? `${row.left.no}${row.left.kind[0]}:${row.left.text}` : "",
      row.right ? `${row.right.no}${row.right.kind[0]}:${row.right.text}` : "",
    ]);

describe("contract: side-by-side rows from a unified diff", () => {
  it("pairs a run of removals with the run of additions after it, the longer run leaving blanks", () => {
    const diff = createTwoFilesPatch("a", "a", "a\nb\nc\nd\n", "a\nB\nd\n");
    expect(lineRows(diff)).toEqual([
      ["1c:a", "1c:a"],
      ["2d:b", "2a:B"],
      ["3d:c", ""],
      ["4c:d", "3c:d"],
    ]);
  });

  it("numbers lines from each hunk's start on both sides, with a header row per hunk", () => {
    const old = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
    const next = [...old];
    next[2] = "changed";
    next[25] = "later";
    const rows = sideBySideRows(
      createTwoFilesPatch("f", "f", old.join("\n") + "\n", next.join("\n") + "\n", undefined, undefined, { context: 1 }),
    );
    expect(rows.filter((row) => row.type === "hunk").map((row) => row.header)).toEqual(["@@ -2,3 +2,3 @@", "@@ -25,3 +25,3 @@"]);
    expect(rows).toContainEqual({
      type: "line",
      left: { no: 26, text: "l26", kind: "del" },
      right: { no: 26, text: "later", kind: "add" },
    });
  });

  it("skips the no-newline marker, which is not a line of either file", () => {
    const diff = createTwoFilesPatch("a", "a", "x", "y");
    expect(lineRows(diff)).toEqual([["1d:x", "1a:y"]]);
  });

  it("gives no rows for text that is not a diff", () => {
    expect(sideBySideRows("just some words")).toEqual([]);
  });
});
