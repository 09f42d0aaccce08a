import { describe, expect, it } from "vitest";
import { normalizePunctuation, seekSequence, stripLineNumberPrefix } from "../../../src/tools/patch/index.js";

describe("seekSequence", () => {
  const lines = ["alpha", "  beta  ", "gamma", "alpha", "beta"];

  it("finds an exact match from the start index", () => {
    expect(seekSequence(lines, ["alpha"], 0)).toEqual({ index: 0, pass: "exact", strippedLineNumbers: false });
    expect(seekSequence(lines, ["alpha"], 1)).toMatchObject({ index: 3, pass: "exact" });
    expect(seekSequence(lines, ["alpha", "beta"], 0)).toMatchObject({ index: 3, pass: "exact" });
  });

  it("prefers an exact match anywhere to a loose match earlier", () => {
    expect(seekSequence(["beta ", "beta"], ["beta"], 0)).toMatchObject({ index: 1, pass: "exact" });
  });

  it("falls back to trimEnd, then trim", () => {
    expect(seekSequence(["x  ", "y"], ["x", "y"], 0)).toMatchObject({ index: 0, pass: "trimEnd" });
    expect(seekSequence(lines, ["beta", "gamma"], 0)).toMatchObject({ index: 1, pass: "trim" });
  });

  it("normalizes Unicode punctuation in the file against ASCII in the patch", () => {
    const file = ["print(“hello” ‘x’)", "a – b — c", "wait…", "no\u00A0break"];
    expect(seekSequence(file, ["print(\"hello\" 'x')", "a - b - c", "wait...", "no break"], 0)).toMatchObject({
      index: 0,
      pass: "unicode",
    });
    expect(normalizePunctuation("‚‛„‟‐‑‒―")).toBe(`''""----`);
  });

  it("matches patch lines carrying line-number prefixes", () => {
    const file = ["def f():", "    return 1", ""];
    for (const pattern of [
      ["00001| def f():", "00002|     return 1"],
      ["1: def f():", "2:     return 1"],
      ["     1\tdef f():", "     2\t    return 1"],
      ["00001| def f():", "00002|     return 1", "00003|"],
    ]) {
      expect(seekSequence(file, pattern, 0)).toEqual({ index: 0, pass: "exact", strippedLineNumbers: true });
    }
    expect(stripLineNumberPrefix("00012|     x")).toBe("    x");
    expect(stripLineNumberPrefix("no number")).toBeUndefined();
  });

  it("does not strip line numbers unless every non-blank line has one", () => {
    expect(seekSequence(["a", "b"], ["1: a", "b"], 0)).toBeUndefined();
  });

  it("tries the end of the file first for end-of-file chunks", () => {
    const file = ["x", "end", "y", "end"];
    expect(seekSequence(file, ["end"], 0, false)).toMatchObject({ index: 1 });
    expect(seekSequence(file, ["end"], 0, true)).toMatchObject({ index: 3 });
    // Not at the end: the usual scan still runs.
    expect(seekSequence(["end", "x"], ["end"], 0, true)).toMatchObject({ index: 0 });
  });

  it("never matches before the start index, even at the end of file", () => {
    expect(seekSequence(["a", "b"], ["a", "b"], 1, true)).toBeUndefined();
  });

  it("returns undefined when the pattern is longer than the rest, and the start for an empty pattern", () => {
    expect(seekSequence(["a"], ["a", "b"], 0)).toBeUndefined();
    expect(seekSequence(["a"], [], 1)).toMatchObject({ index: 1 });
  });
});
