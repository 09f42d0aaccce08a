/**
 * For random small files and a random contiguous edit, a patch written from the edit (with enough
 * context to be unambiguous) plans to exactly the edited file, whatever its line endings and BOM.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePatch, planPatch } from "../../../src/tools/patch/index.js";
import { memoryIo } from "./helpers.js";

// Duplicates on purpose (so context matters), and lines that look like patch syntax once prefixed.
const LINE = fc.constantFrom("a", "b", "c", "", "  indented", "x = 1", "-dash", "+plus", "@@ at", " space", "'q'");

interface Edit {
  lines: string[];
  start: number;
  removed: number;
  added: string[];
}

const edits = fc
  .record({ lines: fc.array(LINE, { maxLength: 12 }), added: fc.array(LINE, { maxLength: 4 }), a: fc.nat(), b: fc.nat() })
  .map(({ lines, added, a, b }): Edit => {
    const start = a % (lines.length + 1);
    const removed = b % (lines.length - start + 1);
    return { lines, start, removed, added };
  })
  .filter((edit) => edit.removed + edit.added.length > 0);

const occursFirstAt = (lines: readonly string[], pattern: readonly string[], at: number): boolean => {
  for (let index = 0; index + pattern.length <= lines.length; index++) {
    if (pattern.every((line, offset) => lines[index + offset] === line)) return index === at;
  }
  return false;
};

/**
 * A one-chunk update patch for the edit, its context grown until the chunk's old lines occur first where
 * the edit is. Options: name the line above the chunk as `@@ context`; write a pure insertion as
 * `@@ <line above>` and `+` lines only (when that line is unique so far); mark `*** End of File`.
 */
function patchFor(edit: Edit, options: PatchOptions): string {
  const { lines, start, removed, added } = edit;
  const out = ["*** Begin Patch", "*** Update File: f.txt"];
  const end = () => {
    out.push("*** End Patch");
    return out.join(options.eol);
  };
  const above = lines[start - 1];
  if (
    options.insertAfterContext &&
    removed === 0 &&
    above !== undefined &&
    above.trim() !== "" &&
    occursFirstAt(lines, [above], start - 1)
  ) {
    out.push(`@@ ${above}`, ...added.map((line) => `+${line}`));
    return end();
  }
  let before = 0;
  let after = 0;
  for (;;) {
    const pattern = lines.slice(start - before, start + removed + after);
    if (pattern.length > 0 ? occursFirstAt(lines, pattern, start - before) : start === lines.length) break;
    const grown = before < start || start + removed + after < lines.length;
    // The whole file is unique by length; an empty file takes any insertion at its end.
    if (!grown) break;
    if (before < start) before++;
    if (start + removed + after < lines.length) after++;
  }
  const first = start - before;
  const patternEmpty = before + removed + after === 0;
  // The line above the chunk as `@@ context`: its first occurrence is at or above it, which is enough
  // for old lines found after it; a pure insertion goes right after it, so there it must be the first.
  const contextLine = options.useContextLine && first > 0 ? lines[first - 1] : undefined;
  const usable =
    contextLine !== undefined && contextLine.trim() !== "" && (!patternEmpty || occursFirstAt(lines, [contextLine], first - 1));
  out.push(usable ? `@@ ${contextLine}` : "@@");
  for (const line of lines.slice(first, start)) out.push(` ${line}`);
  for (const line of lines.slice(start, start + removed)) out.push(`-${line}`);
  for (const line of added) out.push(`+${line}`);
  for (const line of lines.slice(start + removed, start + removed + after)) out.push(` ${line}`);
  if (options.markEndOfFile && start + removed + after === lines.length) out.push("*** End of File");
  return end();
}

interface PatchOptions {
  useContextLine: boolean;
  insertAfterContext: boolean;
  markEndOfFile: boolean;
  eol: string;
}

describe("planPatch property", () => {
  it("a patch generated from a contiguous edit plans to exactly the edited file", async () => {
    await fc.assert(
      fc.asyncProperty(
        edits,
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.boolean(),
        async (edit, eol, finalNewline, bom, useContextLine, patchEol, markEndOfFile, insertAfterContext) => {
          // A last empty line with no newline after it is no line at all: the same text as one line fewer.
          fc.pre(finalNewline || edit.lines.at(-1) !== "");
          const body = edit.lines.map((line, index) => (index < edit.lines.length - 1 || finalNewline ? line + eol : line)).join("");
          const file = (bom ? "\uFEFF" : "") + body;
          const edited = [...edit.lines.slice(0, edit.start), ...edit.added, ...edit.lines.slice(edit.start + edit.removed)];
          // A file with no line endings yet gets LF lines.
          const newEol = edit.lines.length > 1 || (edit.lines.length === 1 && finalNewline) ? eol : "\n";
          const expected = (bom ? "\uFEFF" : "") + edited.map((line) => line + newEol).join("");

          const text = patchFor(edit, { useContextLine, insertAfterContext, markEndOfFile, eol: patchEol });
          const [change] = await planPatch(parsePatch(text), memoryIo({ "/ws/f.txt": file }).io);
          expect(change?.after).toBe(expected);
          expect(change?.before).toBe(file);
        },
      ),
      { numRuns: 600 },
    );
  });
});
