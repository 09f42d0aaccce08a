/**
 * `replace`: find what oldString meant in the file and put newString there. OpenCode's nine strategies are
 * tried in order; the first that yields something found in the file decides. Two policies (policy.ts):
 * "seed" reproduces OpenCode (the benchmark's reference), "safe" (the default) refuses spans it cannot
 * trust, reports ambiguity instead of picking a variant, and re-indents newString to fuzzy matches.
 */
import { EditMatchError, EMPTY_MESSAGE, IDENTICAL_MESSAGE, multipleError, notFoundError, tooBroadError } from "./errors.js";
import { judgeSpan } from "./guards.js";
import { indexLines, lineOf, occurrencesOf, searchLines, type LineIndex } from "./lines.js";
import { POLICIES, type PolicyRules } from "./policy.js";
import { applyChange, modelStrings, type DifferingLine } from "./intent.js";
import { replacersWith } from "./replacers/index.js";
import { isFuzzy, type LineRange, type NamedReplacer, type ReplaceOptions, type ReplacerName, type ReplaceResult } from "./types.js";

interface Place {
  readonly start: number;
  readonly end: number;
}

interface Edit extends Place {
  readonly replacement: string;
}

/** Without replaceAll, two places already decide; more are located only to list them. */
const LOCATED_LIMIT = 1000;

// Built once per policy: the order is OpenCode's; BlockAnchor's tuning and PunctuationNormalized differ.
const REPLACERS_BY_POLICY = new Map(
  Object.values(POLICIES).map((rules) => [rules, replacersWith(rules.blockAnchor, rules.punctuation)] as const),
);

function toRange(index: LineIndex, place: Place): LineRange {
  return { start: lineOf(index, place.start) + 1, end: lineOf(index, Math.max(place.start, place.end - 1)) + 1 };
}

/** Left-to-right, non-overlapping occurrences: the places `split`/`replaceAll` would replace. */
function nonOverlapping(content: string, text: string): number[] {
  const found: number[] = [];
  for (let at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + text.length)) found.push(at);
  return found;
}

/** Splices every edit in (they are sorted and disjoint); replacements are inserted literally, never as patterns. */
function apply(
  content: string,
  index: LineIndex,
  edits: readonly Edit[],
  strategy: ReplacerName,
  differing: readonly DifferingLine[] = [],
): ReplaceResult {
  let out = "";
  let cursor = 0;
  for (const edit of edits) {
    out += content.slice(cursor, edit.start) + edit.replacement;
    cursor = edit.end;
  }
  out += content.slice(cursor);
  const first = toRange(index, edits[0]!);
  const last = toRange(index, edits[edits.length - 1]!);
  return {
    content: out,
    strategy,
    fuzzy: isFuzzy(strategy),
    occurrences: edits.length,
    startLine: first.start,
    endLine: last.end,
    differing,
  };
}

export function replace(content: string, oldString: string, newString: string, options: ReplaceOptions = {}): ReplaceResult {
  if (oldString === newString) throw new EditMatchError("identical", IDENTICAL_MESSAGE);
  // Every text contains "" everywhere; OpenCode's MultiOccurrence would loop on it forever.
  if (oldString === "") throw new EditMatchError("empty", EMPTY_MESSAGE);
  const replaceAll = options.replaceAll ?? false;
  const index = indexLines(content);
  const rules = POLICIES[options.policy ?? "safe"];
  const replacers = REPLACERS_BY_POLICY.get(rules)!;
  return rules.ambiguity === "seed"
    ? seedReplace(content, index, oldString, newString, replaceAll, replacers)
    : safeReplace(content, index, oldString, newString, replaceAll, replacers, rules);
}

/**
 * OpenCode's loop, which neither guards spans nor adapts newString: the first candidate found exactly once
 * is replaced by newString verbatim; a candidate found several times is skipped in favour of the next one
 * (so a fuzzy strategy may pick a unique variant of ambiguous text, #41872). With replaceAll the first
 * candidate found is replaced everywhere.
 */
