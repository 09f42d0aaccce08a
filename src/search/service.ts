/**
 * The search as a service: what a runtime offers its tools (and `workbench rg`), whether the search
 * runs right here over a file system (`createLocalSearchService`) or beside the files in a worker (the
 * embedded runtime's client speaks the same interface). Queries are plain data, so they can cross a
 * message port; the signal and the message callback stay with the caller.
 */
import type { SearchFs } from "./fs.js";
import type { FileResult } from "./results.js";
import { Search, type SearchOptions } from "./search.js";
import { walk as walkWithStats, Walker, type MessageKind, type WalkOptions } from "./walk.js";

/** A grep: everything SearchOptions says except what cannot cross a message port. */
export type SearchQuery = Omit<SearchOptions, "signal" | "onMessage" | "matcher" | "concurrency">;

/** A file listing (rg --files); `stat` adds each file's size and modification time (glob sorts by it). */
export type ListQuery = Omit<WalkOptions, "signal" | "onMessage" | "concurrency"> & { stat?: boolean };

export interface ListedFile {
  path: string;
  displayPath: string;
  /** With `stat` only. */
  mtimeMs?: number;
  size?: number;
}

export interface SearchCallOptions {
  signal?: AbortSignal;
  /** ripgrep's messages as they happen: errors make `stats().errored` true (rg exits 2), warnings do not. */
  onMessage?: (text: string, kind: MessageKind) => void;
}

export interface SearchStats {
  /** An error was reported along the way (rg would exit 2). */
  errored: boolean;
  /** Files opened and searched (0 for a listing). */
  filesSearched: number;
}

/** Results one by one, and how the run went once they are all out. */
export interface SearchRun<T> extends AsyncIterable<T> {
  /** Final once iteration has ended; before that, the counts so far. */
  stats(): SearchStats;
}

export interface SearchService {
  /**
   * Matching lines file by file, in ripgrep's path order. Throws SearchPatternError for a bad pattern
   * and GlobError for a bad glob when iteration starts.
   */
  search(query: SearchQuery, options?: SearchCallOptions): SearchRun<FileResult>;
  /** The files a search would look at, in the same order. */
  list(query: ListQuery, options?: SearchCallOptions): SearchRun<ListedFile>;
}

/** A run whose results are produced by `produce`, which reports into `stats` as it goes. */
function runOf<T>(produce: (stats: SearchStats) => AsyncGenerator<T>): SearchRun<T> {
  const stats: SearchStats = { errored: false, filesSearched: 0 };
  return {
    stats: () => ({ ...stats }),
    [Symbol.asyncIterator]: () => produce(stats),
  };
}

/** The search running in this thread over `fs` (the node runtime's files, or the files a worker holds). */
export function createLocalSearchService(fs: SearchFs): SearchService {
  return {
    search: (query, options = {}) =>
      runOf(async function* (stats) {
        const search = new Search(fs, { ...query, signal: options.signal, onMessage: options.onMessage });
        try {
          for await (const result of search.files()) {
            stats.filesSearched = search.filesSearched;
            yield result;
          }
        } finally {
          stats.filesSearched = search.filesSearched;
          stats.errored = search.errored;
        }
      }),
    list: (query, options = {}) =>
      runOf(async function* (stats) {
        const { stat = false, ...walk } = query;
        const walker = new Walker(fs, { ...walk, signal: options.signal, onMessage: options.onMessage });
        try {
          if (stat) yield* walkWithStats(fs, walk, walker);
          else for await (const file of walker.files()) yield { path: file.path, displayPath: file.displayPath };
        } finally {
          stats.errored = walker.errored;
        }
      }),
  };
}
