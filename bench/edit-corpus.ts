/**
 * Edit accuracy: how often `replace` does the right thing when the model's oldString is mangled the ways
 * models mangle it. Cases are generated deterministically (seeded PRNG) from blocks of 3-12 lines of real
 * source files shipped in node_modules (diff, solid-js, zod, fflate, @zenfs/core, jsonc-parser, picomatch,
 * minimatch, and tab-indented ones: magic-string, papaparse, @xterm/xterm, file-type). Each case knows the
 * right answer: the file after the edit, or "must refuse". Every case runs under the seed's policy
 * (OpenCode's thresholds, newString verbatim) and ours ("safe"), and each outcome is
 *   correct  the result equals the expected file, or the policy refused where refusal was right;
 *   wrong    a result that differs from the expected file, including any edit where refusal was right;
 *   refused  an EditMatchError where an edit was right.
 * (correct is split into correctEdits and correctRefusals; wrongCases lists the first ids that went wrong.)
 *
 * How the model's newString is built: the intended edit (insert a line, extend a line, delete a line) is
 * made on the real block, at the file's indentation; when the mangling is a change of indentation the model
 * writes newString in its own frame, so the same change is applied to newString (the tool must re-indent
 * it back). For other manglings newString is the intended text as is.
 *
 * Decisions on the ambiguous kinds (the right answer is fixed by construction, independent of thresholds):
 *   dup-exact      the file holds the block twice, exactly: refuse (no way to know which one was meant).
 *   dup-reindented the file also holds a re-indented copy; oldString is the original exactly: edit the
 *                  original (an exact unique match is never overridden by a fuzzy reading).
 *   dup-fuzzy      the same file, oldString matches neither copy exactly but both fuzzily: refuse.
 *   wrong-middle   one middle line differs cosmetically (a dropped semicolon, other quotes, spacing): apply
 *                  the model's newString over the block (it is identifiable, the difference is cosmetic).
 *   unrelated-line one middle line is a different line of the file (similarity < 0.4): refuse (the model
 *                  invented it; applying would silently replace a real line with it).
 *   stutter        oldString repeats one of its lines: refuse (applying would add or drop a line).
 *   elided-middle  oldString keeps the first lines and the last and drops the middle (truncated context,
 *                  sometimes with a "// ..." line): refuse (the middle would be deleted unseen).
 *   broad-anchor   first lines right, last line a closing brace that occurs far below (#24959): refuse.
 *   absent         a block from another file: refuse.
 *   short-context  one line of the block: apply if it occurs once in the file, else refuse.
 * The other kinds are identifiable blocks mangled in whitespace, indentation (deeper, shallower, tabs for
 * spaces and back, the first line's dropped, #29573, deeper plus other spacing), trailing spaces (in
 * oldString, or in the file only), escapes (quotes, or the whole block as one escaped line) or extra blank
 * lines at the end, plus exact blocks: apply.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HELD_OUT_CORPUS } from "./edit-corpus-heldout.js";
import {
  EditMatchError,
  POLICIES,
  replace,
  SAFE_BLOCK_ANCHOR_THRESHOLD,
  SAFE_INK_SLACK,
  SAFE_MAX_INK_RATIO,
  SAFE_MIDDLE_LINE_SIMILARITY,
  similarity,
  type EditPolicy,
} from "../src/tools/edit/index.js";

const SEED = 0x5eed_0003;
const CASES_PER_KIND = 20;
const MAX_LINE = 160;

const SOURCES = [
  "diff/libesm/patch/apply.js",
  "diff/libesm/patch/parse.js",
  "diff/libesm/diff/base.js",
  "diff/libesm/patch/create.js",
  "solid-js/dist/solid.js",
  "solid-js/store/dist/store.js",
  "zod/v4/core/util.js",
  "fflate/esm/browser.js",
  "@zenfs/core/dist/vfs/async.js",
  "@zenfs/core/dist/internal/inode.js",
  "jsonc-parser/lib/esm/impl/scanner.js",
  "jsonc-parser/lib/esm/impl/format.js",
  "picomatch/lib/parse.js",
  "minimatch/dist/esm/index.js",
  "magic-string/dist/magic-string.es.mjs",
  "papaparse/papaparse.js",
  "@xterm/xterm/src/vs/base/common/event.ts",
  "@xterm/xterm/src/vs/base/common/async.ts",
  "file-type/core.js",
] as const;

const KINDS = [
  "exact",
  "short-context",
  "whitespace",
  "trailing-old",
  "trailing-file",
  "indent-more",
  "indent-less",
  "tabs-to-spaces",
  "spaces-to-tabs",
  "first-line-indent",
  "indent-and-spacing",
  "extra-newlines",
  "escape-quotes",
  "escape-newlines",
  "typographic",
  "blank-dropped",
  "blank-added",
  "misremembered-untouched",
  "misremembered-touched",
  "unrelated-line",
  "stutter",
  "elided-middle",
  "broad-anchor",
  "dup-exact",
  "dup-reindented",
  "dup-fuzzy",
  "absent",
] as const;
type Kind = (typeof KINDS)[number];

interface Source {
  readonly name: string;
  readonly content: string;
  readonly lines: readonly string[];
  readonly trimmed: readonly string[];
  readonly starts: readonly number[];
  readonly tabs: boolean;
  /** Spaces per indentation step (space-indented files). */
  readonly unit: number;
}

