/**
 * When a fuzzy strategy matched, newString was written in the model's picture of the file, not the file's:
 * the model's block sat at another depth, or used spaces where the file uses tabs, or the match left out
 * a newline or a space at its edges that oldString (and so newString) had. Written verbatim, newString
 * lands at the wrong depth (#24549, #29573, #25953). This carries the difference over: the indentation
 * that turned oldString's lines into the matched lines is applied to every non-blank line of newString.
 */
import { isBlank, leadingWhitespace } from "./lines.js";

/** Columns a tab counts for when tabs and spaces meet in one indentation. */
const TAB_COLUMNS = 4;

type Unit = { readonly kind: "tab" } | { readonly kind: "space"; readonly width: number };
type Style = "tab" | "space" | "none";
type Mapper = (indentation: string) => string;

/**
 * Whether most indented lines start with a tab or with spaces ("none": no indented line, or a tie). A
 * single space is alignment (the " * " of a doc comment), not indentation, and does not count.
 */
function indentationStyle(lines: readonly string[]): Style {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    if (isBlank(line)) continue;
    if (line.startsWith("\t")) tabs++;
    else if (line.startsWith("  ")) spaces++;
  }
  return tabs > spaces ? "tab" : spaces > tabs ? "space" : "none";
}

/**
 * The width of one indentation step in space-indented lines: the most common change of depth between
 * neighbouring lines. Changes of one column are alignment (" * " in a doc comment), not steps.
 */
function spaceIndentUnit(lines: readonly string[]): number | undefined {
  const counts = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indentation = leadingWhitespace(line);
    if (indentation.includes("\t")) continue;
    if (previous !== undefined) {
      const step = Math.abs(indentation.length - previous);
      if (step >= 2) counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    previous = indentation.length;
  }
  let best: number | undefined;
  for (const [step, count] of counts) {
    const bestCount = best === undefined ? 0 : counts.get(best)!;
    if (count > bestCount || (count === bestCount && best !== undefined && step < best)) best = step;
  }
  return best;
}

function columns(indentation: string): number {
  let width = 0;
  for (const char of indentation) width += char === "\t" ? TAB_COLUMNS : 1;
  return width;
}

/**
 * Indentation as whole steps of `unit` plus the spaces left over (alignment, like the space before the
 * "*" of a doc comment), so that the left-over spaces survive a change of unit unchanged.
 */
function decompose(indentation: string, unit: Unit): { steps: number; rest: number } {
  let tabs = 0;
  let spaces = 0;
  for (const char of indentation) {
    if (char === "\t") tabs++;
    else spaces++;
  }
  if (unit.kind === "tab") return { steps: tabs, rest: spaces };
  return { steps: tabs + Math.floor(spaces / unit.width), rest: spaces % unit.width };
}

function compose(steps: number, rest: number, unit: Unit): string {
  const [whole, extra] = [Math.max(0, steps), Math.max(0, rest)];
  return unit.kind === "tab" ? "\t".repeat(whole) + " ".repeat(extra) : " ".repeat(whole * unit.width + extra);
}

interface Frames {
  /** The model's lines (oldString and newString) and the file's use different characters to indent. */
  readonly crossStyle: boolean;
  readonly modelUnit: Unit;
  readonly fileUnit: Unit;
  readonly fileUsesTabs: boolean;
}

/**
 * The mapping that takes oldString's indentation `from` to the file's `to`. Within one style it is a
 * prefix added or removed (the model wrote the block deeper or shallower by that prefix, which keeps mixed
 * indentation like a tab followed by a doc comment's spaces intact), and failing that a shift in columns.
 * Across styles depth is counted in steps of each side's unit and rebuilt in the file's.
 */
