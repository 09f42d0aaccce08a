/**
 * The search worker packs each batch of results into one text and one number array before it crosses
 * the port; whatever the results hold, the page must get back exactly what the worker found.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packFiles, unpackFiles } from "../../src/runtime/embedded/search-protocol.js";
import type { FileResult } from "../../src/search/search.js";

// Lines never contain "\n" (it ends them) but may hold a lone "\r", NULs, astral characters and U+FFFD.
const lineText = fc.string({ unit: fc.constantFrom("a", "é", "\r", "\u0000", "😀", "\ufffd", " ", "\t", "<b>"), maxLength: 12 });

const file: fc.Arbitrary<FileResult> = fc
  .record({
    path: fc.string({ minLength: 1, maxLength: 6 }),
    lines: fc.array(
      fc.record({
        lineNumber: fc.integer({ min: 1, max: 2 ** 40 }),
        line: lineText,
        lineEnding: fc.constantFrom("\n", "\r\n", "\r", ""),
        spans: fc.array(fc.record({ start: fc.nat(50), end: fc.nat(50) }), { maxLength: 3 }),
      }),
      { maxLength: 5 },
    ),
    binary: fc.option(fc.record({ offset: fc.nat(1e9), stopped: fc.boolean() }), { nil: undefined }),
  })
  .map(({ path, lines, binary }) => {
    const displayPath = `./${path}`;
    const result: FileResult = {
      path,
      displayPath,
      matches: lines.map((l) => ({ path, displayPath, lineNumber: l.lineNumber, line: l.line, lineEnding: l.lineEnding, matches: l.spans })),
    };
    if (binary) result.binary = { path, displayPath, ...binary };
    return result;
  });

describe("search results cross the worker boundary unchanged", () => {
  it("unpack(pack(files)) equals files, through a structured clone with the numbers transferred", () => {
    fc.assert(
      fc.property(fc.array(file, { maxLength: 8 }), (files) => {
        const packed = packFiles(files);
        const sent = structuredClone(packed, { transfer: [packed.packed.numbers.buffer] });
        expect(unpackFiles(sent)).toEqual(files);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a line ending it cannot represent instead of sending a wrong one", () => {
    const bad: FileResult = { path: "a", displayPath: "a", matches: [{ path: "a", displayPath: "a", lineNumber: 1, line: "x", lineEnding: "\n\n", matches: [] }] };
    expect(() => packFiles([bad])).toThrow(/unexpected line ending/);
  });
});
