/** The seed's edit distance (two rows instead of a matrix) and the similarity built on it. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { levenshtein, similarity } from "../../../src/tools/edit/index.js";

/** The seed's algorithm as written: a full (a+1)x(b+1) matrix. */
function matrixLevenshtein(a: string, b: string): number {
  if (a === "" || b === "") return Math.max(a.length, b.length);
  const matrix = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      matrix[i]![j] = Math.min(matrix[i - 1]![j]! + 1, matrix[i]![j - 1]! + 1, matrix[i - 1]![j - 1]! + cost);
    }
  }
  return matrix[a.length]![b.length]!;
}

describe("levenshtein", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("flaw", "lawn")).toBe(2);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("abc", "")).toBe(3);
    expect(levenshtein("same", "same")).toBe(0);
    expect(levenshtein("a\tb", "a b")).toBe(1);
  });

  it("agrees with the seed's full-matrix version, both ways round", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "c", " ", "\t", "\n"), maxLength: 24 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const expected = matrixLevenshtein(a, b);
        expect(levenshtein(a, b)).toBe(expected);
        expect(levenshtein(b, a)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe("similarity", () => {
  it("is 1 - distance / longest length, and 1 for two empty strings", () => {
    expect(similarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 10);
    expect(similarity("abc", "abc")).toBe(1);
    expect(similarity("abc", "xyz")).toBe(0);
    expect(similarity("", "")).toBe(1);
    expect(similarity("", "abc")).toBe(0);
  });
});
