import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePattern, SearchPatternError } from "../../src/search/index.js";
import { contains } from "../../src/search/regex/ranges.js";
import { propertyRanges } from "../../src/search/regex/unicode.js";
import { utf8Sequences } from "../../src/search/regex/utf8.js";

const spans = (pattern: string, text: string, caseInsensitive = false) =>
  compilePattern([pattern], { caseInsensitive })
    .find(text)
    .map((m) => text.slice(m.start, m.end));

describe("regex dialect (Rust regex, as ripgrep 13)", () => {
  it("matches literals, classes, alternation and repetition leftmost-first", () => {
    expect(spans("foo", "a foo b foo")).toEqual(["foo", "foo"]);
    expect(spans("a|ab", "ab")).toEqual(["a"]);
    expect(spans("ab|a", "ab")).toEqual(["ab"]);
    expect(spans("a+", "baaac")).toEqual(["aaa"]);
    expect(spans("a+?", "aaa")).toEqual(["a", "a", "a"]);
    expect(spans("(?U)a+", "aaa")).toEqual(["a", "a", "a"]);
    expect(spans("x{2,3}", "xxxxx")).toEqual(["xxx", "xx"]);
    expect(spans("[[:digit:]]+", "ab 123 c4")).toEqual(["123", "4"]);
    expect(spans("[a-z&&[^aeiou]]+", "hello")).toEqual(["h", "ll"]);
  });

  it("has line anchors and word boundaries", () => {
    expect(compilePattern(["^foo"]).test("foo bar")).toBe(true);
    expect(compilePattern(["^foo"]).test("a foo")).toBe(false);
    expect(compilePattern(["bar$"]).test("foo bar")).toBe(true);
    expect(compilePattern(["\\bfoo\\b"]).test("a foo b")).toBe(true);
    expect(compilePattern(["\\bfoo\\b"]).test("afoo b")).toBe(false);
    expect(compilePattern(["\\bnaïve\\b"]).test("café naïve")).toBe(true);
    expect(compilePattern(["a\\b"]).test("aé")).toBe(false);
    expect(compilePattern(["(?-u:a\\b)"]).test("aé")).toBe(true);
  });

  it("supports inline flags, Unicode classes and case folding", () => {
    expect(compilePattern(["(?i)hello"]).test("HeLLo")).toBe(true);
    expect(compilePattern(["hello"], { caseInsensitive: true }).test("HELLO")).toBe(true);
    expect(spans("\\p{Greek}+", "abc αβγ def")).toEqual(["αβγ"]);
    expect(spans("\\p{sc=Greek}", "a\u0342b")).toEqual([]);
    expect(spans("\\p{Greek}", "a\u0342b")).toEqual(["\u0342"]);
    expect(spans("σ", "ΣσςS", true)).toEqual(["Σ", "σ", "ς"]);
    expect(compilePattern(["k"], { caseInsensitive: true }).test("\u212a")).toBe(true);
    expect(compilePattern(["i"], { caseInsensitive: true }).test("ı")).toBe(false);
    expect(spans("\\w+", "naïve café")).toEqual(["naïve", "café"]);
    expect(spans("\\d", "x٣y")).toEqual(["٣"]);
  });

  it("reports UTF-16 offsets in strings", () => {
    const text = "😀 café é";
    const found = compilePattern(["é"]).find(text);
    expect(found.map((m) => text.slice(m.start, m.end))).toEqual(["é", "é"]);
    expect(found[0]).toEqual({ start: 6, end: 7 });
  });

  it("rejects what ripgrep's engine does not support, with its wording", () => {
    const reason = (p: string) => {
      try {
        compilePattern([p]);
      } catch (error) {
        expect(error).toBeInstanceOf(SearchPatternError);
        return (error as SearchPatternError).reason;
      }
      return "no error";
    };
    expect(reason("a(?=b)")).toBe("look-around, including look-ahead and look-behind, is not supported");
    expect(reason("(?<!a)b")).toBe("look-around, including look-ahead and look-behind, is not supported");
    expect(reason("(a)\\1")).toBe("backreferences are not supported");
    expect(reason("(foo")).toBe("unclosed group");
    expect(reason("foo)")).toBe("unopened group");
    expect(reason("*a")).toBe("repetition operator missing expression");
    expect(reason("x{2,1}")).toBe("invalid repetition count range, the start must be <= the end");
    expect(reason("\\p{Foo}")).toBe("Unicode property not found");
    expect(reason("\\/")).toBe("unrecognized escape sequence");
    expect(reason("a\\nb")).toBe("the literal '\"\\n\"' is not allowed in a regex");
    const error = (() => {
      try {
        compilePattern(["(foo"]);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toBe("regex parse error:\n    (foo\n    ^\nerror: unclosed group");
  });

  it("joins several patterns with | as rg -e does", () => {
    const m = compilePattern(["foo", "bar"]);
    expect(m.pattern).toBe("foo|bar");
    expect(m.test("a bar")).toBe(true);
  });

  it("encodes code point ranges as UTF-8 byte sequences", () => {
    expect(utf8Sequences(0, 0x7f)).toEqual([[[0, 0x7f]]]);
    expect(utf8Sequences(0x80, 0x7ff)).toEqual([
      [
        [0xc2, 0xdf],
        [0x80, 0xbf],
      ],
    ]);
    expect(utf8Sequences(0x10000, 0x10ffff)).toEqual([
      [
        [0xf0, 0xf0],
        [0x90, 0xbf],
        [0x80, 0xbf],
        [0x80, 0xbf],
      ],
      [
        [0xf1, 0xf3],
        [0x80, 0xbf],
        [0x80, 0xbf],
        [0x80, 0xbf],
      ],
      [
        [0xf4, 0xf4],
        [0x80, 0x8f],
        [0x80, 0xbf],
        [0x80, 0xbf],
      ],
    ]);
  });
});

describe("Unicode property tables", () => {
  it("agree with the engine's \\p{...} over every plane", () => {
    for (const property of [
      "General_Category=Private_Use",
      "General_Category=Unassigned",
      "Noncharacter_Code_Point",
      "Script_Extensions=Greek",
      "Variation_Selector",
    ]) {
      const ranges = propertyRanges(property);
      const re = new RegExp(`^\\p{${property}}$`, "u");
      let mismatches = 0;
      for (let cp = 0; cp <= 0x10ffff; cp += cp > 0x40000 && cp < 0xe0000 ? 251 : 3) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        if (re.test(String.fromCodePoint(cp)) !== contains(ranges, cp)) mismatches++;
      }
      expect({ property, mismatches }).toEqual({ property, mismatches: 0 });
    }
  });
});

describe("linear time", () => {
  const pathological: Array<[string, string]> = [
    ["(a+)+$", `${"a".repeat(100_000)}b`],
    ["(a|aa)+$", `${"a".repeat(50_000)}b`],
    ["(x+x+)+y", "x".repeat(100_000)],
    ["(.*a){12}", "a".repeat(20_000)],
    ["^(\\w+\\s?)*$", `${"word ".repeat(20_000)}!`],
  ];
  for (const [pattern, text] of pathological) {
    it(`finishes ${pattern} on ${text.length} characters`, () => {
      const m = compilePattern([pattern]);
      // Completing at all is the point: a backtracking engine would not, in any reasonable time.
      expect(typeof m.test(text)).toBe("boolean");
      expect(Array.isArray(m.find(text))).toBe(true);
    });
  }
});

describe("the lazy DFA", () => {
  it("agrees with the Pike VM when its state cache overflows and is rebuilt", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    // (a|b)*a(a|b){14} needs about 2^15 DFA states: more than the cache holds.
    const m = compilePattern(["(a|b)*a(a|b){14}c"]);
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      let line = "";
      const n = 20 + Math.floor(random() * 200);
      for (let k = 0; k < n; k++) line += random() < 0.5 ? "a" : random() < 0.95 ? "b" : "c";
      lines.push(line);
    }
    const expected = lines.map((line) => m.find(line).length > 0);
    expect(lines.map((line) => m.test(line))).toEqual(expected);
    const bytes = new TextEncoder().encode(lines.join("\n"));
    const starts: number[] = [];
    m.forEachMatchingLine(bytes, 0, bytes.length, (start) => void starts.push(start));
    expect(starts.length).toBe(expected.filter(Boolean).length);
  });
});

describe("agrees with JavaScript's RegExp where the dialects agree", () => {
  // Small patterns over a two-letter alphabet: both engines are leftmost-first here.
  const atom = fc.constantFrom("a", "b", ".", "[ab]", "[^a]", "(?:a|b)", "(?:ab|a)", "(?:a|ab)");
  const quantified = fc.tuple(atom, fc.constantFrom("", "", "*", "+", "?", "{1,2}", "*?", "+?")).map(([a, q]) => a + q);
  const pattern = fc
    .array(quantified, { minLength: 1, maxLength: 4 })
    .chain((parts) => fc.constantFrom("", "^").chain((pre) => fc.constantFrom("", "$").map((post) => pre + parts.join("") + post)));
  const text = fc.stringMatching(/^[abc]{0,12}$/);

  it("finds the same first match and the same yes/no", () => {
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        const ours = compilePattern([p]);
        const theirs = new RegExp(p);
        const m = theirs.exec(t);
        expect(ours.test(t)).toBe(m !== null);
        const first = ours.find(t)[0];
        if (m) expect(first).toEqual({ start: m.index, end: m.index + m[0].length });
        else expect(first).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });
});