interface Block {
  readonly start: number;
  readonly lines: readonly string[];
  readonly offset: number;
  readonly text: string;
}

export interface EditCase {
  readonly id: number;
  readonly kind: Kind;
  readonly source: string;
  readonly content: string;
  readonly oldString: string;
  readonly newString: string;
  /** The file after the edit, or null: the edit must be refused. */
  readonly expected: string | null;
}

// mulberry32: small, fast, and the same sequence on every machine.
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const isBlank = (line: string) => line.trim() === "";
const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];
const ink = (text: string) => text.replace(/\s/g, "").length;

/** `name` is a path from the repository's root (`node_modules/...` or `src/...`). */
function loadSource(name: string): Source | undefined {
  const path = fileURLToPath(new URL(`../${name}`, import.meta.url));
  let content: string;
  try {
    content = readFileSync(path, "utf8")
      .replace(/^\uFEFF/, "")
      .replace(/\r\n/g, "\n");
  } catch {
    return undefined; // a package missing from this install: fewer sources, the same generator
  }
  const lines = content.split("\n");
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const tabbed = lines.filter((l) => l.startsWith("\t")).length;
  const spaced = lines.filter((l) => l.startsWith(" ")).length;
  const steps = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    if (isBlank(line) || line.startsWith("\t")) continue;
    const width = indentOf(line).length;
    if (previous !== undefined && Math.abs(width - previous) >= 2)
      steps.set(Math.abs(width - previous), (steps.get(Math.abs(width - previous)) ?? 0) + 1);
    previous = width;
  }
  const unit = [...steps].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 4;
  return { name, content, lines, trimmed: lines.map((l) => l.trim()), starts, tabs: tabbed > spaced, unit };
}

/** Windows of `lines.length` lines of `content` whose trimmed lines all equal those of `lines`. */
function trimmedOccurrences(content: string, lines: readonly string[]): number {
  const file = content.split("\n").map((l) => l.trim());
  const want = lines.map((l) => l.trim());
  let count = 0;
  for (let p = 0; p + want.length <= file.length; p++) if (want.every((w, k) => file[p + k] === w)) count++;
  return count;
}

/** Places where the non-blank lines of `text`, trimmed, follow one another (blank lines between ignored). */
function looseOccurrences(content: string, text: string): number {
  const file = content
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const want = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (want.length === 0) return 0;
  let count = 0;
  for (let p = 0; p + want.length <= file.length; p++) if (want.every((w, k) => file[p + k] === w)) count++;
  return count;
}

/** Windows of the same size whose first and last trimmed lines equal those of `lines`. */
function anchoredWindows(content: string, lines: readonly string[]): number {
  const file = content.split("\n").map((l) => l.trim());
  const first = lines[0]!.trim();
  const last = lines[lines.length - 1]!.trim();
  let count = 0;
  for (let p = 0; p + lines.length <= file.length; p++) if (file[p] === first && file[p + lines.length - 1] === last) count++;
  return count;
}

function countOf(content: string, text: string): number {
  let count = 0;
  for (let at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + 1)) count++;
  return count;
}

/**
 * A block of `min`..`max` lines: non-blank first and last lines, no overlong line, some substance, and
 * identifiable (no other window of its size has the same first and last lines), so that every fuzzy
 * reading of it has one right place.
 */
function pickBlock(rng: Rng, source: Source, min: number, max: number, accept: (block: Block) => boolean = () => true): Block | undefined {
  for (let attempt = 0; attempt < 80; attempt++) {
    const size = rng.int(min, max);
    if (source.lines.length < size + 2) return undefined;
    const start = rng.int(0, source.lines.length - size - 1);
    const lines = source.lines.slice(start, start + size);
    if (isBlank(lines[0]!) || isBlank(lines[size - 1]!)) continue;
    if (lines.some((l) => l.length > MAX_LINE)) continue;
    if (lines.filter((l) => !isBlank(l)).length < Math.min(3, size)) continue;
    const text = lines.join("\n");
    if (ink(text) < 40) continue;
    let twins = 0;
    for (let p = 0; p + size <= source.lines.length; p++) {
      if (source.trimmed[p] === source.trimmed[start] && source.trimmed[p + size - 1] === source.trimmed[start + size - 1]) twins++;
    }
    if (twins !== 1) continue;
    const block = { start, lines, offset: source.starts[start]!, text };
    if (accept(block)) return block;
  }
  return undefined;
}

function splice(content: string, offset: number, length: number, text: string): string {
  return content.slice(0, offset) + text + content.slice(offset + length);
}

