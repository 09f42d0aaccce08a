/**
 * Search results in the form they cross a thread boundary, and the one place matching lines become
 * text. A search thread (node) or the search worker (embedded) copies each matching line's bytes into
 * one byte array and every number into one Float64Array, both transferred: no string and no object
 * per line is made where the search runs. The reader decodes a batch's bytes in one call and cuts the
 * lines out of that text. (Structured clone of 435,000 lines as separate strings took 0.7–1.2 s;
 * decoding the lines one by one in the search thread was a fifth of its time.)
 *
 * The single-threaded search goes through the same packer (searchBytes), so every runtime makes its
 * lines, line numbers and match offsets with this code.
 */
import type { MatchSpan, Matcher } from "./matcher.js";
import { NewlineCounter } from "./newlines.js";
import type { FileHits, FileResult, SearchMatch } from "./results.js";

export interface PackedResults {
  /**
   * Per file, in the order added: its index (the sender's numbering), line count, binary notice (0 none,
   * 1 stopped, 2 named explicitly), its offset; then per line: line number, the line's length in bytes,
   * line ending code (index in LINE_ENDINGS), span count, and each span's start and end as byte offsets
   * from the line's start.
   */
  numbers: Float64Array;
  /** Every matching line's bytes (its terminator left out), each followed by one `\n`. */
  bytes: Uint8Array;
}

/** By code: bit 0 a `\n`, bit 1 a `\r` before it (or alone, at the end of a file). */
const LINE_ENDINGS = ["", "\n", "\r", "\r\n"] as const;
const INITIAL_NUMBERS = 1024;
const INITIAL_BYTES = 64 * 1024;
/** A packer grown past these for a huge batch lets the memory go once the batch is out. */
const KEEP_NUMBERS = 1 << 20;
const KEEP_BYTES = 16 * 2 ** 20;
/** Lines shorter than this are copied byte by byte (cheaper than making a view to copy from). */
const SHORT_COPY = 48;

/** Packs the hits of one file after another; `finish` hands out a batch and starts the next. */
export class ResultPacker {
  private numbers = new Float64Array(INITIAL_NUMBERS);
  private bytes = new Uint8Array(INITIAL_BYTES);
  private numberCount = 0;
  private byteCount = 0;

  /** Files added since the last `finish`. */
  files = 0;

  private reserveNumbers(n: number): void {
    if (this.numberCount + n <= this.numbers.length) return;
    const bigger = new Float64Array(Math.max(this.numbers.length * 2, this.numberCount + n));
    bigger.set(this.numbers.subarray(0, this.numberCount));
    this.numbers = bigger;
  }

  private reserveBytes(n: number): void {
    if (this.byteCount + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.byteCount + n));
    bigger.set(this.bytes.subarray(0, this.byteCount));
    this.bytes = bigger;
  }

  /**
   * Adds one file's hits under `index`. Copies what it keeps of `hits.data`, so the caller may reuse
   * that buffer at once. With `positions`, `matcher` finds where each line matched.
   */
  add(index: number, hits: FileHits, matcher: Matcher, positions: boolean): void {
    const { data, lines, binary } = hits;
    const lineCount = lines.length / 2;
    this.reserveNumbers(4 + lineCount * 4);
    let numbers = this.numbers;
    let n = this.numberCount;
    numbers[n++] = index;
    numbers[n++] = lineCount;
    numbers[n++] = binary ? (binary.stopped ? 1 : 2) : 0;
    numbers[n++] = binary ? binary.offset : 0;
    const newlines = new NewlineCounter(data);
    let lineNumber = 1;
    let counted = 0;
    for (let k = 0; k < lines.length; k += 2) {
      const start = lines[k]!;
      const end = lines[k + 1]!;
      lineNumber += newlines.count(counted, start);
      counted = start;
      const textEnd = end > start && data[end - 1] === 13 ? end - 1 : end;
      const length = textEnd - start;
      const spans = positions ? matcher.findAll(data, start, end) : undefined;
      if (spans) {
        this.numberCount = n;
        this.reserveNumbers(4 + 2 * spans.length);
        numbers = this.numbers;
      }
      numbers[n++] = lineNumber;
      numbers[n++] = length;
      numbers[n++] = (textEnd < end ? 2 : 0) + (data[end] === 10 ? 1 : 0);
      numbers[n++] = spans ? spans.length : 0;
      if (spans) {
        for (const [s, e] of spans) {
          numbers[n++] = s - start;
          numbers[n++] = e - start;
        }
      }
      this.reserveBytes(length + 1);
      const bytes = this.bytes;
      let at = this.byteCount;
      if (length < SHORT_COPY) for (let i = start; i < textEnd; i++) bytes[at++] = data[i]!;
      else {
        bytes.set(data.subarray(start, textEnd), at);
        at += length;
      }
      bytes[at++] = 10;
      this.byteCount = at;
    }
    this.numberCount = n;
    this.files++;
  }

  /** The batch so far (fresh arrays, safe to transfer); the packer starts empty again. */
  finish(): PackedResults {
    const packed = { numbers: this.numbers.slice(0, this.numberCount), bytes: this.bytes.slice(0, this.byteCount) };
    this.clear();
    return packed;
  }

  /** Drops what was added since the last `finish`, and memory a huge batch made it take. */
  clear(): void {
    this.numberCount = 0;
    this.byteCount = 0;
    this.files = 0;
    if (this.bytes.length > KEEP_BYTES) this.bytes = new Uint8Array(INITIAL_BYTES);
    if (this.numbers.length > KEEP_NUMBERS) this.numbers = new Float64Array(INITIAL_NUMBERS);
  }
}

