/**
 * The search: walk (walk.ts), read each file, decode and apply ripgrep's binary rules (binary.ts),
 * and report the matching lines (matcher.ts). Files are read ahead in parallel while earlier ones
 * are matched; results come out in the walk's deterministic order.
 */
import { decodeForSearch, searchedBeforeBuffer, BUFFER_CAPACITY, type BinaryMode } from "./binary.js";
import { describeFsError, type SearchFs } from "./fs.js";
import { compilePattern, type Matcher, type MatchSpan } from "./matcher.js";
import { resolvePath } from "./path.js";
import { abortError, Limiter, Walker, type WalkedFile, type WalkOptions } from "./walk.js";

export interface SearchOptions extends WalkOptions {
  /** ripgrep patterns (Rust regex syntax); several are joined with `|`, like repeated `-e`. */
  patterns: string[];
  /** rg -i. */
  caseInsensitive?: boolean;
  /** A matcher compiled beforehand (then `patterns` and `caseInsensitive` are not used). */
  matcher?: Matcher;
  /** Work out match positions (`matches`); on by default. */
  positions?: boolean;
}

export interface SearchMatch {
  /** Absolute path of the file. */
  path: string;
  /** The path as ripgrep prints it. */
  displayPath: string;
  /** 1-based. */
  lineNumber: number;
  /** The line without its terminator (a final `\r` is part of the terminator); invalid UTF-8 as U+FFFD. */
  line: string;
  /** What ended the line in the file: "\n", "\r\n", "\r" (at the end of the file) or "". */
  lineEnding: string;
  /** Where the pattern matched, as UTF-16 offsets into `line`. */
  matches: MatchSpan[];
}

/** ripgrep's note that a binary file matched (its lines are not shown past the first NUL). */
export interface SearchBinaryNotice {
  path: string;
  displayPath: string;
  /** Offset of the NUL byte ripgrep reports ("around offset N"). */
  offset: number;
  /**
   * true: a walked file, searched until its first NUL ("WARNING: stopped searching binary file after
   * match"); false: a file named explicitly ("binary file matches").
   */
  stopped: boolean;
}

/** Everything one file gave. */
export interface FileResult {
  path: string;
  displayPath: string;
  matches: SearchMatch[];
  binary?: SearchBinaryNotice;
}

export type SearchEvent = ({ type: "match" } & SearchMatch) | ({ type: "binary" } & SearchBinaryNotice);

const decoder = new TextDecoder();
/** Files read ahead of the one being searched (their reads overlap the search of earlier ones). */
const READ_AHEAD = 64;
/** Past this many matching lines in a file, it is decoded once rather than line by line. */
const WHOLE_DECODE_LINES = 8;

/** UTF-16 offsets in the decoded line for byte offsets relative to the line's start. */
function toUtf16(bytes: Uint8Array, text: string, byteOffsets: number[]): number[] {
  if (text.length === bytes.length) return byteOffsets.map((b) => Math.min(b, text.length));
  return byteOffsets.map((b) => Math.min(decoder.decode(bytes.subarray(0, b)).length, text.length));
}

/** One search over a file tree; `events()` runs it, the counters tell how it went. */
export class Search {
  readonly walker: Walker;
  readonly matcher: Matcher;
  /** Files opened and searched. */
  filesSearched = 0;
  /** Lines that matched. */
  matchedLines = 0;
  private readonly fs: SearchFs;
  private readonly options: SearchOptions;

  /** Throws SearchPatternError (bad pattern) or GlobError (bad --glob). */
  constructor(fs: SearchFs, options: SearchOptions) {
    this.fs = fs;
    this.options = options;
    this.matcher = options.matcher ?? compilePattern(options.patterns, { caseInsensitive: options.caseInsensitive });
    this.walker = new Walker(fs, options);
  }

  /** An error was reported along the way (rg would exit 2). */
  get errored(): boolean {
    return this.walker.errored;
  }

