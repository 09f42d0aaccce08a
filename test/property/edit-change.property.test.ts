/**
 * Properties of the edit engine's "apply the change" rule: an unmangled oldString is a plain string
 * replace; a re-indented oldString changes exactly the lines the model changed and keeps every other line
 * of the file byte for byte; fileDiff's shortcut gives the whole-text diff's counts.
 */
import { createTwoFilesPatch, diffLines } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replace } from "../../src/tools/edit/index.js";
import { fileDiff, trimDiff } from "../../src/tools/files/diff.js";

// Distinct lines (a counter in each), so a block of the file occurs once.
const word = fc.constantFrom("alpha", "beta", "gamma", "(x)", '"q"', "'s'", "\\n", "=", "{", "}", ";", "’", "—");
const body = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
const indent = fc.constantFrom("", "  ", "    ", "\t", "\t\t");
const fileLines = fc
  .array(fc.tuple(indent, body), { minLength: 3, maxLength: 20 })
  .map((lines) => lines.map(([i, b], k) => `${i}${b} #${k}`));

describe("edit engine, property-based", () => {
  it("an edit whose oldString is an unmangled block of the file equals the plain string replace", () => {
    fc.assert(
      fc.property(fileLines, fc.nat(), fc.nat(), body, (lines, a, b, replacement) => {
        const start = a % lines.length;
        const end = start + 1 + (b % (lines.length - start));
        const content = `${lines.join("\n")}\n`;
        const oldString = lines.slice(start, end).join("\n");
        fc.pre(replacement !== oldString);
        const result = replace(content, oldString, replacement);
        expect(result.content).toBe(content.replace(oldString, () => replacement));
        expect(result.fuzzy).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it("a block quoted at another depth gets the model's one-line change, and every other line stays the file's", () => {
    fc.assert(
      fc.property(fileLines, fc.nat(), fc.nat(), fc.nat(), fc.constantFrom("  ", "\t"), (lines, a, b, c, extra) => {
        const start = a % lines.length;
        const end = Math.min(lines.length, start + 2 + (b % 4));
        fc.pre(end - start >= 2);
        const block = lines.slice(start, end);
        const k = c % block.length;
        const content = `${lines.join("\n")}\n`;
        const view = block.map((line) => extra + line);
        const changed = [...view];
        changed[k] = `${changed[k]} // changed`;
        const result = replace(content, view.join("\n"), changed.join("\n"));
        const expected = [...lines];
        expected[start + k] = `${lines[start + k]} // changed`;
        expect(result.content).toBe(`${expected.join("\n")}\n`);
      }),
      { numRuns: 400 },
    );
  });

  it("fileDiff counts what a diff of the whole texts counts", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", "", "d e"), { maxLength: 30 }),
        fc.array(fc.constantFrom("a", "b", "c", "", "x"), { maxLength: 30 }),
        (before, after) => {
          const [x, y] = [before.join("\n"), after.join("\n")];
          let additions = 0;
          let deletions = 0;
          for (const part of diffLines(x, y)) {
            if (part.added) additions += part.count;
            else if (part.removed) deletions += part.count;
          }
          expect(fileDiff("f", "f", x, y)).toMatchObject({ additions, deletions });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("fileDiff of distinct lines is the whole-text unified diff (hunk line numbers included)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.nat(),
        fc.nat(),
        fc.array(fc.constantFrom("new", "other"), { maxLength: 4 }),
        fc.boolean(),
        (size, a, b, added, newline) => {
          const lines = Array.from({ length: size }, (_, i) => `line ${i}`);
          const start = a % size;
          const removed = b % Math.min(4, size - start + 1);
          const changed = [...lines.slice(0, start), ...added.map((w, i) => `${w} ${i}`), ...lines.slice(start + removed)];
          const [x, y] = [lines.join("\n") + (newline ? "\n" : ""), changed.join("\n") + (newline ? "\n" : "")];
          expect(fileDiff("f", "f", x, y).diff).toBe(trimDiff(createTwoFilesPatch("f", "f", x, y)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
