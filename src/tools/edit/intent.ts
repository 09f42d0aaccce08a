/**
 * Apply the change, not the pasted text. When oldString matched only loosely, newString repeats the model's
 * picture of the block: its escapes, its straight quotes where the file has typographic ones, its spacing,
 * a line it misremembered. Writing newString over the match would write those mistakes into the file. So
 * the change is taken as the difference between oldString and newString (line by line, then within the
 * lines that were edited), and made on the file's own lines: a line the model left as it was keeps the
 * file's text; an edited line keeps the file's text except where the model edited it; a new line is
 * re-indented to the file. Where the change rewrites a line the model did not quote correctly, or a line
 * that has no counterpart in the file, it cannot be made without guessing, and is refused.
 */
import { diffArrays, diffChars } from "diff";
import { misrememberedError } from "./errors.js";
import { similarity } from "./levenshtein.js";
import { isBlank, leadingWhitespace } from "./lines.js";
import { adaptNewString } from "./reindent.js";
import { normalizePunctuation } from "./punctuation.js";
import { unescapeString } from "./replacers/escape-normalized.js";
import type { DifferingLine, ReplacerName } from "./types.js";

export type { DifferingLine };

export interface AppliedChange {
  /** The text that replaces the matched span. */
  readonly replacement: string;
  readonly differing: readonly DifferingLine[];
}

/** Lines of an edit paired for a within-line change when at least this similar. */
const PAIRED_SIMILARITY = 0.5;
/** Longer lines are not diffed character by character; their new text is taken as written. */
const LONGEST_CHAR_DIFF = 4000;
/**
 * Line diffs give up past this many differing lines (a huge oldString or newString that differs
 * everywhere would otherwise cost lines x differences): the fallbacks pair lines by position.
 */
const MAX_LINE_EDITS = 2000;

type LinePart = { readonly added?: boolean; readonly removed?: boolean; readonly count: number };

/** `diffArrays`, or when that would cost too much, everything removed and then everything added. */
function lineDiff(a: readonly string[], b: readonly string[]): LinePart[] {
  const parts = diffArrays([...a], [...b], { maxEditLength: MAX_LINE_EDITS });
  if (parts) return parts;
  return [
    { removed: true, count: a.length },
    { added: true, count: b.length },
  ].filter((part) => part.count > 0);
}

function resembles(before: string, after: string): boolean {
  if (before === "" || after === "") return false;
  return after.includes(before) || before.includes(after) || similarity(before, after) >= PAIRED_SIMILARITY;
}

/** What a line says once whitespace runs, escapes and typographic punctuation no longer count. */
function key(line: string): string {
  return normalizePunctuation(unescapeString(line)).replace(/\s+/g, " ").trim();
}

type Status = "same" | "differs" | "absent";

interface Alignment {
  /** For each model line, the index of its file line, or -1. */
  readonly fileOf: number[];
  readonly status: Status[];
}

/**
 * Pairs oldString's lines with the span's: lines equal by `key` pair in order; between them, the non-blank
 * lines left on both sides pair by position when there are as many on each side (lines the model
 * misremembered), and otherwise have no counterpart. Blank lines the file has and oldString lacks (or the
 * other way round) pair with nothing.
 */
function align(model: readonly string[], file: readonly string[]): Alignment {
  const fileOf = model.map(() => -1);
  const status: Status[] = model.map(() => "absent");
  const modelKeys = model.map(key);
  const fileKeys = file.map(key);
  let m = 0;
  let f = 0;
  let pendingModel: number[] = [];
  let pendingFile: number[] = [];
  const settle = () => {
    const modelLines = pendingModel.filter((i) => !isBlank(model[i]!));
    const fileLines = pendingFile.filter((j) => !isBlank(file[j]!));
    if (modelLines.length === fileLines.length) {
      modelLines.forEach((i, k) => {
        fileOf[i] = fileLines[k]!;
        status[i] = "differs";
      });
    }
    pendingModel = [];
    pendingFile = [];
  };
  for (const part of lineDiff(modelKeys, fileKeys)) {
    if (part.removed) {
      for (let k = 0; k < part.count; k++) pendingModel.push(m++);
    } else if (part.added) {
      for (let k = 0; k < part.count; k++) pendingFile.push(f++);
    } else {
      settle();
      for (let k = 0; k < part.count; k++, m++, f++) {
        fileOf[m] = f;
        status[m] = "same";
      }
    }
  }
  settle();
  return { fileOf, status };
}

interface Segment {
  readonly oStart: number;
  readonly oEnd: number;
  readonly fStart: number;
  readonly fEnd: number;
  readonly equal: boolean;
}

/**
 * The model's edit of one line (`before` to `after`) made on the file's version of it (`file`), which says
 * the same with other escapes, quotes or spacing. The edit's ends are carried over through an alignment of
 * `before` with `file`; an end that falls inside a stretch the two write differently widens the edit to
 * the whole stretch, which then takes the model's text.
 */
