/**
 * Code point ranges as UTF-8 byte-range sequences: [U+0080, U+07FF] becomes [C2-DF][80-BF], and so
 * on. Each sequence is a list of inclusive byte ranges, one per encoded byte; together they match
 * exactly the UTF-8 encodings of the code points in the range (surrogates are never in our ranges).
 */

export type ByteRange = [number, number];

function encode(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

const LENGTH_LIMITS = [0x7f, 0x7ff, 0xffff];

/** The byte sequences of [lo, hi], in ascending order. */
export function utf8Sequences(lo: number, hi: number): ByteRange[][] {
  const out: ByteRange[][] = [];
  const todo: Array<[number, number]> = [[lo, hi]];
  next: while (todo.length > 0) {
    const [s, e] = todo.pop()!;
    if (s > e) continue;
    // Ranges that straddle an encoded-length boundary are split at it.
    for (const limit of LENGTH_LIMITS) {
      if (s <= limit && e > limit) {
        todo.push([limit + 1, e], [s, limit]);
        continue next;
      }
    }
    if (e < 0x80) {
      out.push([[s, e]]);
      continue;
    }
    // Then split until every continuation position spans whole 6-bit blocks or a single prefix.
    for (let i = 1; i < 4; i++) {
      const mask = (1 << (6 * i)) - 1;
      if ((s & ~mask) !== (e & ~mask)) {
        if ((s & mask) !== 0) {
          todo.push([(s | mask) + 1, e], [s, s | mask]);
          continue next;
        }
        if ((e & mask) !== mask) {
          todo.push([e & ~mask, e], [s, (e & ~mask) - 1]);
          continue next;
        }
      }
    }
    const a = encode(s);
    const b = encode(e);
    out.push(a.map((byte, k) => [byte, b[k]!] as ByteRange));
  }
  return out;
}
