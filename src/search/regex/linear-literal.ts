/**
 * A literal search that is linear whatever the literal and the text: Knuth-Morris-Pratt over byte
 * classes. The fast scans of literals.ts (a rare key byte, Horspool) verify each candidate from its
 * first byte, which costs the literal's length per candidate: a 100,000-byte literal against a long
 * run of near misses (`aaaa…b` repeated) would cost length × text. This scan looks at each byte of the
 * text once (amortised), so the finder switches to it when verifying starts to cost more than scanning.
 *
 * KMP needs equality to be an equivalence, so it applies when the literal's byte sets are equal or
 * disjoint (a plain literal, or a case-insensitive one: [aA][bB]…): each set becomes one class id.
 */
import type { Lit } from "./lit.js";

export class LinearLiteral {
  private constructor(
    /** Class id of each byte (-1: in no set of the literal, so it matches nowhere). */
    private readonly classOf: Int32Array,
    /** The literal as class ids. */
    private readonly ids: Int32Array,
    /** KMP failure function: the longest proper border of ids[0..k]. */
    private readonly border: Int32Array,
  ) {}

  get length(): number {
    return this.ids.length;
  }

  /** The scanner for `lit`, or null when its byte sets overlap without being equal (no classes then). */
  static of(lit: Lit): LinearLiteral | null {
    if (lit.length === 0) return null;
    const classOf = new Int32Array(256).fill(-1);
    const sizes: number[] = [];
    const ids = new Int32Array(lit.length);
    for (let k = 0; k < lit.length; k++) {
      const set = lit[k]!;
      const first = classOf[set[0]!]!;
      if (first < 0) {
        const id = sizes.length;
        for (const b of set) {
          if (classOf[b] !== -1) return null;
          classOf[b] = id;
        }
        sizes.push(set.length);
        ids[k] = id;
      } else {
        // Must be exactly the class already made: every byte in it, and no other.
        if (sizes[first] !== new Set(set).size) return null;
        for (const b of set) if (classOf[b] !== first) return null;
        ids[k] = first;
      }
    }
    const border = new Int32Array(lit.length);
    for (let k = 1, j = 0; k < ids.length; k++) {
      while (j > 0 && ids[k] !== ids[j]) j = border[j - 1]!;
      if (ids[k] === ids[j]) j++;
      border[k] = j;
    }
    return new LinearLiteral(classOf, ids, border);
  }

  /** The first start >= from of the literal within buf[from, end), or -1. */
  find(buf: Uint8Array, from: number, end: number): number {
    const { classOf, ids, border } = this;
    const m = ids.length;
    let j = 0;
    for (let i = from; i < end; i++) {
      const c = classOf[buf[i]!]!;
      if (c < 0) {
        j = 0;
        continue;
      }
      while (j > 0 && ids[j] !== c) j = border[j - 1]!;
      if (ids[j] === c) j++;
      if (j === m) return i - m + 1;
    }
    return -1;
  }
}