function carryLineChange(before: string, after: string, file: string): string {
  if (before === file) return after;
  if (before.length > LONGEST_CHAR_DIFF || after.length > LONGEST_CHAR_DIFF || file.length > LONGEST_CHAR_DIFF) return after;
  const segments: Segment[] = [];
  let o = 0;
  let f = 0;
  for (const part of diffChars(before, file)) {
    const last = segments[segments.length - 1];
    if (part.added || part.removed) {
      const oLength = part.removed ? part.count : 0;
      const fLength = part.added ? part.count : 0;
      if (last && !last.equal) segments[segments.length - 1] = { ...last, oEnd: last.oEnd + oLength, fEnd: last.fEnd + fLength };
      else segments.push({ oStart: o, oEnd: o + oLength, fStart: f, fEnd: f + fLength, equal: false });
      o += oLength;
      f += fLength;
    } else {
      segments.push({ oStart: o, oEnd: o + part.count, fStart: f, fEnd: f + part.count, equal: true });
      o += part.count;
      f += part.count;
    }
  }
  const locate = (p: number, atEnd: boolean): { file: number; model: number } => {
    for (const segment of segments) {
      if (p < segment.oStart || p > segment.oEnd) continue;
      if (segment.equal) return { file: segment.fStart + (p - segment.oStart), model: p };
      if (p === segment.oStart && !atEnd) return { file: segment.fStart, model: p };
      if (p === segment.oEnd && atEnd) return { file: segment.fEnd, model: p };
      if (p === segment.oStart) return { file: segment.fStart, model: p };
      if (p === segment.oEnd) return { file: segment.fEnd, model: p };
      return atEnd ? { file: segment.fEnd, model: segment.oEnd } : { file: segment.fStart, model: segment.oStart };
    }
    return { file: file.length, model: before.length };
  };

  // The model's edits, in `before`'s coordinates, each with its new text.
  const edits: Array<{ start: number; end: number; text: string }> = [];
  let at = 0;
  for (const part of diffChars(before, after)) {
    if (part.added || part.removed) {
      const previous = edits[edits.length - 1];
      const open = previous && previous.end === at ? previous : undefined;
      const edit = open ?? { start: at, end: at, text: "" };
      if (part.removed) edit.end += part.count;
      else edit.text += part.value;
      if (!open) edits.push(edit);
      if (part.removed) at += part.count;
    } else {
      at += part.count;
    }
  }
  let out = "";
  let cursor = 0;
  for (const edit of edits) {
    const start = locate(edit.start, false);
    const end = locate(edit.end, true);
    // A stretch already rewritten by the previous edit (two edits inside one differing stretch).
    if (start.file < cursor) return after;
    out += file.slice(cursor, start.file) + before.slice(start.model, edit.start) + edit.text + before.slice(edit.end, end.model);
    cursor = end.file;
  }
  return out + file.slice(cursor);
}

/**
 * One edited line: its body by `carryLineChange`, its indentation the file's when the model kept the
 * line's indentation, else `movedIndentation` (the model's new indentation carried to the file's frame).
 */
export function carryEditedLine(before: string, after: string, fileLine: string, movedIndentation = leadingWhitespace(after)): string {
  const [beforeIndent, afterIndent, fileIndent] = [before, after, fileLine].map(leadingWhitespace) as [string, string, string];
  const [beforeBody, afterBody] = [before.slice(beforeIndent.length), after.slice(afterIndent.length)];
  // A line rewritten rather than edited keeps nothing of the file's version.
  const body = resembles(beforeBody.trim(), afterBody.trim())
    ? carryLineChange(beforeBody, afterBody, fileLine.slice(fileIndent.length))
    : afterBody;
  return (afterIndent === beforeIndent ? fileIndent : movedIndentation) + body;
}

