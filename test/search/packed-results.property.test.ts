/**
 * Matching lines are packed as bytes where the search runs (a node search thread, the embedded search
 * worker, or right here) and become text only when unpacked. Whatever the files hold, what comes out
 * must be what a plain line-by-line reading of the file says: the line numbers, each line decoded on
 * its own, its ending, and where the pattern matched in UTF-16 offsets. And a batch of many files must
 * survive a structured clone with its buffers transferred.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PackedFilesWriter, unpackFiles } from "../../src/runtime/embedded/search-protocol.js";
import { compilePattern } from "../../src/search/matcher.js";
import { NewlineCounter } from "../../src/search/newlines.js";
import { decodePacked, unpackResults } from "../../src/search/packed-results.js";
import type { FileResult, SearchMatch } from "../../src/search/results.js";
import { findHits, searchBytes } from "../../src/search/search.js";

const encoder = new TextEncoder();
// Pieces of file content: ASCII, multi-byte and astral characters, a mid-file U+FEFF, CR and LF, and
// bytes that are not UTF-8 (a lone continuation byte, a truncated 3-byte sequence, an overlong form).
const piece = fc.constantFrom<number[]>(
  [...encoder.encode("ab")],
  [...encoder.encode("a")],
  [...encoder.encode("é")],
  [...encoder.encode("😀")],
  [...encoder.encode("\ufeff")],
  [...encoder.encode(" ")],
  [13],
  [10],
  [10],
  [97, 13, 10],
  [0x80],
  [0xe2, 0x82],
  [0xc0, 0xaf],
);
const content = fc.array(piece, { maxLength: 60, size: "medium" }).map((pieces) => Uint8Array.from(pieces.flat()));
// "a\r" matches into a CRLF terminator: its span must stop at the line's end.
const literal = fc.constantFrom("a", "ab", "é", "😀", "b a", "\ufeff", "a\r");

/** The reference: split at \n, decode each line alone, find the literal's non-overlapping occurrences. */
function naive(bytes: Uint8Array, needle: string, path: string): FileResult | undefined {
  const decode = (b: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);
  let data = bytes;
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
  const matches: SearchMatch[] = [];
  const needleBytes = encoder.encode(needle);
  let start = 0;
  for (let lineNumber = 1; start < data.length; lineNumber++) {
    let end = data.indexOf(10, start);
    const hasLf = end >= 0;
    if (!hasLf) end = data.length;
    const textEnd = end > start && data[end - 1] === 13 ? end - 1 : end;
    const spans: Array<[number, number]> = [];
    for (let at = start; at + needleBytes.length <= end; ) {
      if (needleBytes.every((b, k) => data[at + k] === b)) {
        spans.push([at - start, at - start + needleBytes.length]);
        at += needleBytes.length;
      } else at++;
    }
    if (spans.length > 0) {
      const line = decode(data.subarray(start, textEnd));
      const utf16 = (b: number) => Math.min(decode(data.subarray(start, start + Math.min(b, textEnd - start))).length, line.length);
      matches.push({
        path,
        displayPath: path,
        lineNumber,
        line,
        lineEnding: (textEnd < end ? "\r" : "") + (hasLf ? "\n" : ""),
        matches: spans.map(([s, e]) => ({ start: utf16(s), end: utf16(e) })),
      });
    }
    start = end + 1;
  }
  return matches.length > 0 ? { path, displayPath: path, matches } : undefined;
}

describe("packed search results say what a line-by-line reading says", () => {
  it("searchBytes (pack, then unpack) gives the naive reading's lines, numbers, endings and spans", () => {
    fc.assert(
      fc.property(content, literal, (bytes, needle) => {
        const matcher = compilePattern([needle.replace(/[.*+?()[\]{}|\\^$]/g, "\\$&")]);
        const file = { path: "f", displayPath: "f" };
        expect(searchBytes(matcher, file, bytes, "quit", true)).toEqual(naive(bytes, needle, "f"));
      }),
      { numRuns: 500 },
    );
  });

  it("a batch of files crosses a structured clone (both buffers transferred) unchanged", () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 8 }), literal, fc.boolean(), (files, needle, positions) => {
        const matcher = compilePattern([needle.replace(/[.*+?()[\]{}|\\^$]/g, "\\$&")]);
        const writer = new PackedFilesWriter();
        const expected: Array<{ seq: number; result: FileResult }> = [];
        files.forEach((bytes, k) => {
          const file = { path: `/w/${k}`, displayPath: `${k}` };
          const hits = findHits(matcher, bytes, "quit");
          if (!hits) return;
          expected.push({ seq: 10 * k, result: searchBytes(matcher, file, bytes, "quit", positions)! });
          writer.add(file, hits, 10 * k, matcher, positions);
        });
        const { batch, transferables } = writer.finish();
        // Decoded by the sender (as a node search thread does) or by the reader: the same results.
        const decoded = unpackResults(decodePacked(batch.packed), (index) => ({
          path: batch.names[2 * index]!,
          displayPath: batch.names[2 * index + 1]!,
        }));
        const sent = structuredClone(batch, { transfer: transferables });
        expect(batch.packed.bytes.byteLength).toBe(0);
        expect(unpackFiles(sent)).toEqual(expected);
        expect(decoded.map((item) => ({ seq: batch.seqs[item.index], result: item.result }))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("counting line feeds four bytes at a time", () => {
  it("agrees with a byte loop at every alignment and length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300, size: "max" }), fc.nat(7), fc.nat(300), fc.nat(300), (raw, shift, a, b) => {
        // The bytes at an offset inside a bigger buffer, as a node Buffer from the pool would be.
        const backing = new Uint8Array(raw.length + 16);
        const bytes = backing.subarray(shift, shift + raw.length);
        bytes.set(raw.map((x) => (x % 4 === 0 ? 10 : x)));
        const from = Math.min(a, b, bytes.length);
        const to = Math.min(Math.max(a, b), bytes.length);
        let expected = 0;
        for (let i = from; i < to; i++) if (bytes[i] === 10) expected++;
        expect(new NewlineCounter(bytes).count(from, to)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
