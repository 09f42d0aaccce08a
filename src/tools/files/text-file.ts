/**
 * A text file as tools edit it: decoded to plain LF text that replacements work on, and encoded back so
 * that an edit changes only the bytes of the lines it edits.
 *
 * - Bytes that are not UTF-8 (a Latin-1 `é`, a stray 0xFF) become lone surrogates U+DC80..U+DCFF in the
 *   text and the same bytes again when written (Python's "surrogateescape"): a line the edit does not touch
 *   keeps them. Valid UTF-8 never decodes to a lone surrogate, so nothing else can be mistaken for one.
 * - Each line keeps its own ending (LF or CRLF), so a file with mixed endings stays mixed; a line that
 *   replaces another takes that line's ending, and a new line the ending most lines have.
 * - A byte order mark is kept.
 */
import { diffArrays } from "diff";

const BOM = "\uFEFF";
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

type Eol = "\n" | "\r\n";

export interface TextFile {
  bom: boolean;
  /** The content without BOM, every CRLF as LF, undecodable bytes escaped. */
  text: string;
  /** After line i of `text.split("\n")`, the ending it had in the file (one fewer than the lines). */
  eols: Eol[];
  /** What new lines get: the ending most lines have (CRLF on a tie). */
  eol: Eol;
  /** How many bytes could not be decoded (kept as they are). */
  undecodable: number;
}

export function decodeText(bytes: Uint8Array): TextFile {
  const { text: raw, undecodable } = decodeBytes(bytes);
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  const pieces = body.split("\n");
  const eols: Eol[] = [];
  let crlf = 0;
  for (let i = 0; i < pieces.length - 1; i++) {
    const line = pieces[i]!;
    if (line.endsWith("\r")) {
      pieces[i] = line.slice(0, -1);
      eols.push("\r\n");
      crlf++;
    } else {
      eols.push("\n");
    }
  }
  const eol: Eol = crlf > 0 && crlf * 2 >= eols.length ? "\r\n" : "\n";
  return { bom, text: pieces.join("\n"), eols, eol, undecodable };
}

/**
 * `after` (LF text, as edited from `file.text`) in the file's shape: its BOM, each kept line's own ending,
 * the escaped bytes restored.
 */
export function encodeText(file: TextFile, after: string): Uint8Array {
  const before = file.text.split("\n");
  const lines = after.split("\n");
  const endings = mapEndings(before, lines, file.eols);
  let body = "";
  for (let i = 0; i < lines.length; i++) {
    body += lines[i]!;
    if (i < lines.length - 1) body += endings[i] ?? file.eol;
  }
  return encodeBytes(file.bom ? BOM + body : body);
}

/** Content taken whole: every line ends with `eol`. */
export function encodeNew(text: string, eol: Eol = "\n", bom = false): Uint8Array {
  const body = eol === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
  return encodeBytes(bom ? BOM + body : body);
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** For showing: escaped bytes as U+FFFD, as the read tool shows them. */
export function displayText(text: string): string {
  return text.replace(LONE_ESCAPE, "\uFFFD");
}

/** The most lines the ending of each line is matched by a real diff; beyond it, by position. */
const MAX_DIFF = 4000;

/** For each line of `after` but the last, the ending it should get (undefined: the file's usual one). */
function mapEndings(before: string[], after: string[], eols: Eol[]): Array<Eol | undefined> {
  const endings: Array<Eol | undefined> = new Array(after.length - 1);
  // Lines shared at the start and at the end are the same lines: no diff needed for them.
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  const take = (to: number, from: number) => {
    if (to < endings.length && from < eols.length) endings[to] = eols[from];
  };
  for (let i = 0; i < head; i++) take(i, i);
  for (let k = 1; k <= tail; k++) take(after.length - k, before.length - k);

  const oldMiddle = before.slice(head, before.length - tail);
  const newMiddle = after.slice(head, after.length - tail);
  const parts =
    oldMiddle.length + newMiddle.length <= MAX_DIFF * 2 ? diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_DIFF }) : undefined;
  if (!parts) {
    // Too different to diff cheaply (a whole file rewritten): the i-th new line takes the i-th old ending.
    for (let i = 0; i < newMiddle.length; i++) take(head + i, head + Math.min(i, oldMiddle.length - 1));
    return endings;
  }
  let o = head;
  let n = head;
  let removed: number[] = [];
  for (const part of parts) {
    if (part.removed) {
      removed = Array.from({ length: part.count ?? part.value.length }, (_, i) => o + i);
      o += removed.length;
      continue;
    }
    const count = part.count ?? part.value.length;
    if (part.added) {
      // Lines that replace removed ones take their endings, in order; extra ones the usual ending.
      for (let i = 0; i < count; i++) if (i < removed.length) take(n + i, removed[i]!);
      n += count;
    } else {
      for (let i = 0; i < count; i++) take(n + i, o + i);
      o += count;
      n += count;
    }
    removed = [];
  }
  return endings;
}

// A low surrogate U+DC80..U+DCFF with no high surrogate before it: an escaped byte.
const LONE_ESCAPE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;
// The same without the global flag, whose lastIndex a test() would leave behind for the next matchAll.
const HAS_ESCAPE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** UTF-8 to text; each byte that is no part of a valid sequence becomes U+DC00 + byte. */
export function decodeBytes(bytes: Uint8Array): { text: string; undecodable: number } {
  try {
    return { text: strict.decode(bytes), undecodable: 0 };
  } catch {
    // Not UTF-8 throughout: decode the valid runs, escape the rest.
  }
  let text = "";
  let undecodable = 0;
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (runStart < i) text += strict.decode(bytes.subarray(runStart, i));
    text += String.fromCharCode(0xdc00 + bytes[i]!);
    undecodable++;
    i++;
    runStart = i;
  }
  if (runStart < bytes.length) text += strict.decode(bytes.subarray(runStart));
  return { text, undecodable };
}

/** Text to UTF-8, escaped bytes back to themselves. */
export function encodeBytes(text: string): Uint8Array {
  if (!HAS_ESCAPE.test(text)) return encoder.encode(text);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const match of text.matchAll(LONE_ESCAPE)) {
    if (match.index > from) chunks.push(encoder.encode(text.slice(from, match.index)));
    chunks.push(Uint8Array.of(match[0].charCodeAt(0) - 0xdc00));
    from = match.index + 1;
  }
  if (from < text.length) chunks.push(encoder.encode(text.slice(from)));
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The length of the valid UTF-8 sequence at `i` (RFC 3629: no overlongs, surrogates or values past U+10FFFF), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (at: number, low = 0x80, high = 0xbf) => at < bytes.length && bytes[at]! >= low && bytes[at]! <= high;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const low = b0 === 0xe0 ? 0xa0 : 0x80;
    const high = b0 === 0xed ? 0x9f : 0xbf;
    return cont(i + 1, low, high) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const low = b0 === 0xf0 ? 0x90 : 0x80;
    const high = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(i + 1, low, high) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}
