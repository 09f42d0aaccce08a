/**
 * The search: walk (walk.ts), read each file, decode and apply ripgrep's binary rules (binary.ts),
 * and report the matching lines (matcher.ts). Files are read ahead in parallel while earlier ones
 * are matched; results come out in the walk's deterministic order.
 */
import { byteOrderMark, decodeForSearch, searchedBeforeBuffer, BUFFER_CAPACITY, type BinaryMode } from "./binary.js";
import { describeFsError, type SearchFs } from "./fs.js";
import { SearchDeadlineError } from "./errors.js";
import { compilePattern, type Matcher } from "./matcher.js";
import { MatchBudget } from "./regex/budget.js";
import { ResultPacker, unpackResults } from "./packed-results.js";
import type { FileHits, FileResult, SearchEvent, SearchMatch } from "./results.js";
import { resolvePath } from "./path.js";
import { ownsPath, type Shard } from "./shard.js";
import { abortError, Limiter, readPathOf, Walker, type WalkedFile, type WalkOptions } from "./walk.js";

export interface SearchOptions extends WalkOptions {
  /** ripgrep patterns (Rust regex syntax); several are joined with `|`, like repeated `-e`. */
  patterns: string[];
  /** rg -i. */
  caseInsensitive?: boolean;
  /** A matcher compiled beforehand (then `patterns` and `caseInsensitive` are not used). */
  matcher?: Matcher;
  /** Work out match positions (`matches`); on by default. */
  positions?: boolean;
  /**
   * Search only this share of the files (several searchers splitting one search, see shard.ts). All
   * shares walk the whole tree; only share 0 reports what the walk says.
   */
  shard?: Shard;
  /** How long the search may run before it stops with SearchDeadlineError (default SEARCH_DEADLINE_MS). */
  deadlineMs?: number;
}

/**
 * How long one search may run (2 minutes): a costly pattern (`a{1000}{1000}` on a long line) must end with
 * an error the model can act on rather than hold the runtime for an hour.
 */
export const SEARCH_DEADLINE_MS = 120_000;

/** Files read ahead of the one being searched (their reads overlap the search of earlier ones). */
const READ_AHEAD = 64;

/** One search over a file tree; `events()` runs it, the counters tell how it went. */
export class Search {
  readonly walker: Walker;
  readonly matcher: Matcher;
  /** Files opened and searched. */
  filesSearched = 0;
  /** Lines that matched. */
  matchedLines = 0;
  /**
   * Files of the walk dealt with so far, in walk order (whether searched, unreadable or another
   * share's): every later hit comes from a file at this walk position or after it.
   */
  settled = 0;
  /**
   * Told before each file of the walk is dealt with, with `settled` as it stands then: every hit from
   * the files before has been handed out already. (A searcher splitting a search reports its progress
   * from here, when it has found nothing for a while.)
   */
  onProgress?: (settled: number) => void;
  private readonly fs: SearchFs;
  private readonly options: SearchOptions;