/** The model wrote newString with the same escapes it put in oldString (so it is read unescaped too). */
function escapedLikeOld(oldString: string, newString: string): boolean {
  const used = new Set(oldString.match(/\\(n|t|r|'|"|`|\\|\$)/g) ?? []);
  return [...used].some((sequence) => newString.includes(sequence));
}

/** oldString and newString as the strategy read them: unescaped for EscapeNormalized. */
export function modelStrings(strategy: ReplacerName, oldString: string, newString: string): { old: string; new: string } {
  if (strategy !== "EscapeNormalized") return { old: oldString, new: newString };
  return { old: unescapeString(oldString), new: escapedLikeOld(oldString, newString) ? unescapeString(newString) : newString };
}

/**
 * The text to put in place of `content.slice(start, end)`, which a fuzzy strategy matched for `oldString`
 * (both as the strategy read them). Throws an EditMatchError of kind "misremembered" when the change
 * rewrites or deletes a line of oldString that differs from the file beyond whitespace, escapes and
 * punctuation, or that has no counterpart in the file.
 */
export function applyChange(
  content: string,
  start: number,
  end: number,
  oldString: string,
  newString: string,
  where: {
    readonly startLine: number;
    readonly strategy: ReplacerName /** oldString as the model wrote it (escaped). */;
    readonly written?: string;
  },
): AppliedChange {
  const span = content.slice(start, end);
  const model = oldString.split("\n");
  const wanted = newString.split("\n");
  const file = span.split("\n");
  const { fileOf, status } = align(model, file);

  // A span that starts inside its first line (after the indentation, or mid-line): that line as the
  // model would have copied it, whole.
  const prefix = content.slice(content.lastIndexOf("\n", start - 1) + 1, start);
  const differing: DifferingLine[] = [];
  // The lines as the model wrote them, when reading them (unescaping) kept their count.
  const written = where.written?.split("\n");
  const asWritten = written && written.length === model.length ? written : model;
  model.forEach((read, i) => {
    if (isBlank(read) && status[i] === "absent") return;
    const j = fileOf[i]!;
    const line = asWritten[i]!;
    if (j >= 0 && (file[j] === line || (j === 0 && prefix + file[0] === line))) return;
    differing.push({ model: i + 1, file: j >= 0 ? where.startLine + j : undefined, cosmetic: status[i] === "same" });
  });

  // newString re-indented to the match as a whole (today's adaptation): the indentation new lines get.
  const adapted = adaptNewString(content, start, end, oldString, newString).split("\n");
  // (When it moved blank lines at the edges, lines no longer correspond: the model's own are used.)
  const reindented = wanted.length === adapted.length ? (n: number) => adapted[n]! : (n: number) => wanted[n]!;

  const inserts = new Map<number, string[]>();
  const deleted = new Set<number>();
  const replaced = new Map<number, string[]>();
  const insertAt = (position: number, lines: string[]) => inserts.set(position, [...(inserts.get(position) ?? []), ...lines]);
  const touched: number[] = [];

  let m = 0;
  let n = 0;
  let lastPlaced = -1;
  const parts = lineDiff(model, wanted);
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (!part.added && !part.removed) {
      for (let k = 0; k < part.count; k++, m++, n++) if (fileOf[m]! >= 0) lastPlaced = fileOf[m]!;
      continue;
    }
    // A change: the removed lines and the added lines that follow them (or added lines alone).
    const removed: number[] = [];
    const added: number[] = [];
    while (p < parts.length && (parts[p]!.added || parts[p]!.removed)) {
      const change = parts[p]!;
      for (let k = 0; k < change.count; k++) (change.removed ? removed : added).push(change.removed ? m++ : n++);
      p++;
    }
    p--;
    for (const i of removed) {
      if (status[i] === "differs" || (status[i] === "absent" && !isBlank(model[i]!))) touched.push(i);
    }
    // Once refused, the rest is only walked to list every line the change touches.
    if (touched.length > 0) continue;
    // Pair edited lines with their new versions, in order, where they are similar enough.
    // As many new lines as old: line k became line k. Otherwise a line pairs with a later new line that
    // resembles it or contains it (a line extended at either end).
    const pairOf = new Map<number, number>();
    if (removed.length === added.length) {
      removed.forEach((i, k) => {
        if (fileOf[i]! >= 0 && !isBlank(model[i]!) && !isBlank(wanted[added[k]!]!)) pairOf.set(added[k]!, i);
      });
    } else {
      let from = 0;
      for (const i of removed) {
        if (fileOf[i]! < 0 || isBlank(model[i]!)) continue;
        for (let a = from; a < added.length; a++) {
          if (resembles(model[i]!.trim(), wanted[added[a]!]!.trim())) {
            pairOf.set(added[a]!, i);
            from = a + 1;
            break;
          }
        }
      }
    }
    const output = added.map((k) => {
      const i = pairOf.get(k);
      if (i === undefined) return isBlank(wanted[k]!) ? wanted[k]! : reindented(k);
      return carryEditedLine(model[i]!, wanted[k]!, file[fileOf[i]!]!, leadingWhitespace(reindented(k)));
    });
    const placed = removed.map((i) => fileOf[i]!).filter((j) => j >= 0);
    for (const j of placed) deleted.add(j);
    if (placed.length > 0) {
      replaced.set(placed[0]!, output);
      lastPlaced = placed[placed.length - 1]!;
    } else {
      insertAt(lastPlaced + 1, output);
    }
  }
  if (touched.length > 0) {
    const wrong = touched.map((i) => ({ model: i + 1, file: fileOf[i]! >= 0 ? where.startLine + fileOf[i]! : undefined }));
    throw misrememberedError(where.strategy, where.startLine, file, wrong);
  }

  const out: string[] = [];
  for (let j = 0; j <= file.length; j++) {
    out.push(...(inserts.get(j) ?? []));
    if (j === file.length) break;
    const replacement = replaced.get(j);
    if (replacement) out.push(...replacement);
    else if (!deleted.has(j)) out.push(file[j]!);
  }
  return { replacement: out.join("\n"), differing };
}
