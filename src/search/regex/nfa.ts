/**
 * A Thompson NFA over bytes, compiled from the regex IR. Unicode classes become UTF-8 byte tries
 * (with identical subtrees shared), so the automaton reads the raw bytes of a file: invalid UTF-8 is
 * simply never matched by a Unicode class, as in ripgrep. Alternatives and repetitions are `split`
 * states whose first branch has priority (leftmost-first semantics, used by the Pike VM).
 */
import type { Hir, Look } from "./parse.js";
import { utf8Sequences } from "./utf8.js";

export const RANGES = 0;
export const SPLIT = 1;
export const LOOK = 2;
export const MATCH = 3;
export const EMPTY = 4;
const FAIL = 5;

export const LOOK_START = 0;
export const LOOK_END = 1;
export const LOOK_WORD_U = 2;
export const LOOK_NOT_WORD_U = 3;
export const LOOK_WORD_A = 4;
export const LOOK_NOT_WORD_A = 5;

const lookCodes: Record<Look, number> = {
  start: LOOK_START,
  end: LOOK_END,
  wordU: LOOK_WORD_U,
  notWordU: LOOK_NOT_WORD_U,
  wordA: LOOK_WORD_A,
  notWordA: LOOK_NOT_WORD_A,
};

export class NfaSizeError extends Error {}

const SIZE_LIMIT = 2_000_000;

export class Nfa {
  kind: number[] = [];
  /** SPLIT: preferred branch; LOOK/EMPTY: next. */
  out1: number[] = [];
  /** SPLIT: other branch; LOOK: the look code. */
  out2: number[] = [];
  /** RANGES: index of the first edge and number of edges. */
  edgeStart: number[] = [];
  edgeCount: number[] = [];
  edgeLo: number[] = [];
  edgeHi: number[] = [];
  edgeNext: number[] = [];
  start = 0;
  hasWordU = false;
  hasWordA = false;
  hasStart = false;
  hasEnd = false;

  get size(): number {
    return this.kind.length;
  }

  add(kind: number, out1 = -1, out2 = -1): number {
    // The estimate in ./size.ts rejects big patterns before compiling; this only guards what it misjudges.
    if (this.kind.length >= SIZE_LIMIT) throw new NfaSizeError("Compiled regex exceeds size limit of 104857600 bytes.");
    this.kind.push(kind);
    this.out1.push(out1);
    this.out2.push(out2);
    this.edgeStart.push(0);
    this.edgeCount.push(0);
    return this.kind.length - 1;
  }

  addRanges(edges: Array<[number, number, number]>): number {
    const id = this.add(RANGES);
    this.edgeStart[id] = this.edgeLo.length;
    this.edgeCount[id] = edges.length;
    for (const [lo, hi, next] of edges) {
      this.edgeLo.push(lo);
      this.edgeHi.push(hi);
      this.edgeNext.push(next);
    }
    return id;
  }

  /** The state reached from RANGES state `id` on byte `b`, or -1. */
  step(id: number, b: number): number {
    const start = this.edgeStart[id]!;
    const n = this.edgeCount[id]!;
    if (n <= 8) {
      for (let k = start; k < start + n; k++) {
        if (b < this.edgeLo[k]!) return -1;
        if (b <= this.edgeHi[k]!) return this.edgeNext[k]!;
      }
      return -1;
    }
    let lo = start;
    let hi = start + n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (b < this.edgeLo[mid]!) hi = mid - 1;
      else if (b > this.edgeHi[mid]!) lo = mid + 1;
      else return this.edgeNext[mid]!;
    }
    return -1;
  }
}

/** Compiles the IR; the NFA matches anchored at its start (callers add the unanchored search). */
export function compileNfa(hir: Hir): Nfa {
  const nfa = new Nfa();
  const match = nfa.add(MATCH);
  const shared = new Map<string, number>();

  const classState = (bytes: boolean, ranges: number[], next: number): number => {
    if (ranges.length === 0) return nfa.add(FAIL);
    if (bytes || ranges[ranges.length - 1]! < 0x80) {
      const edges: Array<[number, number, number]> = [];
      for (let i = 0; i < ranges.length; i += 2) {
        const lo = ranges[i]!;
        const hi = Math.min(ranges[i + 1]!, 0xff);
        if (lo <= hi) edges.push([lo, hi, next]);
      }
      return nfa.addRanges(edges);
    }
    // A trie of byte ranges; leaves go to `next`.
    type Node = { edges: Array<{ lo: number; hi: number; child: Node | null }> };
    const root: Node = { edges: [] };
    for (let i = 0; i < ranges.length; i += 2) {
      for (const seq of utf8Sequences(ranges[i]!, ranges[i + 1]!)) {
        let node = root;
        seq.forEach(([lo, hi], k) => {
          const last = k === seq.length - 1;
          let edge = node.edges.find((e) => e.lo === lo && e.hi === hi && (e.child === null) === last);
          if (!edge) {
            edge = { lo, hi, child: last ? null : { edges: [] } };
            node.edges.push(edge);
          }
          if (!last) node = edge.child!;
        });
      }
    }
    const emit = (node: Node): number => {
      const edges: Array<[number, number, number]> = node.edges
        .map((e): [number, number, number] => [e.lo, e.hi, e.child ? emit(e.child) : next])
        .sort((a, b) => a[0] - b[0]);
      const key = `${next}|${edges.map((e) => e.join(",")).join(";")}`;
      const known = shared.get(key);
      if (known !== undefined) return known;
      const id = nfa.addRanges(edges);
      shared.set(key, id);
      return id;
    };
    return emit(root);
  };

  const compile = (h: Hir, next: number): number => {
    switch (h.kind) {
      case "empty":
        return next;
      case "class":
        return classState(h.bytes, h.ranges, next);
      case "look": {
        const code = lookCodes[h.look];
        if (code === LOOK_WORD_U || code === LOOK_NOT_WORD_U) nfa.hasWordU = true;
        if (code === LOOK_WORD_A || code === LOOK_NOT_WORD_A) nfa.hasWordA = true;
        if (code === LOOK_START) nfa.hasStart = true;
        if (code === LOOK_END) nfa.hasEnd = true;
        return nfa.add(LOOK, next, code);
      }
      case "concat": {
        let at = next;
        for (let i = h.subs.length - 1; i >= 0; i--) at = compile(h.subs[i]!, at);
        return at;
      }
      case "alt": {
        let at = compile(h.subs[h.subs.length - 1]!, next);
        for (let i = h.subs.length - 2; i >= 0; i--) {
          const branch = compile(h.subs[i]!, next);
          at = nfa.add(SPLIT, branch, at);
        }
        return at;
      }
      case "repeat": {
        const { min, max, greedy, sub } = h;
        let at = next;
        if (max === Infinity) {
          const loop = nfa.add(SPLIT);
          const body = compile(sub, loop);
          nfa.out1[loop] = greedy ? body : next;
          nfa.out2[loop] = greedy ? next : body;
          if (min === 0) return loop;
          at = body;
          for (let i = 1; i < min; i++) at = compile(sub, at);
          return at;
        }
        for (let i = 0; i < max - min; i++) {
          const body = compile(sub, at);
          at = greedy ? nfa.add(SPLIT, body, next) : nfa.add(SPLIT, next, body);
        }
        for (let i = 0; i < min; i++) at = compile(sub, at);
        return at;
      }
    }
  };

  nfa.start = compile(hir, match);
  return nfa;
}