const middleIndices = (lines: readonly string[]) =>
  lines.map((_, i) => i).filter((i) => i > 0 && i < lines.length - 1 && !isBlank(lines[i]!));

/**
 * The change the model means, stated on the file's real lines (indices into the real block): insert a
 * line after line `after`, extend a line, rename a word in a line, or delete a line. The same change is
 * then written in the model's view (its mangled copy of the block) to make newString, and applied to the
 * real lines to make the expected file: the answer is fixed here, before any policy runs.
 */
type Op =
  | { readonly kind: "insert"; readonly after: number; readonly indentation: string; readonly body: string }
  | { readonly kind: "append"; readonly line: number; readonly suffix: string }
  | { readonly kind: "rename"; readonly line: number; readonly from: string; readonly to: string }
  | { readonly kind: "delete"; readonly line: number };

const WORD = /\b[A-Za-z_][A-Za-z0-9_]{2,}\b/;

/**
 * A change on `lines`. `avoid`: lines the change must not modify (an insert next to them is fine);
 * `touch`: the line it must modify (append, rename or delete), or undefined for any.
 */
function pickOp(rng: Rng, lines: readonly string[], id: number, avoid: ReadonlySet<number> = new Set(), touch?: number): Op | undefined {
  const middles = middleIndices(lines).filter((i) => !avoid.has(i));
  const targets = touch !== undefined ? [touch] : middles.length > 0 ? middles : [lines.length - 1].filter((i) => !avoid.has(i));
  const kinds: Array<Op["kind"]> = touch !== undefined ? ["append", "rename", "delete"] : ["insert", "append", "rename", "delete"];
  const kind = rng.pick(kinds);
  if (kind === "insert") {
    const indentation = indentOf(isBlank(lines[1]!) ? lines[0]! : lines[1]!);
    return { kind, after: 0, indentation, body: `// edit ${id}` };
  }
  if (targets.length === 0) return undefined;
  const line = rng.pick(targets);
  if (kind === "append") return { kind, line, suffix: ` // edit ${id}` };
  if (kind === "rename") {
    const word = WORD.exec(lines[line]!)?.[0];
    return word ? { kind, line, from: word, to: `${word}Edit${id}` } : { kind: "append", line, suffix: ` // edit ${id}` };
  }
  if (lines.length < 4 || touch === 0 || touch === lines.length - 1) return { kind: "append", line, suffix: ` // edit ${id}` };
  return { kind, line };
}

/**
 * `op` applied to `lines`. `at` maps a real line index to its index in `lines` (identity for the real
 * block); `indent` turns the real indentation of an inserted line into the frame of `lines`.
 */
function applyOp(
  lines: readonly string[],
  op: Op,
  at: (real: number) => number = (i) => i,
  indent: (i: string) => string = (i) => i,
): string[] | undefined {
  const out = [...lines];
  if (op.kind === "insert") {
    out.splice(at(op.after) + 1, 0, indent(op.indentation) + op.body);
    return out;
  }
  const k = at(op.line);
  if (k < 0 || k >= out.length) return undefined;
  if (op.kind === "append") out[k] = out[k] + op.suffix;
  else if (op.kind === "delete") out.splice(k, 1);
  else {
    if (!out[k]!.includes(op.from)) return undefined;
    out[k] = out[k]!.replace(op.from, () => op.to);
  }
  return out;
}

/** The old notion, kept for the kinds that must be refused: any change on the model's own lines. */
function intendedEdit(rng: Rng, lines: readonly string[], id: number): string[] {
  const op = pickOp(rng, lines, id) ?? { kind: "insert", after: 0, indentation: indentOf(lines[0]!), body: `// edit ${id}` };
  return applyOp(lines, op) ?? [...lines];
}

/** Applies `change` to the indentation of every non-blank line. */
function reindent(lines: readonly string[], change: (indentation: string) => string): string[] {
  return lines.map((line) => (isBlank(line) ? line : change(indentOf(line)) + line.slice(indentOf(line).length)));
}

/** A cosmetic slip in one line: a dropped semicolon or comma, other quotes, spacing around punctuation. */
function cosmeticSlip(rng: Rng, line: string): string | undefined {
  const slips: Array<(l: string) => string> = [
    (l) => l.replace(/;(\s*)$/, "$1"),
    (l) => l.replace(/,(\s*)$/, "$1"),
    (l) => (l.includes('"') && !l.includes("'") ? l.replace(/"/g, "'") : l.includes("'") && !l.includes('"') ? l.replace(/'/g, '"') : l),
    (l) => l.replace(/, (\S)/, ",$1"),
    (l) => l.replace(/ (===|!==|=>|&&|\|\||=|\+|-) /, "$1"),
    (l) => l.replace(/\) \{/, "){"),
  ];
  const start = rng.int(0, slips.length - 1);
  for (let i = 0; i < slips.length; i++) {
    const slipped = slips[(start + i) % slips.length]!(line);
    if (slipped !== line && slipped.trim() !== "") return slipped;
  }
  return undefined;
}

