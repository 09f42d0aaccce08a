/**
 * The Pike VM: simulates the NFA over a line's bytes with one thread per state, in priority order,
 * so it finds the leftmost-first match (Rust's semantics) in time linear in the line (times the NFA
 * size), whatever the pattern. It reports where matches are; the lazy DFA decides whether a line
 * matches at all, faster.
 */
import type { MatchBudget } from "./budget.js";
import { isAsciiWordByte, isWordCodePoint } from "./unicode.js";
import {
  EMPTY,
  LOOK,
  LOOK_END,
  LOOK_NOT_WORD_A,
  LOOK_NOT_WORD_U,
  LOOK_START,
  LOOK_WORD_A,
  LOOK_WORD_U,
  MATCH,
  RANGES,
  SPLIT,
  type Nfa,
} from "./nfa.js";

/** The code point that ends just before `pos`, or -1 (line start or invalid UTF-8). */
function codePointBefore(buf: Uint8Array, start: number, pos: number): number {
  if (pos <= start) return -1;
  const last = buf[pos - 1]!;
  if (last < 0x80) return last;
  let k = pos - 1;
  let n = 0;
  while (k > start && n < 3 && (buf[k]! & 0xc0) === 0x80) {
    k--;
    n++;
  }
  const cp = decodeAt(buf, k, pos);
  return cp !== undefined && cp.end === pos ? cp.value : -1;
}

/** The code point starting at `pos`, or -1 (line end or invalid UTF-8). */
function codePointAt(buf: Uint8Array, pos: number, end: number): number {
  if (pos >= end) return -1;
  const b = buf[pos]!;
  if (b < 0x80) return b;
  const cp = decodeAt(buf, pos, end);
  return cp ? cp.value : -1;
}

function decodeAt(buf: Uint8Array, pos: number, end: number): { value: number; end: number } | undefined {
  const b = buf[pos]!;
  let need: number;
  let value: number;
  let min: number;
  if (b >= 0xc2 && b <= 0xdf) {
    need = 1;
    value = b & 0x1f;
    min = 0x80;
  } else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    value = b & 0x0f;
    min = 0x800;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    value = b & 0x07;
    min = 0x10000;
  } else return undefined;
  if (pos + need >= end) return undefined;
  for (let k = 1; k <= need; k++) {
    const c = buf[pos + k];
    if (c === undefined || (c & 0xc0) !== 0x80) return undefined;
    value = (value << 6) | (c & 0x3f);
  }
  if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
  return { value, end: pos + need + 1 };
}

function lookHolds(code: number, buf: Uint8Array, start: number, end: number, pos: number): boolean {
  switch (code) {
    case LOOK_START:
      return pos === start;
    case LOOK_END:
      return pos === end;
    case LOOK_WORD_A:
    case LOOK_NOT_WORD_A: {
      const before = pos > start && isAsciiWordByte(buf[pos - 1]!);
      const after = pos < end && isAsciiWordByte(buf[pos]!);
      return (before !== after) === (code === LOOK_WORD_A);
    }
    case LOOK_WORD_U:
    case LOOK_NOT_WORD_U: {
      const b = codePointBefore(buf, start, pos);
      const a = codePointAt(buf, pos, end);
      const before = b >= 0 && isWordCodePoint(b);
      const after = a >= 0 && isWordCodePoint(a);
      return (before !== after) === (code === LOOK_WORD_U);
    }
    default:
      return false;
  }
}

export class PikeVm {
  /** Told the work of each step, so a long match can be stopped (see ./budget.ts). */
  budget: MatchBudget | undefined;
  private readonly seen: Int32Array;
  private gen = 1;
  private readonly stack: Int32Array;
  private listA: { ids: Int32Array; starts: Int32Array; len: number };
  private listB: { ids: Int32Array; starts: Int32Array; len: number };

  constructor(private readonly nfa: Nfa) {
    const n = nfa.size;
    this.seen = new Int32Array(n);
    this.stack = new Int32Array(n * 2 + 8);
    this.listA = { ids: new Int32Array(n), starts: new Int32Array(n), len: 0 };
    this.listB = { ids: new Int32Array(n), starts: new Int32Array(n), len: 0 };
  }

  /** Adds `state` and its epsilon closure at `pos` to `list`, in priority order. */
  private add(
    list: { ids: Int32Array; starts: Int32Array; len: number },
    gen: number,
    state: number,
    threadStart: number,
    buf: Uint8Array,
    start: number,
    end: number,
    pos: number,
  ): void {
    const nfa = this.nfa;
    const stack = this.stack;
    let sp = 0;
    stack[sp++] = state;
    while (sp > 0) {
      const id = stack[--sp]!;
      if (this.seen[id] === gen) continue;
      this.seen[id] = gen;
      const kind = nfa.kind[id]!;
      if (kind === RANGES || kind === MATCH) {
        list.ids[list.len] = id;
        list.starts[list.len] = threadStart;
        list.len++;
      } else if (kind === SPLIT) {
        // Preferred branch on top of the stack.
        stack[sp++] = nfa.out2[id]!;
        stack[sp++] = nfa.out1[id]!;
      } else if (kind === EMPTY) {
        stack[sp++] = nfa.out1[id]!;
      } else if (kind === LOOK) {
        if (lookHolds(nfa.out2[id]!, buf, start, end, pos)) stack[sp++] = nfa.out1[id]!;
      }
    }
  }

  /** The leftmost-first match in line [start, end) beginning at or after `from`, as [s, e], or null. */
  find(buf: Uint8Array, start: number, end: number, from: number): [number, number] | null {
    const nfa = this.nfa;
    let clist = this.listA;
    let nlist = this.listB;
    clist.len = 0;
    let cgen = ++this.gen;
    let matched: [number, number] | null = null;
    for (let p = from; ; p++) {
      if (matched === null) this.add(clist, cgen, nfa.start, p, buf, start, end, p);
      if (clist.len === 0) {
        if (matched !== null || p >= end) break;
        cgen = ++this.gen;
        continue;
      }
      this.budget?.spend(clist.len + 1);
      const ngen = ++this.gen;
      nlist.len = 0;
      const b = p < end ? buf[p]! : -1;
      for (let k = 0; k < clist.len; k++) {
        const id = clist.ids[k]!;
        if (nfa.kind[id] === MATCH) {
          matched = [clist.starts[k]!, p];
          break;
        }
        if (b >= 0) {
          const next = nfa.step(id, b);
          if (next >= 0) this.add(nlist, ngen, next, clist.starts[k]!, buf, start, end, p + 1);
        }
      }
      if (p >= end) break;
      const t = clist;
      clist = nlist;
      nlist = t;
      cgen = ngen;
    }
    return matched;
  }

  /** Every non-overlapping match in the line, as Rust's `find_iter` yields them (byte offsets). */
  findAll(buf: Uint8Array, start: number, end: number, limit = Infinity): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    let at = start;
    let lastMatch = -1;
    while (at <= end && out.length < limit) {
      const m = this.find(buf, start, end, at);
      if (!m) break;
      const [s, e] = m;
      if (s === e) {
        at = e + 1;
        if (e === lastMatch) continue;
      } else {
        at = e;
      }
      lastMatch = e;
      out.push(m);
    }
    return out;
  }
}
