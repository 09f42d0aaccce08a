import { describe, expect, it } from "vitest";
import { formatSummary, parsePatch, planPatch, trimDiff, type PlannedChange } from "../../../src/tools/patch/index.js";
import { memoryIo, patch } from "./helpers.js";

const change = (fields: Partial<PlannedChange> & Pick<PlannedChange, "type" | "relativePath">): PlannedChange => ({
  path: `/ws/${fields.relativePath}`,
  before: "",
  after: "",
  diff: "",
  additions: 0,
  deletions: 0,
  ...fields,
});

describe("formatSummary", () => {
  it("lists A, M and D per path, a move under its target", () => {
    expect(
      formatSummary([
        change({ type: "add", relativePath: "src/new.ts" }),
        change({ type: "update", relativePath: "src/a.ts" }),
        change({ type: "delete", relativePath: "old.txt" }),
        change({ type: "move", relativePath: "from/x.ts", movePath: "/ws/to/y.ts", moveRelativePath: "to/y.ts" }),
      ]),
    ).toBe("Success. Updated the following files:\nA src/new.ts\nM src/a.ts\nD old.txt\nM to/y.ts");
  });

  it("uses forward slashes and lists a path once per letter", () => {
    expect(
      formatSummary([change({ type: "update", relativePath: "src\\win\\a.ts" }), change({ type: "update", relativePath: "src/win/a.ts" })]),
    ).toBe("Success. Updated the following files:\nM src/win/a.ts");
  });

  it("summarizes a planned patch", async () => {
    const text = patch(
      "*** Begin Patch",
      "*** Add File: n.txt",
      "+n",
      "*** Update File: u.txt",
      "*** Move to: dir/m.txt",
      "@@",
      "-u",
      "+U",
      "*** Delete File: d.txt",
      "*** End Patch",
    );
    const changes = await planPatch(parsePatch(text), memoryIo({ "/ws/u.txt": "u\n", "/ws/d.txt": "d\n" }).io);
    expect(formatSummary(changes)).toBe("Success. Updated the following files:\nA n.txt\nM dir/m.txt\nD d.txt");
  });
});

describe("trimDiff", () => {
  it("removes the indentation all content lines share", () => {
    const diff = ["--- a.ts", "+++ a.ts", "@@ -1,3 +1,3 @@", "     if (x) {", "-        old();", "+        next();", "     }", ""].join(
      "\n",
    );
    expect(trimDiff(diff)).toBe(
      ["--- a.ts", "+++ a.ts", "@@ -1,3 +1,3 @@", " if (x) {", "-    old();", "+    next();", " }", ""].join("\n"),
    );
  });

  it("leaves a diff alone when some content line is not indented", () => {
    const diff = ["--- a", "+++ a", "@@ -1,2 +1,2 @@", "  x", "-y", "+z"].join("\n");
    expect(trimDiff(diff)).toBe(diff);
  });

  it("counts a removed line starting with -- as content, not a header", () => {
    const diff = ["--- a", "+++ a", "@@ -1,2 +1,2 @@", "---x", "+  y"].join("\n");
    expect(trimDiff(diff)).toBe(diff);
  });

  it("never mixes tabs and spaces, and ignores blank lines when measuring", () => {
    const mixed = ["--- a", "+++ a", "@@ -1,2 +1,2 @@", "-\tx", "+  x"].join("\n");
    expect(trimDiff(mixed)).toBe(mixed);
    const blank = ["--- a", "+++ a", "@@ -1,3 +1,3 @@", "   a", " ", "-  b", "+  c"].join("\n");
    expect(trimDiff(blank)).toBe(["--- a", "+++ a", "@@ -1,3 +1,3 @@", " a", " ", "-b", "+c"].join("\n"));
  });

  it("is applied to planned diffs", async () => {
    const [planned] = await planPatch(
      parsePatch(
        patch("*** Begin Patch", "*** Update File: a.ts", "@@", "         deep();", "-        old();", "+        next();", "*** End Patch"),
      ),
      memoryIo({ "/ws/a.ts": "        deep();\n        old();\n" }).io,
    );
    expect(planned?.diff).toContain("\n deep();\n-old();\n+next();\n");
  });
});
