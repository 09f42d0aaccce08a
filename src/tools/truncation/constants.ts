/**
 * The limits and names of tool output truncation. The numbers are OpenCode's, so that a prompt or a tool
 * description written against OpenCode ("output over 2000 lines or 50 KB is truncated") stays true here.
 */

/** A tool's output is cut to at most this many lines before the model sees it. */
export const MAX_LINES = 2000;

/** ...and to at most this many UTF-8 bytes (50 KiB). */
export const MAX_BYTES = 50 * 1024;

/** Saved full outputs older than this are removed by the store's cleanup (7 days). */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The folder, under the data folder, that holds the saved full outputs. */
export const OUTPUT_FOLDER = "tool-output";

/** Every saved output is named `<prefix>_<id>`; cleanup only ever touches names with this prefix. */
export const ID_PREFIX = "tool";

/**
 * How many encoded bytes a streaming writer gathers before it appends them to the file. Big enough that a
 * 500 MB output costs a few hundred appends, small enough that memory stays flat whatever the output size.
 */
export const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * The most of one tool call's output that is saved in full (64 MiB): a command printing without end must
 * not fill the disk (one call once wrote 2.79 GB in 15 s). OpenCode saves everything; past this the saved file
 * ends with CUT_MARK and the model is told the copy is cut.
 */
export const MAX_SAVED_BYTES = 64 * 1024 * 1024;

/** The line that ends a saved output cut at MAX_SAVED_BYTES (or a smaller cap given to the sink). */
export function cutMark(savedBytes: number, totalBytes: number): string {
  return `\n\n[output cut: only the first ${savedBytes} of ${totalBytes} bytes were saved]\n`;
}
