/**
 * The apply_patch text format:
 *
 *   *** Begin Patch
 *   *** Add File: <path>            then `+` lines (the new file's contents)
 *   *** Delete File: <path>
 *   *** Update File: <path>
 *   *** Move to: <path>             optional, renames the updated file
 *   @@ <a line to locate first>     or a bare `@@`; then ` ` context, `-` removed, `+` added lines
 *   *** End of File                 optional, the chunk's lines end the file
 *   *** End Patch
 *
 * Parsing is tolerant in the ways models need: markers may sit anywhere in the text (whatever wraps the
 * patch, such as a heredoc `cat <<'EOF'` … `EOF`, a code fence or prose, is outside the markers and
 * ignored), are compared after trimming, and CRLF text is read as LF.
 */
import { PatchError } from "./errors.js";
import type { PatchHunk, UpdateChunk } from "./types.js";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const END_OF_FILE = "*** End of File";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";

interface Line {
  text: string;
  /** 1-based line number in the patch text, for error messages. */
  number: number;
}

type Header =
  | { kind: "add" | "delete" | "update" | "move"; path: string }
  | { kind: "endOfFile" }
  /** Some other `***` line: skipped. */
  | { kind: "unknown" };

/** Parses a patch into its file operations, in order. Throws PatchError. */
export function parsePatch(text: string): PatchHunk[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line, index): Line => ({ text: line, number: index + 1 }));
  const blocks = findBlocks(lines);
  if (blocks.every((block) => block.every((line) => line.text.trim() === ""))) {
    throw new PatchError("empty", "patch rejected: empty patch");
  }
  const hunks = blocks.flatMap(parseBlock);
  if (hunks.length === 0) throw new PatchError("no_hunks", "no hunks found");
  return hunks;
}

/**
 * The lines between each `*** Begin Patch` and the `*** End Patch` after it. Several blocks in one text
 * are read as one patch.
 */
function findBlocks(lines: readonly Line[]): Line[][] {
  const blocks: Line[][] = [];
  let current: Line[] | undefined;
  let opened: Line | undefined;
  for (const line of lines) {
    const trimmed = line.text.trim();
    if (current === undefined) {
      if (trimmed === BEGIN) {
        current = [];
        opened = line;
      }
    } else if (trimmed === END) {
      blocks.push(current);
      current = undefined;
    } else {
      current.push(line);
    }
  }
  if (current !== undefined) {
    throw new PatchError(
      "invalid",
      `Invalid patch: '${BEGIN}' on line ${opened?.number ?? 1} is never closed. The last line of the patch must be '${END}'; ` +
        "if the patch was cut short, send it again in full.",
    );
  }
  if (blocks.length === 0) {
    throw new PatchError(
      "invalid",
      `Invalid patch: the first line of the patch must be '${BEGIN}' and the last line '${END}'. ` +
        `Put the file operations ('${ADD} <path>', '${UPDATE} <path>', '${DELETE} <path>') between those two lines.`,
    );
  }
  return blocks;
}

/**
 * A marker line, or undefined for content. Lines starting with `+` or `-` are always content. Known
 * markers are recognized after trimming (a model may indent them); an unknown `***` line only when it
 * starts the line, so a context line such as ` *** bold ***` stays content.
 */
function readHeader(text: string): Header | undefined {
  if (text.startsWith("+") || text.startsWith("-")) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith("***")) return undefined;
  for (const [marker, kind] of [
    [ADD, "add"],
    [DELETE, "delete"],
    [UPDATE, "update"],
    [MOVE, "move"],
  ] as const) {
    if (trimmed.startsWith(marker)) return { kind, path: trimmed.slice(marker.length).trim() };
  }
  if (trimmed === END_OF_FILE) return { kind: "endOfFile" };
  return text.startsWith("***") ? { kind: "unknown" } : undefined;
}

const MARKER_NAMES = { add: ADD, delete: DELETE, update: UPDATE, move: MOVE } as const;

function parseBlock(lines: readonly Line[]): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  let section: Section | undefined;
  const close = () => {
    if (section) hunks.push(section.finish());
    section = undefined;
  };
  for (const line of lines) {
    const header = readHeader(line.text);
    if (header === undefined) {
      // Lines before the first file operation (prose, `diff --git` headers) are ignored.
      section?.line(line);
      continue;
    }
    if (header.kind === "unknown") continue;
    if (header.kind === "endOfFile") {
      section?.endOfFile();
      continue;
    }
    if (header.path === "") {
      throw new PatchError(
        "invalid",
        `Invalid patch line ${line.number}: '${MARKER_NAMES[header.kind]}' needs a path, e.g. '${MARKER_NAMES[header.kind]} src/app.ts'.`,
      );
    }
    if (header.kind === "move") {
      if (!(section instanceof UpdateSection)) {
        throw new PatchError(
          "invalid",
          `Invalid patch line ${line.number}: '${MOVE}' must belong to an '${UPDATE} <path>' section (it renames the updated file).`,
        );
      }
      section.movePath = header.path;
      continue;
    }
    close();
    if (header.kind === "add") section = new AddSection(header.path);
    else if (header.kind === "delete") section = new DeleteSection(header.path);
    else section = new UpdateSection(header.path, line.number);
  }
  close();
  return hunks;
}

interface Section {
  line(line: Line): void;
  endOfFile(): void;
  finish(): PatchHunk;
}

/** `\ No newline at end of file`, as unified diffs write it: not a line of the file. */
const isNoNewlineNote = (text: string) => text.startsWith("\\");

/**
 * `*** Add File:` contents. `+` lines are the file; a line without the prefix is kept as written (an
 * empty one is an empty line) rather than dropped, since a model that forgets a `+` still means the
 * line. Empty lines with no prefix at the start and end of the section are separators and dropped.
 */