/** Keeps a U+FEFF that starts a line (ripgrep prints it; only a file's first three bytes are a BOM). */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A packed batch with its lines already decoded: `numbers` as in PackedResults except that each line's
 * length and span offsets count UTF-16 units of `text`, which holds every line followed by `\n`. For
 * a sender with time to spare (a node search thread): its reader then only cuts strings.
 */
export interface DecodedResults {
  numbers: Float64Array;
  text: string;
}

/**
 * Decodes a batch in one call and turns byte lengths and offsets into UTF-16 ones. Invalid UTF-8 in a
 * line becomes U+FFFD (each line decodes as if alone: the `\n` after it ends any unfinished sequence).
 */
export function decodePacked({ numbers, bytes }: PackedResults): DecodedResults {
  const text = decoder.decode(bytes);
  const out = numbers.slice();
  // Every byte one unit (ASCII, or lone invalid bytes each become one U+FFFD): no line needs cutting
  // out to learn its length, though spans past the line's end (a match taking its `\r`) are still cut back.
  const sameUnits = text.length === bytes.length;
  let at = 0;
  let cut = 0;
  let byteAt = 0;
  while (at < out.length) {
    const lines = out[at + 1]!;
    at += 4;
    for (let k = 0; k < lines; k++) {
      const length = out[at + 1]!;
      const spanCount = out[at + 3]!;
      const units = sameUnits ? length : text.indexOf("\n", cut) - cut;
      out[at + 1] = units;
      at += 4;
      for (let s = 0; s < 2 * spanCount; s++, at++) {
        const b = Math.min(out[at]!, length);
        out[at] = units === length ? b : Math.min(decoder.decode(bytes.subarray(byteAt, byteAt + b)).length, units);
      }
      cut += units + 1;
      byteAt += length + 1;
    }
  }
  return { numbers: out, text };
}

/** The results back as FileResults, with the index each was added under; `fileAt` names them. */
export function unpackResults(
  results: PackedResults | DecodedResults,
  fileAt: (index: number) => { path: string; displayPath: string },
): Array<{ index: number; result: FileResult }> {
  const { numbers, text } = "text" in results ? results : decodePacked(results);
  const items: Array<{ index: number; result: FileResult }> = [];
  let at = 0;
  let cut = 0;
  while (at < numbers.length) {
    const index = numbers[at]!;
    const lines = numbers[at + 1]!;
    const binaryKind = numbers[at + 2]!;
    const offset = numbers[at + 3]!;
    at += 4;
    const { path, displayPath } = fileAt(index);
    const matches: SearchMatch[] = new Array(lines);
    for (let k = 0; k < lines; k++) {
      const lineNumber = numbers[at]!;
      const length = numbers[at + 1]!;
      const lineEnding = LINE_ENDINGS[numbers[at + 2]!]!;
      const spanCount = numbers[at + 3]!;
      at += 4;
      const line = text.slice(cut, cut + length);
      const spans: MatchSpan[] = new Array(spanCount);
      for (let s = 0; s < spanCount; s++, at += 2) spans[s] = { start: numbers[at]!, end: numbers[at + 1]! };
      matches[k] = { path, displayPath, lineNumber, line, lineEnding, matches: spans };
      cut += length + 1;
    }
    const result: FileResult =
      binaryKind === 0
        ? { path, displayPath, matches }
        : { path, displayPath, matches, binary: { path, displayPath, offset, stopped: binaryKind === 1 } };
    items.push({ index, result });
  }
  return items;
}