  /** Throws SearchPatternError (bad pattern) or GlobError (bad --glob). */
  constructor(fs: SearchFs, options: SearchOptions) {
    this.fs = fs;
    this.options = options;
    this.matcher = options.matcher ?? compilePattern(options.patterns, { caseInsensitive: options.caseInsensitive });
    const shard = options.shard;
    this.walker = new Walker(fs, shard && shard.index > 0 ? { ...options, onMessage: undefined } : options);
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
      paths.map((p) =>
        this.fs.stat(resolvePath(this.options.root, p)).then(
          (s) => s.type,
          () => undefined,
        ),
      ),
    );
    return stats.every((type) => type === "file") ? "slice" : "convert";
  }

  /** The results file by file (only files with a matching line or a binary notice), in walk order. */
  async *files(): AsyncGenerator<FileResult> {
    const positions = this.options.positions ?? true;
    for await (const { file, hits } of this.hits()) yield packOne(file, hits, this.matcher, positions);
  }

  /**
   * The results as FileHits (no text made yet), file by file in walk order, each with its position in
   * the walk (`seq`). Each one's `data` is only good until the next is asked for.
   */
  async *hits(): AsyncGenerator<{ file: WalkedFile; hits: FileHits; seq: number }> {
    const explicitMode = await this.explicitMode();
    const limiter = new Limiter(this.options.concurrency ?? 32);
    const signal = this.options.signal;
    const shard = this.options.shard;
    const deadlineMs = this.options.deadlineMs ?? SEARCH_DEADLINE_MS;
    const deadline = Date.now() + deadlineMs;
    // Checked before each file and, through the budget, inside a long match of one file.
    const check = () => {
      if (signal?.aborted) throw abortError(signal);
      if (Date.now() > deadline) throw new SearchDeadlineError(deadlineMs);
    };
    this.matcher.setBudget(new MatchBudget(check));
    /** Another share's file keeps its place in the window with no content. */
    const window: Array<{ file: WalkedFile; content: Uint8Array | Promise<Uint8Array | Error> | undefined }> = [];
    const read = (file: WalkedFile) =>
      shard && !ownsPath(shard, file.path)
        ? undefined
        : (this.fs.readNow?.(readPathOf(file)) ??
          limiter
            .run(() => this.fs.readFile(readPathOf(file)))
            .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))));
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
        check();
        this.onProgress?.(this.settled);
        const seq = this.settled++;
        if (content === undefined) continue;
        if (content instanceof Error) {
          this.walker.errored = true;
          this.options.onMessage?.(`${head.file.displayPath}: ${describeFsError(content)}`, "error");
          continue;
        }
        this.filesSearched++;
        const hits = findHits(this.matcher, content, head.file.explicit ? explicitMode : "quit");
        if (!hits) continue;
        this.matchedLines += hits.lines.length / 2;
        yield { file: head.file, hits, seq };
      }
    } finally {
      this.matcher.setBudget(undefined);
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

/** ripgrep's binary rules for `mode`, then the matching lines; undefined when nothing matched. */
export function findHits(matcher: Matcher, bytes: Uint8Array, mode: BinaryMode): FileHits | undefined {
  const { data, peeked } = decodeForSearch(bytes);
  let lines: number[] = [];
  const collect = (s: number, e: number) => void lines.push(s, e);
  let binary: { offset: number; stopped: boolean } | undefined;
  let nul: number;
  // A big file with a NUL in its first buffer (an executable, an archive): ripgrep looks no further,
  // and neither need we (searching all of it first would cost the whole file).
  const early = mode === "quit" && data.length > BUFFER_CAPACITY ? firstBufferNul(data) : -1;
  if (mode === "convert") nul = data.indexOf(0);
  else if (early >= 0) nul = early;
  else {
    // What ripgrep searches of a binary file is a subset of its lines: with no match in the whole
    // file, there is nothing to report and no need to look for a NUL.
    matcher.forEachMatchingLine(data, 0, data.length, collect);
    if (lines.length === 0) return undefined;
    nul = data.indexOf(0);
    if (nul >= 0) lines = [];
  }
  if (nul < 0) {
    if (mode === "convert") matcher.forEachMatchingLine(data, 0, data.length, collect);
  } else if (mode === "quit") {
    const end = searchedBeforeBuffer(data, peeked, nul);
    matcher.forEachMatchingLine(data, 0, end, collect);
    if (lines.length > 0) binary = { offset: nul, stopped: true };
  } else if (mode === "convert") {
    const boundary = searchedBeforeBuffer(data, peeked, nul);
    matcher.forEachMatchingLine(data, 0, boundary, collect);
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
      lines.push(s, e);
      return !stop;
    });
  }
  if (lines.length === 0 && !binary) return undefined;
  return { data, lines, binary };
}

/** Where the first NUL is within ripgrep's first buffer of `data`, or -1. */
function firstBufferNul(data: Uint8Array): number {
  return data.subarray(0, BUFFER_CAPACITY).indexOf(0);
}

/**
 * Would a walked file ("quit") whose first bytes are `prefix` give the same hits from `prefix` alone?
 * Yes when a NUL shows in ripgrep's first buffer (it stops there): a reader may stop reading.
 */
export function quitsWithin(prefix: Uint8Array): boolean {
  // A byte-order mark changes the bytes searched (UTF-16 is transcoded): no shortcut then.
  return byteOrderMark(prefix) === undefined && firstBufferNul(prefix) >= 0;
}

/** Reused by packOne: one file at a time, unpacked at once. */
const onePacker = new ResultPacker();

/** One file's hits as a FileResult, made by the same packing every search thread and worker uses. */
function packOne(file: { path: string; displayPath: string }, hits: FileHits, matcher: Matcher, positions: boolean): FileResult {
  try {
    onePacker.add(0, hits, matcher, positions);
    return unpackResults(onePacker.finish(), () => file)[0]!.result;
  } finally {
    onePacker.clear();
  }
}

/**
 * Searches one file's bytes: ripgrep's binary rules for `mode`, then the matching lines; undefined when
 * nothing matched. Keeps nothing of `bytes`, so a caller may reuse them.
 */
export function searchBytes(
  matcher: Matcher,
  file: { path: string; displayPath: string },
  bytes: Uint8Array,
  mode: BinaryMode,
  positions: boolean,
): FileResult | undefined {
  const hits = findHits(matcher, bytes, mode);
  if (!hits) return undefined;
  return packOne(file, hits, matcher, positions);
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