function mapper(from: string, to: string, frames: Frames): Mapper {
  if (frames.crossStyle) {
    const target = decompose(to, frames.fileUnit);
    const source = decompose(from, frames.modelUnit);
    return (indentation) => {
      const { steps, rest } = decompose(indentation, frames.modelUnit);
      return compose(steps + target.steps - source.steps, rest + target.rest - source.rest, frames.fileUnit);
    };
  }
  const byColumns: Mapper = (indentation) => {
    const width = Math.max(0, columns(to) + columns(indentation) - columns(from));
    return frames.fileUsesTabs ? compose(Math.floor(width / TAB_COLUMNS), width % TAB_COLUMNS, { kind: "tab" }) : " ".repeat(width);
  };
  if (to.endsWith(from)) {
    const added = to.slice(0, to.length - from.length);
    return (indentation) => added + indentation;
  }
  if (from.endsWith(to)) {
    const extra = from.slice(0, from.length - to.length);
    return (indentation) => (indentation.startsWith(extra) ? indentation.slice(extra.length) : byColumns(indentation));
  }
  return (indentation) => (indentation.startsWith(from) ? to + indentation.slice(from.length) : byColumns(indentation));
}

/**
 * How wide one tab of the tab side is on the space side, read off the paired lines themselves (a model
 * line "\t\t" paired with a file line of eight spaces: four). Far more reliable than guessing a unit from
 * the depths of a dozen lines, where one jump of two levels looks like a unit of eight.
 */
