/**
 * Properties of `replace` over random text: an exact unique match is a plain splice, replaceAll is a
 * literal split/join, and nothing but an EditMatchError ever comes out, under either policy.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EditMatchError, replace } from "../../../src/tools/edit/index.js";

// Small alphabets make matches, near matches, repeats and ambiguity common.
const unit = fc.constantFrom("a", "b", "c", " ", "  ", "\t", "\n", "\\", "\\n", '"', "'", "$", "&", "{", "}", ";");
const text = (maxLength: number) => fc.string({ unit, maxLength });

function count(haystack: string, needle: string): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found++;
  return found;
}

describe("replace, property-based", () => {
  it("splices newString in place of an exact oldString that occurs once, like String.replace with a function", () => {
    fc.assert(
      fc.property(
        text(40),
        fc.string({ unit, minLength: 1, maxLength: 12 }),
        text(40),
        text(16),
        fc.constantFrom("safe", "seed"),
        (before, old, after, replacement, policy) => {
          const content = before + old + after;
          fc.pre(count(content, old) === 1 && replacement !== old);
          const result = replace(content, old, replacement, { policy });
          expect(result.content).toBe(content.replace(old, () => replacement));
          expect(result).toMatchObject({ strategy: "Simple", fuzzy: false, occurrences: 1 });
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("replaces every exact occurrence literally with replaceAll, as split/join does", () => {
    fc.assert(
      fc.property(text(60), fc.string({ unit, minLength: 1, maxLength: 4 }), text(10), (content, old, replacement) => {
        fc.pre(content.includes(old) && replacement !== old);
        const result = replace(content, old, replacement, { replaceAll: true });
        expect(result.content).toBe(content.split(old).join(replacement));
        expect(result.occurrences).toBe(content.split(old).length - 1);
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws anything but an EditMatchError, and always returns, on random input", () => {
    fc.assert(
      fc.property(
        text(80),
        text(24),
        text(24),
        fc.boolean(),
        fc.constantFrom("safe", "seed"),
        (content, old, replacement, replaceAll, policy) => {
          try {
            const result = replace(content, old, replacement, { replaceAll, policy });
            expect(typeof result.content).toBe("string");
            expect(result.occurrences).toBeGreaterThanOrEqual(1);
            expect(result.startLine).toBeLessThanOrEqual(result.endLine);
          } catch (error) {
            expect(error).toBeInstanceOf(EditMatchError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("never throws anything but an EditMatchError on oldStrings cut from the content and mangled", () => {
    const mangle = fc.constantFrom(
      (s: string) => s.replace(/^[ \t]+/gm, ""),
      (s: string) => s.replace(/^/gm, "  "),
      (s: string) => s.replace(/\n/g, " \n"),
      (s: string) => s.replace(/"/g, '\\"'),
      (s: string) => s.replace(/\n/g, "\\n"),
      (s: string) => `${s}\n`,
      (s: string) => s.replace(/ +/g, " "),
    );
    fc.assert(
      fc.property(
        text(120),
        fc.nat(),
        fc.nat(),
        mangle,
        text(20),
        fc.constantFrom("safe", "seed"),
        (content, a, b, change, replacement, policy) => {
          const start = content.length === 0 ? 0 : a % content.length;
          const old = change(content.slice(start, start + 1 + (b % 40)));
          try {
            replace(content, old, replacement, { policy });
          } catch (error) {
            expect(error).toBeInstanceOf(EditMatchError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