  /**
   * How files named on the command line are searched: ripgrep memory-maps (and so treats binary files
   * differently) when given at most 10 paths, all files. Walked files are always "quit".
   */
  async explicitMode(): Promise<BinaryMode> {
    const paths = this.options.paths ?? [];
    if (paths.length === 0 || paths.length > 10) return "convert";
    const stats = await Promise.all(
      paths.map((p) => this.fs.stat(resolvePath(this.options.root, p)).then((s) => s.type, () => undefined)),
    );
    return stats.every((type) => type === "file") ? "slice" : "convert";
  }

  /** The results file by file (only files with a matching line or a binary notice), in walk order. */
  async *files(): AsyncGenerator<FileResult> {
    const explicitMode = await this.explicitMode();
    const limiter = new Limiter(this.options.concurrency ?? 32);
    const signal = this.options.signal;
    const window: Array<{ file: WalkedFile; content: Uint8Array | Promise<Uint8Array | Error> }> = [];
    const read = (file: WalkedFile) =>
      this.fs.readNow?.(file.path) ??
      limiter.run(() => this.fs.readFile(file.path)).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    // One loop for reading ahead and for the tail: a file leaves the window once READ_AHEAD more have
    // been walked, or when the walk is over.
    const walked = this.walker.files()[Symbol.asyncIterator]();
    let walking = true;
    try {
      for (;;) {
        if (walking && window.length <= READ_AHEAD) {
          const next = await walked.next();
          if (next.done) walking = false;
          else window.push({ file: next.value, content: read(next.value) });
          continue;
        }
        const head = window.shift();
        if (!head) return;
        const content = head.content instanceof Promise ? await head.content : head.content;
        if (signal?.aborted) throw abortError(signal);
        if (content instanceof Error) {
          this.walker.errored = true;
          this.options.onMessage?.(`${head.file.displayPath}: ${describeFsError(content)}`, "error");
          continue;
        }
        this.filesSearched++;
        const result = this.searchFile(head.file, content, head.file.explicit ? explicitMode : "quit");
        if (result) yield result;
      }
    } finally {
      // Stopped early (a reader broke off, or an error): the walk stops too.
      if (walking) await walked.return?.(undefined);
    }
  }

  /** Matching lines and binary notices, one by one. */
  async *events(): AsyncGenerator<SearchEvent> {
    for await (const result of this.files()) {
      for (const match of result.matches) yield { type: "match", ...match };
      if (result.binary) yield { type: "binary", ...result.binary };
    }
  }

  /** Searches one file's bytes; undefined when nothing matched. */
  searchFile(file: { path: string; displayPath: string }, bytes: Uint8Array, mode: BinaryMode): FileResult | undefined {
    const result = searchBytes(this.matcher, file, bytes, mode, this.options.positions ?? true);
    if (result) this.matchedLines += result.matches.length;
    return result;
  }
}

/**
 * Searches one file's bytes: ripgrep's binary rules for `mode`, then the matching lines; undefined when
 * nothing matched. Keeps nothing of `bytes` (every text is a fresh string), so a caller may reuse them.
 */