function pairedTabWidth(pairs: ReadonlyArray<readonly [string, string]>, modelHasTabs: boolean): number | undefined {
  const counts = new Map<number, number>();
  for (const [from, to] of pairs) {
    const [tabbed, spaced] = modelHasTabs ? [from, to] : [to, from];
    const tabs = tabbed.length - tabbed.replace(/\t/g, "").length;
    if (tabs === 0 || spaced.includes("\t")) continue;
    const width = (spaced.length - (tabbed.length - tabs)) / tabs;
    if (Number.isInteger(width) && width >= 1) counts.set(width, (counts.get(width) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [width, count] of counts) if (best === undefined || count > counts.get(best)!) best = width;
  return best;
}

function frames(
  modelLines: readonly string[],
  fileLines: readonly string[],
  pairs: ReadonlyArray<readonly [string, string]>,
  content: string,
): Frames {
  const modelStyle = indentationStyle(modelLines);
  // A block without indented lines says nothing about the file's style; the whole file does.
  let fileStyle = indentationStyle(fileLines);
  if (fileStyle === "none") fileStyle = indentationStyle(content.split("\n"));
  const crossStyle = modelStyle !== "none" && fileStyle !== "none" && modelStyle !== fileStyle;
  let width = TAB_COLUMNS;
  if (crossStyle) {
    const spaceSide = modelStyle === "space" ? modelLines : content.split("\n");
    width = pairedTabWidth(pairs, modelStyle === "tab") ?? spaceIndentUnit(spaceSide) ?? TAB_COLUMNS;
  }
  const unit = (style: Style): Unit => (style === "tab" ? { kind: "tab" } : { kind: "space", width });
  return { crossStyle, modelUnit: unit(modelStyle), fileUnit: unit(fileStyle), fileUsesTabs: fileStyle === "tab" };
}

const isSpace = (char: string | undefined) => char === " " || char === "\t";

/** The spaces and tabs at the start (or end) of `text`. Loops, not regexes: no backtracking on long runs. */
function spaceEdge(text: string, atEnd: boolean): string {
  if (atEnd) {
    let at = text.length;
    while (at > 0 && isSpace(text[at - 1])) at--;
    return text.slice(at);
  }
  let at = 0;
  while (at < text.length && isSpace(text[at])) at++;
  return text.slice(0, at);
}

/** The whole blank lines at the start of `text` (up to and including their newlines), or at its end (from the newline on). */
function blankEdge(text: string, atEnd: boolean): string {
  if (atEnd) {
    let kept = text.length;
    for (;;) {
      let at = kept;
      while (at > 0 && isSpace(text[at - 1])) at--;
      if (at === 0 || text[at - 1] !== "\n") return text.slice(kept);
      kept = at - 1;
    }
  }
  let kept = 0;
  for (;;) {
    let at = kept;
    while (at < text.length && isSpace(text[at])) at++;
    if (text[at] !== "\n") return text.slice(0, kept);
    kept = at + 1;
  }
}

function swapEdge(text: string, from: string, to: string, atEnd: boolean): string {
  return atEnd ? text.slice(0, text.length - from.length) + to : to + text.slice(from.length);
}

function nonBlank(lines: readonly string[]): number[] {
  const found: number[] = [];
  lines.forEach((line, i) => {
    if (!isBlank(line)) found.push(i);
  });
  return found;
}

/**
 * newString adapted to the span `content.slice(start, end)` that a fuzzy strategy matched for `oldString`
 * (as the strategy read it: unescaped for EscapeNormalized).
 */
export function adaptNewString(content: string, start: number, end: number, oldString: string, newString: string): string {
  const span = content.slice(start, end);
  let model = oldString;
  let replacement = newString;

  // Blank lines at the edges: those oldString has and the match did not take (LineTrimmed drops a trailing
  // newline) would be added by newString's copy of them; those the match took and oldString did not have
  // (a window of WhitespaceNormalized may start with blank lines) are the file's and must stay.
  for (const atEnd of [false, true]) {
    const wrote = blankEdge(model, atEnd);
    const found = blankEdge(span, atEnd);
    if (wrote === found) continue;
    if (atEnd ? replacement.endsWith(wrote) : replacement.startsWith(wrote)) replacement = swapEdge(replacement, wrote, found, atEnd);
    model = swapEdge(model, wrote, found, atEnd);
  }

  const lineStart = content.lastIndexOf("\n", start - 1) + 1;
  const prefix = content.slice(lineStart, start);
  // A span that starts after other text on its line: its first line has no indentation of its own, but
  // the spaces oldString had before it (and newString repeats) must not be inserted mid-line. The same
  // for spaces after a span that ends before the end of its line.
  const midLine = prefix.trim() !== "";
  const endsMidLine = end < content.length && content[end] !== "\n";
  for (const atEnd of [false, true]) {
    if (!(atEnd ? endsMidLine : midLine)) continue;
    const wrote = spaceEdge(model, atEnd);
    const found = spaceEdge(span, atEnd);
    if (wrote !== found && (atEnd ? replacement.endsWith(wrote) : replacement.startsWith(wrote)))
      replacement = swapEdge(replacement, wrote, found, atEnd);
  }

  const modelLines = model.split("\n");
  const fileLines = (midLine ? span : prefix + span).split("\n");
  const newLines = replacement.split("\n");
  const wrote = nonBlank(modelLines);
  const found = nonBlank(fileLines);
  // Lines pair up when both sides have as many non-blank lines; otherwise only the first lines do.
  let pairs: Array<readonly [string, string]> =
    wrote.length === found.length
      ? wrote.map((w, k) => [leadingWhitespace(modelLines[w]!), leadingWhitespace(fileLines[found[k]!]!)] as const)
      : wrote.length > 0 && found.length > 0
        ? [[leadingWhitespace(modelLines[wrote[0]!]!), leadingWhitespace(fileLines[found[0]!]!)] as const]
        : [];
  if (midLine) pairs = wrote.length === found.length ? pairs.slice(1) : [];

  let adapted = newLines;
  if (!pairs.every(([from, to]) => from === to)) {
    const frame = frames([...modelLines, ...newLines], fileLines, pairs, content);
    const [firstFrom, firstTo] = pairs[0]!;
    const first = mapper(firstFrom, firstTo, frame);
    let rest = first;
    if (!pairs.every(([from, to]) => first(from) === to) && pairs.length >= 2) {
      // Only the first line is off (the model dropped its indentation, #29573): carry that line's
      // difference to newString's first line and the others' to the rest.
      const [secondFrom, secondTo] = pairs[1]!;
      const second = mapper(secondFrom, secondTo, frame);
      if (pairs.slice(1).every(([from, to]) => second(from) === to)) rest = second;
    }
    let seenFirst = false;
    adapted = newLines.map((line, i) => {
      if (isBlank(line) || (midLine && i === 0)) return line;
      const indentation = leadingWhitespace(line);
      const map = seenFirst ? rest : first;
      seenFirst = true;
      return map(indentation) + line.slice(indentation.length);
    });
  }
  // The span began inside the line's indentation: what is before it stays, so newString's first line
  // brings only the rest.
  if (!midLine && prefix !== "" && adapted.length > 0) {
    const head = adapted[0]!;
    adapted = [head.startsWith(prefix) ? head.slice(prefix.length) : head.trimStart(), ...adapted.slice(1)];
  }
  return adapted.join("\n");
}