function escapeQuotes(text: string): string {
  return text.replace(/["'`]/g, (quote) => `\\${quote}`);
}

function escapeFully(text: string): string {
  return text.replace(/[\\"\n\t]/g, (char) => (char === "\n" ? "\\n" : char === "\t" ? "\\t" : `\\${char}`));
}

type Built = Omit<EditCase, "id" | "kind" | "source">;

interface ModelView {
  /** The model's copy of the block. */
  readonly lines: readonly string[];
  /** Index in `lines` of a real line (-1: the model left it out). Identity by default. */
  readonly at?: (real: number) => number;
  /** The model's frame for the indentation of a line it inserts. */
  readonly indent?: (indentation: string) => string;
  /** Real lines the change must not modify. */
  readonly avoid?: ReadonlySet<number>;
  /** The real line the change must modify. */
  readonly touch?: number;
  /** Real lines the model got wrong (not only in whitespace, escapes or punctuation): changing one must be refused. */
  readonly misremembered?: ReadonlySet<number>;
  /** How the model wrote its lines out as one string (escaped, for escape-newlines). */
  readonly wrap?: (text: string) => string;
}

/**
 * oldString is the model's view; newString is the same view with the change made in it (so it repeats the
 * view's mangling, as models do); the expected file is the real block with the change and nothing else.
 */
function viewCase(
  rng: Rng,
  id: number,
  content: string,
  block: Pick<Block, "offset" | "text" | "lines">,
  view: ModelView,
): Built | undefined {
  const op = pickOp(rng, block.lines, id, view.avoid, view.touch);
  if (!op) return undefined;
  if (op.kind === "insert" && view.at && view.at(op.after) < 0) return undefined;
  const real = applyOp(block.lines, op);
  const model = applyOp(view.lines, op, view.at, view.indent);
  if (!real || !model) return undefined;
  const wrap = view.wrap ?? ((text: string) => text);
  const refuse = op.kind !== "insert" && (view.misremembered?.has(op.line) ?? false);
  return {
    content,
    oldString: wrap(view.lines.join("\n")),
    newString: wrap(model.join("\n")),
    expected: refuse ? null : splice(content, block.offset, block.text.length, real.join("\n")),
  };
}

function build(kind: Kind, rng: Rng, source: Source, sources: readonly Source[], id: number): Built | undefined {
  const { content } = source;
  const edit = (block: Block, lines: readonly string[]) => splice(content, block.offset, block.text.length, lines.join("\n"));
  switch (kind) {
    case "exact": {
      const block = pickBlock(rng, source, 3, 12, (b) => countOf(content, b.text) === 1);
      if (!block) return undefined;
      return viewCase(rng, id, content, block, { lines: block.lines });
    }
    case "short-context": {
      const block = pickBlock(rng, source, 3, 12, (b) => middleIndices(b.lines).some((i) => b.lines[i]!.trim().length >= 6));
      if (!block) return undefined;
      const line = block.lines[rng.pick(middleIndices(block.lines).filter((i) => block.lines[i]!.trim().length >= 6))]!.trim();
      const replacement = `${line} // edit ${id}`;
      const at = content.indexOf(line);
      return {
        content,
        oldString: line,
        newString: replacement,
        expected: countOf(content, line) === 1 ? splice(content, at, line.length, replacement) : null,
      };
    }
    case "whitespace": {
      const spaced = (l: string) => / \S/.test(l.trimStart()) || /\S {2,}\S/.test(l);
      const block = pickBlock(rng, source, 3, 12, (b) => b.lines.some(spaced));
      if (!block) return undefined;
      const old = block.lines.map((line) => {
        if (!spaced(line) || rng.next() < 0.4) return line;
        const indentation = indentOf(line);
        const body = line.slice(indentation.length);
        return (
          indentation +
          (/\S {2,}\S/.test(body)
            ? body.replace(/(\S) {2,}(\S)/, "$1 $2")
            : body.replace(/(\S) (\S)/, rng.next() < 0.5 ? "$1  $2" : "$1\t$2"))
        );
      });
      if (old.join("\n") === block.text) return undefined;
      return viewCase(rng, id, content, block, { lines: old });
    }
    case "trailing-old": {
      const block = pickBlock(rng, source, 3, 12);
      if (!block) return undefined;
      const old = block.lines.map((line, i) => (i === 0 || rng.next() < 0.5 ? line + rng.pick([" ", "  ", "\t", "   "]) : line));
      return viewCase(rng, id, content, block, { lines: old });
    }
    case "trailing-file": {
      // The file has trailing spaces the model did not copy (on lines before the last, so that oldString is
      // not an exact substring ending mid-line). Unchanged lines keep them; the change does not extend a
      // line that has them (where the new text goes relative to stray spaces is a matter of taste).
      const block = pickBlock(rng, source, 3, 12);
      if (!block) return undefined;
      const dirtyAt = new Set<number>();
      const dirty = block.lines.map((line, i) => {
        if (!(i === 0 || (i < block.lines.length - 1 && !isBlank(line) && rng.next() < 0.4))) return line;
        dirtyAt.add(i);
        return `${line}  `;
      });
      const file = splice(content, block.offset, block.text.length, dirty.join("\n"));
      return viewCase(
        rng,
        id,
        file,
        { offset: block.offset, text: dirty.join("\n"), lines: dirty },
        { lines: block.lines, avoid: dirtyAt },
      );
    }
    case "indent-more": {
      const block = pickBlock(rng, source, 3, 12);
      if (!block) return undefined;
      const extra = source.tabs ? rng.pick(["\t", "\t\t"]) : rng.pick(["  ", "    ", "        "]);
      const indent = (i: string) => extra + i;
      return viewCase(rng, id, content, block, { lines: reindent(block.lines, indent), indent });
    }
    case "indent-less": {
      const base = (lines: readonly string[]) => Math.min(...lines.filter((l) => !isBlank(l)).map((l) => indentOf(l).length));
      const block = pickBlock(rng, source, 3, 12, (b) => base(b.lines) > 0);
      if (!block) return undefined;
      const cut = base(block.lines);
      const indent = (i: string) => i.slice(cut);
      return viewCase(rng, id, content, block, { lines: reindent(block.lines, indent), indent });
    }
    case "tabs-to-spaces": {
      if (!source.tabs) return undefined;
      const block = pickBlock(rng, source, 3, 12, (b) => b.lines.some((l) => l.startsWith("\t")));
      if (!block) return undefined;
      const width = rng.pick([2, 4]);
      const indent = (i: string) => i.replace(/\t/g, " ".repeat(width));
      return viewCase(rng, id, content, block, { lines: reindent(block.lines, indent), indent });
    }
    case "spaces-to-tabs": {
      if (source.tabs) return undefined;
      const block = pickBlock(rng, source, 3, 12, (b) => b.lines.some((l) => indentOf(l).length >= source.unit));
      if (!block) return undefined;
      const indent = (i: string) => "\t".repeat(Math.floor(i.length / source.unit)) + " ".repeat(i.length % source.unit);
      return viewCase(rng, id, content, block, { lines: reindent(block.lines, indent), indent });
    }
    case "first-line-indent": {
      // #29573: the model's block starts without its first line's indentation (and, as in the reports, a
      // second slip - a trailing space - keeps it from being an exact substring).
      const block = pickBlock(rng, source, 3, 12, (b) => indentOf(b.lines[0]!).length > 0);
      if (!block) return undefined;
      const old = [block.lines[0]!.trimStart(), ...block.lines.slice(1)];
      old[old.length - 1] += " ";
      return viewCase(rng, id, content, block, { lines: old });
    }
    case "indent-and-spacing": {
      // Two slips at once: the block is deeper, and a middle line's spacing differs (so no line-by-line
      // trimmed comparison matches and the anchored strategy has to).
      const spaced = (l: string) => / \S/.test(l.trimStart());
      const block = pickBlock(rng, source, 3, 12, (b) => middleIndices(b.lines).some((i) => spaced(b.lines[i]!)));
      if (!block) return undefined;
      const k = rng.pick(middleIndices(block.lines).filter((i) => spaced(block.lines[i]!)));
      const extra = source.tabs ? "\t" : rng.pick(["  ", "    "]);
      const view = [...block.lines];
      view[k] = indentOf(view[k]!) + view[k]!.slice(indentOf(view[k]!).length).replace(/(\S) (\S)/, "$1  $2");
      const indent = (i: string) => extra + i;
      return viewCase(rng, id, content, block, { lines: reindent(view, indent), indent });
    }
    case "extra-newlines": {
      // oldString and newString both end with a blank line the file does not have after the block.
      const block = pickBlock(rng, source, 3, 12, (b) => countOf(content, `${b.text}\n\n`) === 0);
      if (!block) return undefined;
      return viewCase(rng, id, content, block, { lines: [...block.lines, "", ""] });
    }
    case "escape-quotes": {
      // The model escaped the quotes in both strings (it copied them out of a string literal or JSON view).
      const block = pickBlock(rng, source, 3, 12, (b) => /["'`]/.test(b.text));
      if (!block) return undefined;
      return viewCase(rng, id, content, block, { lines: block.lines.map(escapeQuotes) });
    }
    case "escape-newlines": {
      // The whole block as one escaped line, oldString and newString alike.
      const block = pickBlock(rng, source, 3, 8);
      if (!block) return undefined;
      return viewCase(rng, id, content, block, { lines: block.lines, wrap: escapeFully });
    }
    case "typographic": {
      // The file has typographic quotes or dashes (in its comments and strings) where the model types ASCII.
      const typographic = (l: string) => (/'/.test(l) ? l.replace(/'/g, "\u2019") : / - /.test(l) ? l.replace(/ - /g, " \u2014 ") : l);
      const block = pickBlock(rng, source, 3, 12, (b) => b.lines.some((l) => typographic(l) !== l));
      if (!block) return undefined;
      const real = block.lines.map((l) => (rng.next() < 0.7 ? typographic(l) : l));
      if (real.join("\n") === block.text) return undefined;
      const file = splice(content, block.offset, block.text.length, real.join("\n"));
      return viewCase(rng, id, file, { offset: block.offset, text: real.join("\n"), lines: real }, { lines: block.lines });
    }
    case "blank-dropped": {
      // The file's block has a blank line the model left out.
      const block = pickBlock(
        rng,
        source,
        4,
        12,
        (b) => middleIndices(b.lines).length > 0 && b.lines.some((l, i) => i > 1 && i < b.lines.length - 1 && isBlank(l)),
      );
      if (!block) return undefined;
      const blanks = block.lines.map((l, i) => (i > 1 && i < block.lines.length - 1 && isBlank(l) ? i : -1)).filter((i) => i >= 0);
      const k = rng.pick(blanks);
      const view = block.lines.filter((_, i) => i !== k);
      return viewCase(rng, id, content, block, { lines: view, at: (i) => (i < k ? i : i === k ? -1 : i - 1), avoid: new Set([k]) });
    }
    case "blank-added": {
      // The model's block has a blank line the file does not have.
      const block = pickBlock(rng, source, 3, 12, (b) => middleIndices(b.lines).length > 0);
      if (!block) return undefined;
      const k = rng.pick(middleIndices(block.lines));
      const view = [...block.lines.slice(0, k + 1), "", ...block.lines.slice(k + 1)];
      return viewCase(rng, id, content, block, { lines: view, at: (i) => (i <= k ? i : i + 1) });
    }
    case "misremembered-untouched":
    case "misremembered-touched": {
      // One middle line misremembered (a dropped semicolon, other quotes, spacing around punctuation). A
      // change elsewhere must leave the file's line as it is; a change of that very line cannot be made
      // without guessing what the model meant for the text it got wrong, so it must be refused.
      const block = pickBlock(rng, source, 3, 12, (b) => middleIndices(b.lines).some((i) => b.lines[i]!.trim().length >= 12));
      if (!block) return undefined;
      const k = rng.pick(middleIndices(block.lines).filter((i) => block.lines[i]!.trim().length >= 12));
      const slipped = cosmeticSlip(rng, block.lines[k]!);
      if (!slipped || slipped.trim() === block.lines[k]!.trim()) return undefined;
      const view = [...block.lines];
      view[k] = slipped;
      const touched = kind === "misremembered-touched";
      return viewCase(rng, id, content, block, {
        lines: view,
        avoid: touched ? undefined : new Set([k]),
        touch: touched ? k : undefined,
        misremembered: new Set([k]),
      });
    }
    case "unrelated-line": {
      const block = pickBlock(rng, source, 3, 12);
      if (!block) return undefined;
      const k = rng.pick(middleIndices(block.lines).length > 0 ? middleIndices(block.lines) : [1]);
      const original = block.lines[k]!.trim();
      let other: string | undefined;
      for (let attempt = 0; attempt < 50 && !other; attempt++) {
        const candidate = source.trimmed[rng.int(0, source.lines.length - 1)]!;
        if (candidate.length >= 8 && candidate.length <= MAX_LINE && similarity(candidate, original) < 0.4) other = candidate;
      }
      if (!other) return undefined;
      const view = [...block.lines];
      view[k] = indentOf(block.lines[k]!) + other;
      if (trimmedOccurrences(content, view) > 0) return undefined;
      return { content, oldString: view.join("\n"), newString: intendedEdit(rng, view, id).join("\n"), expected: null };
    }
    case "stutter": {
      const block = pickBlock(rng, source, 3, 12, (b) => middleIndices(b.lines).length > 0);
      if (!block) return undefined;
      const k = rng.pick(middleIndices(block.lines));
      const view = [...block.lines.slice(0, k + 1), block.lines[k]!, ...block.lines.slice(k + 1)];
      if (trimmedOccurrences(content, view) > 0) return undefined;
      return { content, oldString: view.join("\n"), newString: intendedEdit(rng, view, id).join("\n"), expected: null };
    }
    case "elided-middle": {
      const block = pickBlock(rng, source, 6, 12);
      if (!block) return undefined;
      const [first, second] = [block.lines[0]!, block.lines[1]!];
      const last = block.lines[block.lines.length - 1]!;
      const view = rng.next() < 0.5 ? [first, second, last] : [first, second, `${indentOf(block.lines[2]!)}// ...`, last];
      if (trimmedOccurrences(content, view) > 0) return undefined;
      return {
        content,
        oldString: view.join("\n"),
        newString: [first, `${second} // edit ${id}`, ...view.slice(2)].join("\n"),
        expected: null,
      };
    }
    case "broad-anchor": {
      // A first line that occurs once, its next line, and then a closing line whose first occurrence
      // below is at least six lines further down: the seed replaces everything in between.
      for (let attempt = 0; attempt < 80; attempt++) {
        const i = rng.int(0, source.lines.length - 10);
        const head = source.trimmed[i]!;
        if (head.length < 10 || source.lines[i]!.length > MAX_LINE || source.trimmed.filter((t) => t === head).length !== 1) continue;
        if (isBlank(source.lines[i + 1]!) || source.lines[i + 1]!.length > MAX_LINE) continue;
        const closers = new Set(["}", "};", "})", "});", "]", "];", ")", ");"]);
        let j = -1;
        for (let k = i + 2; k < Math.min(source.lines.length, i + 200); k++) {
          if (closers.has(source.trimmed[k]!)) {
            j = k;
            break;
          }
        }
        if (j < i + 6) continue;
        const view = [source.lines[i]!, source.lines[i + 1]!, source.lines[j]!];
        if (trimmedOccurrences(content, view) > 0) continue;
        return {
          content,
          oldString: view.join("\n"),
          newString: [view[0]!, `${view[1]} // edit ${id}`, view[2]!].join("\n"),
          expected: null,
        };
      }
      return undefined;
    }
    case "dup-exact":
    case "dup-reindented":
    case "dup-fuzzy": {
      const block = pickBlock(rng, source, 3, 12);
      if (!block) return undefined;
      const end = block.start + block.lines.length;
      let at = rng.int(0, source.lines.length - 1);
      if (at > block.start && at < end) at = end;
      const step = source.tabs ? "\t" : " ".repeat(source.unit);
      const copy = kind === "dup-exact" ? block.lines : reindent(block.lines, (i) => step + i);
      const inserted = `${copy.join("\n")}\n`;
      const insertAt = at < source.lines.length ? source.starts[at]! : content.length;
      const file = content.slice(0, insertAt) + inserted + content.slice(insertAt);
      const offset = insertAt <= block.offset ? block.offset + inserted.length : block.offset;
      const intended = intendedEdit(rng, block.lines, id);
      if (kind === "dup-exact") return { content: file, oldString: block.text, newString: intended.join("\n"), expected: null };
      if (kind === "dup-reindented") {
        if (countOf(file, block.text) !== 1) return undefined;
        return {
          content: file,
          oldString: block.text,
          newString: intended.join("\n"),
          expected: splice(file, offset, block.text.length, intended.join("\n")),
        };
      }
      const shifted = (i: string) => `  ${i}`;
      const old = reindent(block.lines, shifted).join("\n");
      if (countOf(file, old) !== 0) return undefined;
      return { content: file, oldString: old, newString: reindent(intended, shifted).join("\n"), expected: null };
    }
    case "absent": {
      const others = sources.filter((s) => s !== source);
      const other = rng.pick(others);
      const block = pickBlock(
        rng,
        other,
        3,
        12,
        (b) => trimmedOccurrences(content, b.lines) === 0 && anchoredWindows(content, b.lines) === 0,
      );
      if (!block) return undefined;
      return { content, oldString: block.text, newString: intendedEdit(rng, block.lines, id).join("\n"), expected: null };
    }
  }
}

export interface CorpusSpec {
  readonly seed: number;
  /** Paths from the repository's root. */
  readonly sources: readonly string[];
  readonly casesPerKind: number;
}

/** The tuning corpus: the one the policy's numbers were chosen against. */
export const TUNING_CORPUS: CorpusSpec = {
  seed: SEED,
  sources: SOURCES.map((name) => `node_modules/${name}`),
  casesPerKind: CASES_PER_KIND,
};

/** The corpus: `casesPerKind` cases of every kind, spread over the sources, the same on every run. */
export function generateEditCorpus(spec: CorpusSpec = TUNING_CORPUS): EditCase[] {
  const CASES_PER_KIND = spec.casesPerKind;
  const SEED = spec.seed;
  const sources = spec.sources.map(loadSource).filter((s): s is Source => s !== undefined);
  if (sources.length < 2) throw new Error("edit corpus: the source packages are missing from node_modules");
  const rng = prng(SEED);
  const cases: EditCase[] = [];
  for (const kind of KINDS) {
    let made = 0;
    for (let attempt = 0; made < CASES_PER_KIND && attempt < CASES_PER_KIND * 20; attempt++) {
      const source = rng.pick(sources);
      const built = build(kind, rng, source, sources, cases.length);
      if (!built || built.oldString === built.newString) continue;
      // A mangled oldString that happens to occur verbatim (its last line a prefix of a longer file line),
      // or elsewhere with only blank lines between its lines, has a legitimate match: it cannot stand for
      // "must refuse". (dup-exact and dup-fuzzy match twice on purpose; short-context is labelled by count.)
      const onPurpose = kind === "dup-exact" || kind === "dup-fuzzy" || kind === "short-context";
      if (
        built.expected === null &&
        !onPurpose &&
        (countOf(built.content, built.oldString) > 0 || looseOccurrences(built.content, built.oldString) > 0)
      )
        continue;
      cases.push({ id: cases.length, kind, source: source.name, ...built });
      made++;
    }
  }
  return cases;
}

type Verdict = "correctEdit" | "refusedExpected" | "refusedRightly" | "wrong";
interface Tally {
  correctEdit: number;
  refusedExpected: number;
  refusedRightly: number;
  wrong: number;
}

/**
 * correctEdit: the result is the expected file exactly; refusedRightly: an EditMatchError where refusal
 * was the answer; refusedExpected: an EditMatchError where an edit was; wrong: any other result (a file
 * that differs from the expected one, or any edit where refusal was the answer).
 */
function judge(edit: EditCase, policy: EditPolicy): Verdict {
  try {
    const result = replace(edit.content, edit.oldString, edit.newString, { policy });
    return edit.expected !== null && result.content === edit.expected ? "correctEdit" : "wrong";
  } catch (error) {
    if (!(error instanceof EditMatchError)) throw error;
    return edit.expected === null ? "refusedRightly" : "refusedExpected";
  }
}

const empty = (): Tally => ({ correctEdit: 0, refusedExpected: 0, refusedRightly: 0, wrong: 0 });
const POLICY_NAMES = ["seed", "safe"] as const;

/** Both policies over one corpus: totals, per kind, and the first ids that went wrong. */
export function measureCorpus(label: string, cases: readonly EditCase[]) {
  const started = performance.now();
  const report = Object.fromEntries(
    POLICY_NAMES.map((policy) => [policy, { ...empty(), byKind: {} as Record<string, Tally>, wrongCases: [] as number[] }]),
  ) as Record<EditPolicy, Tally & { byKind: Record<string, Tally>; wrongCases: number[] }>;
  for (const edit of cases) {
    for (const policy of POLICY_NAMES) {
      const verdict = judge(edit, policy);
      const totals = report[policy];
      totals[verdict]++;
      if (verdict === "wrong" && totals.wrongCases.length < 25) totals.wrongCases.push(edit.id);
      (totals.byKind[edit.kind] ??= empty())[verdict]++;
    }
  }
  const ms = Math.round(performance.now() - started);
  const lines = [
    `${label}: ${cases.length} cases from ${new Set(cases.map((c) => c.source)).size} source files, ${ms} ms`,
    `  cells: correct edit / refused where an edit was expected / refused rightly / wrong`,
    `${"kind".padEnd(24)} ${"n".padStart(3)}  ${"expect".padEnd(7)} ${"seed (OpenCode)".padStart(18)}   ${"safe (ours)".padStart(18)}`,
  ];
  const cell = (t: Tally | undefined) =>
    `${t?.correctEdit ?? 0} / ${t?.refusedExpected ?? 0} / ${t?.refusedRightly ?? 0} / ${t?.wrong ?? 0}`.padStart(18);
  for (const kind of KINDS) {
    const ofKind = cases.filter((c) => c.kind === kind);
    if (ofKind.length === 0) continue;
    const expect = ofKind.every((c) => c.expected === null) ? "refuse" : ofKind.every((c) => c.expected !== null) ? "edit" : "mixed";
    lines.push(
      `${kind.padEnd(24)} ${String(ofKind.length).padStart(3)}  ${expect.padEnd(7)} ${cell(report.seed.byKind[kind])}   ${cell(report.safe.byKind[kind])}`,
    );
  }
  lines.push(`${"total".padEnd(24)} ${String(cases.length).padStart(3)}  ${"".padEnd(7)} ${cell(report.seed)}   ${cell(report.safe)}`);
  return {
    table: lines.join("\n"),
    cases: cases.length,
    sources: new Set(cases.map((c) => c.source)).size,
    ms,
    seed: report.seed,
    safe: report.safe,
  };
}

export async function benchEditCorpus() {
  const tuning = measureCorpus("edit corpus (tuning)", generateEditCorpus(TUNING_CORPUS));
  // Never looked at while choosing thresholds or strategies: see bench/edit-corpus-heldout.ts.
  const heldOut = measureCorpus("edit corpus (held out)", generateEditCorpus(HELD_OUT_CORPUS));
  console.error(`${tuning.table}\n\n${heldOut.table}`);
  const { table: _t, ...tuningData } = tuning;
  const { table: _h, ...heldOutData } = heldOut;
  return {
    benchmark: "edit-corpus",
    thresholds: {
      seed: {
        singleCandidate: POLICIES.seed.blockAnchor.singleCandidateThreshold,
        multipleCandidates: POLICIES.seed.blockAnchor.multipleCandidatesThreshold,
      },
      safe: {
        middleLinesAverage: SAFE_BLOCK_ANCHOR_THRESHOLD,
        everyMiddleLine: SAFE_MIDDLE_LINE_SIMILARITY,
        spanNonBlankLines: "equal to oldString's",
        maxInk: `${SAFE_MAX_INK_RATIO} x oldString + ${SAFE_INK_SLACK}`,
      },
    },
    tuning: tuningData,
    heldOut: heldOutData,
  };
}