export function searchBytes(
matcher: Matcher,
file: { path: string; displayPath: string },
bytes: Uint8Array,
mode: BinaryMode,
positions: boolean,
): FileResult | undefined {
  const { data, peeked } = decodeForSearch(bytes);
  let lines: Array<[number, number]> = [];
  let binary: { offset: number; stopped: boolean } | undefined;
  let nul: number;
  if (mode === "convert") nul = data.indexOf(0);
  else {
    // What ripgrep searches of a binary file is a subset of its lines: with no match in the whole
    // file, there is nothing to report and no need to look for a NUL.
    matcher.forEachMatchingLine(data, 0, data.length, (s, e) => void lines.push([s, e]));
    if (lines.length === 0) return undefined;
    nul = data.indexOf(0);
    if (nul >= 0) lines = [];
  }
  if (nul < 0) {
    if (mode === "convert") matcher.forEachMatchingLine(data, 0, data.length, (s, e) => void lines.push([s, e]));
  } else if (mode === "quit") {
    const end = searchedBeforeBuffer(data, peeked, nul);
    matcher.forEachMatchingLine(data, 0, end, (s, e) => void lines.push([s, e]));
    if (lines.length > 0) binary = { offset: nul, stopped: true };
  } else if (mode === "convert") {
    const boundary = searchedBeforeBuffer(data, peeked, nul);
    matcher.forEachMatchingLine(data, 0, boundary, (s, e) => void lines.push([s, e]));
    let more = false;
    if (boundary < data.length) {
      // From there on ripgrep reads NULs as line ends; a match anywhere stops it.
      // A copy whatever `data` is (a node Buffer's slice would share, and this one is written to).
      const rest = Uint8Array.prototype.slice.call(data, boundary);
      for (let k = rest.indexOf(0); k >= 0; k = rest.indexOf(0, k + 1)) rest[k] = 10;
      matcher.forEachMatchingLine(rest, 0, rest.length, () => {
        more = true;
        return false;
      });
    }
    if (lines.length > 0 || more) binary = { offset: nul, stopped: false };
  } else {
    const upfront = nul < BUFFER_CAPACITY;
    let stop = false;
    matcher.forEachMatchingLine(data, 0, data.length, (s, e) => {
      if (upfront) {
        binary = { offset: nul, stopped: false };
        return false;
      }
      const stopAt = data.subarray(s, Math.min(e + 1, data.length)).indexOf(0);
      if (stopAt >= 0) {
        binary = { offset: s + stopAt, stopped: false };
        stop = true;
        return false;
      }
      lines.push([s, e]);
      return !stop;
    });
  }
  if (lines.length === 0 && !binary) return undefined;
  const matches: SearchMatch[] = [];
  let lineNumber = 1;
  let counted = 0;
  // With many matching lines, one decode of the whole file beats one per line; its slices are the
  // lines' own texts when every byte became one UTF-16 unit (ASCII, or lone invalid bytes).
  let whole: string | undefined;
  if (lines.length > WHOLE_DECODE_LINES) {
    const text = decoder.decode(data);
    if (text.length === data.length) whole = text;
  }
  for (const [start, end] of lines) {
    for (let k = data.indexOf(10, counted); k >= 0 && k < start; k = data.indexOf(10, k + 1)) lineNumber++;
    counted = start;
    let textEnd = end;
    if (textEnd > start && data[textEnd - 1] === 13) textEnd--;
    // A view per line costs an object (a Buffer's, several): only made when it is used.
    const line = whole !== undefined ? whole.slice(start, textEnd) : decoder.decode(data.subarray(start, textEnd));
    const lineEnding = (textEnd < end ? "\r" : "") + (data[end] === 10 ? "\n" : "");
    let spans: MatchSpan[] = [];
    if (positions) {
      const found = matcher.findAll(data, start, end);
      const offsets = toUtf16(
        data.subarray(start, textEnd),
        line,
        found.flatMap(([s, e]) => [s - start, e - start]),
      );
      spans = found.map((_, k) => ({ start: offsets[2 * k]!, end: offsets[2 * k + 1]! }));
    }
    matches.push({ path: file.path, displayPath: file.displayPath, lineNumber, line, lineEnding, matches: spans });
  }
  return {
    path: file.path,
    displayPath: file.displayPath,
    matches,
    binary: binary && { path: file.path, displayPath: file.displayPath, ...binary },
  };
}

/** Results file by file, in walk order: the cheapest way to consume a large result. */
export async function* searchFiles(fs: SearchFs, options: SearchOptions): AsyncGenerator<FileResult> {
  yield* new Search(fs, options).files();
}

/** Matching lines and binary notices, in walk order. */
export async function* searchEvents(fs: SearchFs, options: SearchOptions): AsyncGenerator<SearchEvent> {
  yield* new Search(fs, options).events();
}

/** Matching lines, in walk order (files ripgrep would skip as binary are skipped). */
export async function* search(fs: SearchFs, options: SearchOptions): AsyncGenerator<SearchMatch> {
  for await (const result of new Search(fs, options).files()) yield* result.matches;
}