class AddSection implements Section {
  private readonly lines: Array<{ text: string; bare: boolean }> = [];

  constructor(private readonly path: string) {}

  line({ text }: Line): void {
    if (isNoNewlineNote(text)) return;
    if (text.startsWith("+")) this.lines.push({ text: text.slice(1), bare: false });
    else this.lines.push({ text, bare: true });
  }

  endOfFile(): void {}

  finish(): PatchHunk {
    const lines = trimBareEmpty(this.lines, true);
    return { type: "add", path: this.path, contents: lines.map((line) => `${line.text}\n`).join("") };
  }
}

/** `*** Delete File:`: whatever follows until the next marker (e.g. the old contents) is ignored. */
class DeleteSection implements Section {
  constructor(private readonly path: string) {}
  line(): void {}
  endOfFile(): void {}
  finish(): PatchHunk {
    return { type: "delete", path: this.path };
  }
}

interface ChunkLine {
  kind: " " | "-" | "+";
  text: string;
  /** Written without a prefix. */
  bare: boolean;
}

interface OpenChunk {
  context?: string;
  lines: ChunkLine[];
  endOfFile: boolean;
}

/** A unified-diff hunk header `@@ -12,5 +12,6 @@ text`: the numbers are dropped, the text kept as context. */
const UNIFIED_RANGE = /^\s*-\d+(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@\s?(.*)$/;

class UpdateSection implements Section {
  movePath: string | undefined;
  private readonly chunks: UpdateChunk[] = [];
  private open: OpenChunk | undefined;
  private sawChunkHeader = false;
  /** Lines before the first `@@`: ignored, unless the section has no `@@` at all. */
  private readonly leading: OpenChunk = { lines: [], endOfFile: false };

  constructor(
    private readonly path: string,
    private readonly headerLine: number,
  ) {}

  line({ text }: Line): void {
    if (text.startsWith("@@")) {
      this.closeChunk();
      this.sawChunkHeader = true;
      this.open = { lines: [], endOfFile: false };
      const context = chunkContext(text.slice(2));
      if (context !== undefined) this.open.context = context;
      return;
    }
    if (isNoNewlineNote(text)) return;
    let target: OpenChunk;
    if (!this.sawChunkHeader) target = this.leading;
    else target = this.open ??= { lines: [], endOfFile: false };
    target.lines.push(chunkLine(text));
  }

  endOfFile(): void {
    if (!this.sawChunkHeader) {
      this.leading.endOfFile = true;
      return;
    }
    if (this.open) {
      this.open.endOfFile = true;
      this.closeChunk();
    } else {
      const previous = this.chunks.at(-1);
      if (previous) previous.endOfFile = true;
    }
  }

  finish(): PatchHunk {
    this.closeChunk();
    // No `@@` anywhere: the lines after the header are one chunk (the original grammar lets the first
    // chunk go without `@@`). With an `@@` somewhere, lines before it are ignored.
    if (!this.sawChunkHeader) this.pushChunk(this.leading);
    if (this.chunks.length === 0 && this.movePath === undefined) {
      throw new PatchError(
        "invalid",
        `Invalid patch line ${this.headerLine}: '${UPDATE} ${this.path}' has no changes. Follow it with '@@' and the chunk's ` +
          "lines: ' ' for context, '-' for removed, '+' for added.",
      );
    }
    const hunk: PatchHunk = { type: "update", path: this.path, chunks: this.chunks };
    if (this.movePath !== undefined) hunk.movePath = this.movePath;
    return hunk;
  }

  private closeChunk(): void {
    if (this.open) this.pushChunk(this.open);
    this.open = undefined;
  }

  private pushChunk(chunk: OpenChunk): void {
    const lines = trimBareEmpty(chunk.lines, false);
    // An `@@ context` with no lines is kept: it moves the search past that line (consecutive `@@`
    // lines narrow down where the next chunk is).
    if (lines.length === 0 && chunk.context === undefined) return;
    const built: UpdateChunk = {
      oldLines: lines.filter((line) => line.kind !== "+").map((line) => line.text),
      newLines: lines.filter((line) => line.kind !== "-").map((line) => line.text),
      endOfFile: chunk.endOfFile,
    };
    if (chunk.context !== undefined) built.context = chunk.context;
    this.chunks.push(built);
  }
}

/** The context of an `@@` line (text after `@@`), or undefined for a bare `@@`. */
function chunkContext(rest: string): string | undefined {
  const unified = UNIFIED_RANGE.exec(rest);
  const text = unified ? (unified[1] ?? "") : rest.startsWith(" ") ? rest.slice(1) : rest;
  const context = text.trimEnd();
  return context.trim() === "" ? undefined : context;
}

/**
 * A line inside a chunk. A line without a prefix is context: models drop the leading space, most often
 * on empty lines, and a dropped line would break the run of lines the chunk must match.
 */
function chunkLine(text: string): ChunkLine {
  const prefix = text[0];
  if (prefix === " " || prefix === "-" || prefix === "+") return { kind: prefix, text: text.slice(1), bare: false };
  return { kind: " ", text, bare: true };
}

/** Drops empty lines written without a prefix at the end (and, for added files, the start). */
function trimBareEmpty<T extends { text: string; bare: boolean }>(lines: readonly T[], leadingToo: boolean): T[] {
  const isSeparator = (line: T | undefined) => line !== undefined && line.bare && line.text.trim() === "";
  let from = 0;
  let to = lines.length;
  while (to > from && isSeparator(lines[to - 1])) to--;
  while (leadingToo && from < to && isSeparator(lines[from])) from++;
  return lines.slice(from, to);
}