function seedReplace(
  content: string,
  index: LineIndex,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  replacers: readonly NamedReplacer[],
): ReplaceResult {
  let ambiguous: string | undefined;
  for (const { name, find } of replacers) {
    for (const search of find(content, oldString)) {
      // An empty candidate (TrimmedBoundary of a whitespace-only oldString) is found everywhere and means nothing.
      if (search === "") continue;
      const at = content.indexOf(search);
      if (at === -1) continue;
      if (replaceAll) {
        const edits = nonOverlapping(content, search).map((start) => ({ start, end: start + search.length, replacement: newString }));
        return apply(content, index, edits, name);
      }
      if (content.lastIndexOf(search) !== at) {
        ambiguous ??= search;
        continue;
      }
      return apply(content, index, [{ start: at, end: at + search.length, replacement: newString }], name);
    }
  }
  if (ambiguous === undefined) throw notFoundError(content, oldString);
  const length = ambiguous.length;
  throw multipleError(occurrencesOf(content, ambiguous).map((start) => toRange(index, { start, end: start + length })));
}

/** Whether a place in `list` (sorted, all of one length, so their ends are sorted too) overlaps [start, end). */
function overlapsAny(list: readonly Place[], start: number, end: number): boolean {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  return low < list.length && list[low]!.start < end;
}

/**
 * The places a strategy's candidates stand for, in text order. Occurrences of one candidate are distinct
 * places even when they overlap ("aa" twice in "aaa"); an occurrence that overlaps a place of an earlier
 * candidate is another reading of that place (TrimmedBoundary yields both a trimmed text and its whole
 * lines), not a second place.
 */
function distinctPlaces(accepted: ReadonlyArray<{ text: string; starts: readonly number[] }>): Place[] {
  const kept: Place[][] = [];
  for (const { text, starts } of accepted) {
    const mine: Place[] = [];
    for (const start of starts) {
      const end = start + text.length;
      if (!kept.some((list) => overlapsAny(list, start, end))) mine.push({ start, end });
    }
    kept.push(mine);
  }
  return kept.flat().sort((a, b) => a.start - b.start);
}

/**
 * Ours: the first strategy with an acceptable candidate decides. Its candidates are located everywhere
 * they occur; candidates that overlap one another are one place (the first yielded wins), and more than
 * one place is reported, never resolved by a later, looser strategy. Fuzzy candidates must pass the span
 * guards, and at each fuzzy place the change from oldString to newString is made on the file's own lines
 * (intent.ts), never newString pasted over them.
 */
function safeReplace(
  content: string,
  index: LineIndex,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  replacers: readonly NamedReplacer[],
  rules: PolicyRules,
): ReplaceResult {
  let broad: { strategy: ReplacerName; place: Place } | undefined;
  for (const { name, find } of replacers) {
    const fuzzy = isFuzzy(name);
    const read = modelStrings(name, oldString, newString);
    const reference = read.old;
    const accepted: Array<{ text: string; starts: number[] }> = [];
    const judged = new Set<string>();
    for (const text of find(content, oldString)) {
      if (text === "" || judged.has(text)) continue;
      judged.add(text);
      // Judged before it is located: a strategy may offer thousands of spans (every "}" to every later
      // "}"), and the guard rejects most of them without a search through the file.
      if (fuzzy && rules.guardSpans) {
        const verdict = judgeSpan(name, text, reference);
        if (!verdict.ok) {
          const at = verdict.reason === "too-broad" && !broad ? content.indexOf(text) : -1;
          if (at !== -1) broad = { strategy: name, place: { start: at, end: at + text.length } };
          continue;
        }
      }
      const starts = replaceAll ? nonOverlapping(content, text) : occurrencesOf(content, text, LOCATED_LIMIT);
      if (starts.length > 0) accepted.push({ text, starts });
    }
    if (accepted.length === 0) continue;

    const places = distinctPlaces(accepted);
    if (!replaceAll && places.length > 1) {
      throw multipleError(
        places.map((place) => toRange(index, place)),
        accepted.some(({ starts }) => starts.length >= LOCATED_LIMIT),
      );
    }
    // replaceAll: left to right, a place overlapping the one kept before it is skipped.
    const chosen: Place[] = [];
    for (const place of places) if (chosen.length === 0 || chosen[chosen.length - 1]!.end <= place.start) chosen.push(place);
    let differing: readonly DifferingLine[] = [];
    const edits = chosen.map((place, k) => {
      if (!(fuzzy && rules.applyChange)) return { ...place, replacement: newString };
      const where = { startLine: lineOf(index, place.start) + 1, strategy: name, written: oldString };
      const change = applyChange(content, place.start, place.end, reference, read.new, where);
      if (k === 0) differing = change.differing;
      return { ...place, replacement: change.replacement };
    });
    return apply(content, index, edits, name, differing);
  }
  if (broad) throw tooBroadError(broad.strategy, toRange(index, broad.place), searchLines(oldString).length);
  throw notFoundError(content, oldString);
}
