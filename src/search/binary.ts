/**
 * Text decoding and binary detection as ripgrep 13 does them, down to which lines it gets to see.
 *
 * A byte-order mark is dropped (UTF-16 is transcoded to UTF-8). A NUL byte marks a binary file, and
 * what follows depends on how the file was reached:
 *
 * - Found by walking a folder ("quit"): ripgrep reads the file in 64 KiB buffers (the very first read
 *   is only the 3 bytes it peeks at for a BOM) and stops at the first buffer holding a NUL, without
 *   searching that buffer. Matches in earlier buffers are printed, then "WARNING: stopped searching
 *   binary file after match (found "\0" byte around offset N)". A NUL in the first buffer means
 *   the file is skipped silently.
 * - Named on the command line and read ("convert"): matches before the buffer with the first NUL are
 *   printed; the first match after it stops the search; any match at all adds "binary file matches
 *   (found "\0" byte around offset N)".
 * - Named on the command line, at most 10 paths, all files (ripgrep memory-maps them, "slice"):
 *   a NUL in the first 64 KiB makes any match report "binary file matches" only; otherwise each
 *   matching line is printed unless it holds a NUL itself, which stops the search with that message.
 */

export type BinaryMode = "quit" | "convert" | "slice";

export const BUFFER_CAPACITY = 64 * 1024;

export interface DecodedText {
  /** The bytes searched: BOM removed, UTF-16 transcoded to UTF-8. */
  data: Uint8Array;
  /** ripgrep's first read returns just the 3 peeked bytes (when there was no BOM to drop). */
  peeked: boolean;
}

const encoder = new TextEncoder();

/** The byte-order mark `bytes` start with, if any. */
export function byteOrderMark(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

export function decodeForSearch(bytes: Uint8Array): DecodedText {
  const bom = byteOrderMark(bytes);
  if (bom === "utf-8") return { data: bytes.subarray(3), peeked: false };
  if (bom) {
    const text = new TextDecoder(bom).decode(bytes.subarray(2));
    return { data: encoder.encode(text), peeked: false };
  }
  return { data: bytes, peeked: true };
}

/**
 * Where ripgrep's buffered reading has searched up to when it reads the buffer holding byte `nul`:
 * lines ending before the returned offset were searched; nothing from there on.
 */
export function searchedBeforeBuffer(data: Uint8Array, peeked: boolean, nul: number): number {
  let capacity = BUFFER_CAPACITY;
  let end = 0;
  let lastTerminator = 0;
  let first = peeked;
  for (;;) {
    // A new fill keeps the unfinished line [lastTerminator, end) at the front of the buffer.
    const bufferStart = lastTerminator;
    for (;;) {
      const used = end - bufferStart;
      if (used >= capacity) capacity += capacity * 2;
      const free = capacity - used;
      const n = Math.min(first ? 3 : free, data.length - end);
      first = false;
      if (n <= 0) return lastTerminator;
      const readStart = end;
      end += n;
      if (nul < end) return lastTerminator;
      const newline = data.lastIndexOf(10, end - 1);
      if (newline >= readStart) {
        lastTerminator = newline + 1;
        break;
      }
    }
  }
}
