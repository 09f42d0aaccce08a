/**
 * Long literal patterns (issue 15, item 10): a 100,000-character literal compiles and finds the same
 * lines and spans as real ripgrep on the same file, near misses included; the literal scan gives the
 * same answers as a naive scan whatever the text (its linear fallback included); and a pattern over
 * the bound fails with a clear error. Time is measured in bench/search-long-pattern.ts, not here.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeSearchFs } from "../../src/runtime/node/search-fs.js";
import { compilePattern, MAX_PATTERN_LENGTH, search, SearchPatternError } from "../../src/search/index.js";
import type { Lit } from "../../src/search/regex/lit.js";
import { LiteralFinder } from "../../src/search/regex/literals.js";
import { LinearLiteral } from "../../src/search/regex/linear-literal.js";

const RG = "/usr/bin/rg";

/** A deterministic pseudo-random lowercase text. */
function letters(length: number, seed: number): string {
  let out = "";
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out += String.fromCharCode(97 + (state % 26));
  }
  return out;
}

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "wb-long-pattern-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What rg says: `line:column` of each match (`--vimgrep` prints one row per match). */
function rgMatches(patternFile: string, file: string, caseInsensitive: boolean): string[] {
  const args = ["--vimgrep", "--no-heading", "-f", patternFile, file];
  if (caseInsensitive) args.unshift("-i");
  const result = spawnSync(RG, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  expect(result.status === 0 || result.status === 1, result.stderr).toBe(true);
  return result.stdout
    .split("\n")
    .filter((row) => row !== "")
    .map((row) =>
      row
        .slice(file.length + 1)
        .split(":")
        .slice(0, 2)
        .join(":"),
    );
}

async function ourMatches(pattern: string, file: string, caseInsensitive: boolean): Promise<string[]> {
  const rows: string[] = [];
  for await (const match of search(createNodeSearchFs(), { root: dir, paths: [file], patterns: [pattern], caseInsensitive })) {
    // rg's column is 1-based and counts bytes; every text here is ASCII, so characters are bytes.
    for (const span of match.matches) rows.push(`${match.lineNumber}:${span.start + 1}`);
  }
  return rows;
}

describe("a 100,000-character literal pattern", () => {
  const literal = letters(100_000, 11);
  const text = [
    "nothing here",
    literal,
    `prefix ${literal} suffix ${literal}`,
    literal.slice(0, -1),
    literal.slice(1),
    `${literal.slice(0, 50_000)}X${literal.slice(50_001)}`,
    literal.toUpperCase(),
    "",
  ].join("\n");

  for (const caseInsensitive of [false, true]) {
    it(`finds the same lines and columns as rg${caseInsensitive ? " (-i)" : ""}`, async () => {
      const patternFile = join(dir, "pattern.txt");
      const file = join(dir, `text-${caseInsensitive}.txt`);
      writeFileSync(patternFile, literal);
      writeFileSync(file, text);
      const expected = rgMatches(patternFile, file, caseInsensitive);
      // An independent floor under the oracle: line 2, and twice on line 3, at least.
      expect(expected).toEqual(expect.arrayContaining(["2:1", "3:8", `3:${8 + literal.length + 8}`]));
      expect(await ourMatches(literal, file, caseInsensitive)).toEqual(expected);
    });
  }

  it("finds one among long runs of near misses (where verifying each candidate would cost the whole literal)", async () => {
    // rg itself is quadratic here (over 100 s at this size), so the expectation is worked out: six
    // runs of 99,999 a's each cut by a b, then the 100,000 a's that match, at byte 600,000.
    const file = join(dir, "near-misses.txt");
    const runs = `${"a".repeat(99_999)}b`;
    writeFileSync(file, `${runs.repeat(6)}${"a".repeat(100_000)}\n${runs}\n`);
    expect(await ourMatches("a".repeat(100_000), file, false)).toEqual(["1:600001"]);
  });

  it("agrees with rg on near misses at a size rg handles", async () => {
    const file = join(dir, "near-misses-small.txt");
    const patternFile = join(dir, "runs.txt");
    const runs = `${"a".repeat(1_999)}b`;
    writeFileSync(patternFile, "a".repeat(2_000));
    writeFileSync(file, `${runs.repeat(6)}${"a".repeat(4_100)}\n${runs}\n${"A".repeat(2_000)}\n`);
    for (const caseInsensitive of [false, true]) {
      const expected = rgMatches(patternFile, file, caseInsensitive);
      expect(expected.length).toBe(caseInsensitive ? 3 : 2);
      expect(await ourMatches("a".repeat(2_000), file, caseInsensitive)).toEqual(expected);
    }
  });
});

describe("the literal scan", () => {
  /** Every start where `lit` occurs in buf[from, end), naively. */
  const naiveFirst = (buf: Uint8Array, from: number, end: number, lits: Lit[]): number => {
    for (let p = from; p < end; p++) {
      for (const lit of lits) {
        if (p + lit.length <= end && lit.every((set, k) => set.includes(buf[p + k]!))) return p;
      }
    }
    return -1;
  };
  const toLit = (text: string, fold: boolean): Lit =>
    [...text].map((c) =>
      fold && c.toLowerCase() !== c.toUpperCase() ? [c.toLowerCase().charCodeAt(0), c.toUpperCase().charCodeAt(0)] : [c.charCodeAt(0)],
    );
  const small = fc.stringMatching(/^[abAB]{1,12}$/);

  it("agrees with a naive scan on texts full of near misses, whichever way it scans", () => {
    fc.assert(
      fc.property(
        fc.array(small, { minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[abAB]{0,200}$/),
        fc.boolean(),
        fc.nat(20),
        (words, text, fold, from) => {
          const lits = words.map((word) => toLit(word, fold));
          const buf = new TextEncoder().encode(text);
          const finder = new LiteralFinder(lits);
          const start = Math.min(from, buf.length);
          const expected = naiveFirst(buf, start, buf.length, lits);
          expect(finder.find(buf, start, buf.length)).toBe(expected);
          const span = finder.findSpan(buf, start, buf.length);
          expect(span?.[0] ?? -1).toBe(expected);
          if (lits.length === 1) expect(LinearLiteral.of(lits[0]!)!.find(buf, start, buf.length)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("agrees with a naive scan where verifying runs long and the linear scan takes over (runs of one letter)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 6, max: 30 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 8, maxLength: 40 }),
        fc.boolean(),
        (length, runs, fold) => {
          // Every window ends in an `a`, so each is verified, at a cost of up to the whole literal.
          const lit = toLit("a".repeat(length), fold);
          const text = runs.map((run) => `${(run % 5 === 0 ? "A" : "a").repeat(run)}${run % 3 === 0 ? "B" : "b"}`).join("");
          const buf = new TextEncoder().encode(text);
          for (const from of [0, 3]) {
            const expected = naiveFirst(buf, from, buf.length, [lit]);
            expect(new LiteralFinder([lit]).find(buf, from, buf.length)).toBe(expected);
            expect(new LiteralFinder([lit]).findSpan(buf, from, buf.length)?.[0] ?? -1).toBe(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("has no linear form for byte sets that overlap without being equal", () => {
    expect(
      LinearLiteral.of([
        [97, 98],
        [98, 99],
      ]),
    ).toBeNull();
    expect(LinearLiteral.of([[97, 65], [65, 97], [98]])).not.toBeNull();
  });
});

describe("the bound on pattern length", () => {
  it(`compiles a pattern of ${MAX_PATTERN_LENGTH.toLocaleString("en-US")} characters and refuses one more, saying the limit`, () => {
    const atLimit = letters(MAX_PATTERN_LENGTH, 5);
    expect(compilePattern([atLimit]).test(`x${atLimit}y`)).toBe(true);
    let error: unknown;
    try {
      compilePattern([`${atLimit}z`]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SearchPatternError);
    const message = (error as Error).message;
    expect(message).toContain("1,000,001 characters");
    expect(message).toContain("limit is 1,000,000");
    expect(message.length).toBeLessThan(300);
  });

  it("counts the patterns joined, as several -e are", () => {
    const half = letters(MAX_PATTERN_LENGTH / 2, 9);
    expect(() => compilePattern([half, half])).toThrow(/1,000,001 characters/);
  });
});
