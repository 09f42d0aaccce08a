/**
 * Properties of the text a file tool edits: decoding then encoding gives every byte back, whatever the bytes
 * (not UTF-8, lone CRs, BOMs); replacing one line changes only that line's bytes, its ending and every other
 * line kept. Expectations are built from the bytes directly, not from the code under test.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBytes, decodeText, displayText, encodeBytes, encodeText } from "../../../src/tools/files/text-file.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const concat = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));
const ascii = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

// Bytes biased toward what breaks decoders: high bytes, UTF-8 lead and continuation bytes, a BOM's bytes.
const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x80, 0xbf, 0xc3, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xff, 0xa9, 0xbb));
const lineContent = fc
  .array(
    byte.filter((b) => b !== 0x0a && b !== 0x0d),
    { maxLength: 12 },
  )
  .map((bytes) => Uint8Array.from(bytes));
const ending = fc.constantFrom("\n", "\r\n");
const fileLines = fc.array(fc.record({ content: lineContent, ending }), { minLength: 1, maxLength: 8 });

describe("text file, property-based", () => {
  it("gives back every byte of any file when nothing is edited", () => {
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 64 }), (list) => {
        const bytes = Uint8Array.from(list);
        const file = decodeText(bytes);
        expect(hex(encodeText(file, file.text))).toBe(hex(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it("decodes valid UTF-8 exactly as TextDecoder does, escaping nothing", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
        const bytes = new TextEncoder().encode(text);
        const decoded = decodeBytes(bytes);
        expect(decoded.undecodable).toBe(0);
        expect(decoded.text).toBe(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
        expect(hex(encodeBytes(decoded.text))).toBe(hex(bytes));
      }),
    );
  });

  it("replacing one line changes that line's bytes only, and keeps its ending", () => {
    fc.assert(
      fc.property(
        fileLines,
        fc.boolean(),
        fc.nat(),
        fc.string({ unit: fc.constantFrom("x", "y", " ", "é", "€"), maxLength: 6 }),
        (lines, lastEnds, pick, replacement) => {
          const parts = lines.map(({ content, ending }, i) =>
            i === lines.length - 1 && !lastEnds ? content : concat([content, ascii(ending)]),
          );
          const bytes = concat(parts);
          const index = pick % lines.length;
          const file = decodeText(bytes);
          const edited = file.text.split("\n");
          expect(edited).toHaveLength(lines.length + (lastEnds ? 1 : 0));
          edited[index] = replacement;
          const expected = concat(
            parts.map((part, i) => {
              if (i !== index) return part;
              const kept = i === lines.length - 1 && !lastEnds ? "" : lines[i]!.ending;
              // A byte order mark belongs to the file, not to its first line: it stays.
              const bom = i === 0 && hex(part.subarray(0, 3)) === "efbbbf" ? Uint8Array.of(0xef, 0xbb, 0xbf) : new Uint8Array();
              return concat([bom, new TextEncoder().encode(replacement), ascii(kept)]);
            }),
          );
          expect(hex(encodeText(file, edited.join("\n")))).toBe(hex(expected));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("shows escaped bytes as U+FFFD, as read shows them", () => {
    const file = decodeText(Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(file.undecodable).toBe(1);
    expect(displayText(file.text)).toBe("caf\uFFFD\n");
  });
});
