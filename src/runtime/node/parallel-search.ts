/**
 * The node runtime's search service: ripgrep's search (src/search) with the reading and matching
 * spread over the search threads (search-pool.ts), as ripgrep spreads them over its own.
 *
 * This thread walks, since the walk decides the order and the messages. A search starts here, one
 * file after another like the local service; once it has seen `handOffAfter` files and a thread is up
 * (the first big search starts them and carries on here meanwhile), the rest of the walk goes out in
 * batches to whichever thread has least to do, and the replies are put back in walk order. Results,
 * messages and counts are the local service's, file for file. Listings (`list`) never leave this
 * thread: they read nothing.
 */
import { describeFsError, type SearchFs } from "../../search/fs.js";
import type { BinaryMode } from "../../search/binary.js";
import type { FileResult } from "../../search/results.js";
import { SearchDeadlineError } from "../../search/errors.js";
import { MatchBudget } from "../../search/regex/budget.js";
import { Search, SEARCH_DEADLINE_MS } from "../../search/search.js";
import {
  createLocalSearchService,
  type SearchCallOptions,
  type SearchQuery,
  type SearchRun,
  type SearchService,
  type SearchStats,
} from "../../search/service.js";
import { abortError, readPathOf, type WalkedFile } from "../../search/walk.js";
import { deserializeError } from "../errors.js";
import { readReply, type BatchReply } from "./search-batch.js";
import type { SearchPool } from "./search-pool.js";

export interface ParallelSearchOptions {
  /** Files searched in this thread before the rest goes to the threads. */
  handOffAfter: number;
}

/** Batches grow to this many files (the first ones are smaller, so every thread gets going at once). */
const BATCH_FILES = 64;
const FIRST_BATCH_FILES = 8;
/** Batches out at once per thread: enough to keep each busy, few enough that a slow reader holds the walk back. */
const BATCHES_PER_THREAD = 4;

interface Slot {
  files: WalkedFile[];
  reply: Promise<BatchReply>;
}

export function createNodeSearchService(
  fs: SearchFs,
  pool: SearchPool | undefined,
  threads: number,
  options: ParallelSearchOptions,
): SearchService {
  const local = createLocalSearchService(fs);
  if (!pool) return local;
  return {
    list: local.list,
    search(query, callOptions = {}): SearchRun<FileResult> {
      const stats: SearchStats = { errored: false, filesSearched: 0 };
      return {
        stats: () => ({ ...stats }),
        [Symbol.asyncIterator]: () => searchFiles(fs, pool, threads, options, query, callOptions, stats),
      };
    },
  };
}

async function* searchFiles(
  fs: SearchFs,
  pool: SearchPool,
  threads: number,
  options: ParallelSearchOptions,
  query: SearchQuery,
  callOptions: SearchCallOptions,
  stats: SearchStats,
): AsyncGenerator<FileResult> {
  const { signal, onMessage } = callOptions;
  const search = new Search(fs, { ...query, signal, onMessage });
  // The deadline holds here as in the local service, and reaches the threads (each batch, each long match).
  const deadlineMs = query.deadlineMs ?? SEARCH_DEADLINE_MS;
  const deadlineAt = Date.now() + deadlineMs;
  const check = () => {
    if (signal?.aborted) throw abortError(signal);
    if (Date.now() > deadlineAt) throw new SearchDeadlineError(deadlineMs);
  };
  search.matcher.setBudget(new MatchBudget(check));
  const walked = search.walker.files()[Symbol.asyncIterator]();
  let walking = true;
  const unreadable = (file: WalkedFile, error: unknown) => {
    search.walker.errored = true;
    onMessage?.(`${file.displayPath}: ${describeFsError(error)}`, "error");
  };
  try {
    const explicitMode = await search.explicitMode();
    const modeOf = (file: WalkedFile): BinaryMode => (file.explicit ? explicitMode : "quit");
    // In this thread until the search proves big enough and a thread is up to take the rest.
    for (let seen = 0; !(seen >= options.handOffAfter && pool.readyNow()); seen++) {
      const next = await walked.next();
      if (next.done) {
        walking = false;
        return;
      }
      const file = next.value;
      let content = fs.readNow?.(readPathOf(file));
      if (!content) {
        try {
          content = await fs.readFile(readPathOf(file));
        } catch (error) {
          if (signal?.aborted) throw abortError(signal);
          unreadable(file, error);
          continue;
        }
      }
      check();
      stats.filesSearched++;
      const result = search.searchFile(file, content, modeOf(file));
      if (result) yield result;
    }

    const job = pool.begin({
      patterns: query.patterns,
      caseInsensitive: query.caseInsensitive ?? false,
      positions: query.positions ?? true,
      deadlineAt,
    });
    const slots: Slot[] = [];
    let walkError: unknown;
    /** The producer has put out its last slot. */
    let produced = false;
    let stopped = false;
    let wake: (() => void) | undefined;
    let room: (() => void) | undefined;
    const notify = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    let onAbort: (() => void) | undefined;
    let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
    // Settles (rejects) on an abort or at the deadline, whichever comes first.
    const aborted = new Promise<never>((_, reject) => {
      deadlineTimer = setTimeout(
        () => {
          job.end();
          reject(new SearchDeadlineError(deadlineMs));
        },
        Math.max(0, deadlineAt - Date.now()),
      );
      if (!signal) return;
      onAbort = () => {
        job.end();
        reject(abortError(signal));
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    // The walk runs on its own, up to BATCHES_PER_THREAD batches per thread ahead of the reader.
    const producer = (async () => {
      let batch: WalkedFile[] = [];
      let size = FIRST_BATCH_FILES;
      const flush = () => {
        if (batch.length === 0) return;
        const modes = batch.some((file) => file.explicit) ? batch.map(modeOf) : undefined;
        const reply = job.dispatch(
          batch.map((file) => readPathOf(file)),
          modes,
        );
        // A reply nobody waits for any more (the search ended early) must not count as unhandled.
        reply.catch(() => undefined);
        slots.push({ files: batch, reply });
        batch = [];
        size = Math.min(size * 2, BATCH_FILES);
        notify();
      };
      try {
        for (;;) {
          while (slots.length >= threads * BATCHES_PER_THREAD && !stopped) await new Promise<void>((resolve) => (room = resolve));
          if (stopped) return;
          const next = await walked.next();
          if (next.done) {
            walking = false;
            break;
          }
          batch.push(next.value);
          if (batch.length >= size) flush();
        }
        flush();
      } catch (error) {
        walking = false;
        walkError = error;
      } finally {
        produced = true;
        notify();
      }
    })();
    try {
      for (;;) {
        const slot = slots[0];
        if (!slot) {
          if (produced) {
            if (walkError !== undefined) throw walkError;
            return;
          }
          await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
          continue;
        }
        const reply = await Promise.race([slot.reply, aborted]);
        // A thread that stopped at the deadline sends what it had; the search ends here with the error.
        check();
        slots.shift();
        room?.();
        stats.filesSearched += reply.searched;
        for (const item of readReply(reply, slot.files)) {
          // The reader may have aborted while it held the last result.
          if (signal?.aborted) throw abortError(signal);
          if ("error" in item) unreadable(slot.files[item.index]!, deserializeError(item.error));
          else yield item.result;
        }
      }
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      clearTimeout(deadlineTimer);
      stopped = true;
      job.end();
      room?.();
      await producer;
    }
  } finally {
    stats.errored = search.errored;
    if (walking) await walked.return(undefined);
  }
}
