/** The allocation-free byte counter must agree with TextEncoder on every string, lone surrogates included. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countNewlines, utf8Length } from "../../../src/tools/truncation/utf8.js";

const anyText = fc
  .array(fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("\ud83d", "\ude00", "\n", "é", "中")), { maxLength: 20 })
  .map((parts) => parts.join(""));

describe("utf8Length", () => {
  it("equals TextEncoder's byte length", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(anyText, (text) => {
        expect(utf8Length(text)).toBe(encoder.encode(text).length);
      }),
      { numRuns: 2_000 },
    );
  });

  it("counts newlines like split does", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(countNewlines(text) + 1).toBe(text.split("\n").length);
      }),
    );
  });
});
