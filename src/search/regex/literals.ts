/**
 * Literal prefilters. From the regex IR we take byte strings that every match must contain (each
 * position a small set of bytes, so `(?i)foo` is [fF][oO][oO]); scanning for the rarest byte of those
 * with the engine's native `indexOf` skips most of a file without looking at it byte by byte. When the
 * whole pattern is such a literal, a verified occurrence is the match itself.
 */
import { LinearLiteral } from "./linear-literal.js";
import type { Lit } from "./lit.js";
import type { Hir } from "./parse.js";

function utf8(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/** A class as a fixed byte sequence: one code point, or up to four ASCII characters. */
function classLit(h: Extract<Hir, { kind: "class" }>): Lit | null {
  const r = h.ranges;
  if (r.length === 2 && r[0] === r[1]) {
    if (h.bytes) return [[r[0]!]];
    return utf8(r[0]!).map((b) => [b]);
  }
  const values: number[] = [];
  for (let i = 0; i < r.length; i += 2) {
    for (let v = r[i]!; v <= r[i + 1]!; v++) {
      if (v >= 0x80 || values.length >= 4) return null;
      values.push(v);
    }
  }
  return values.length > 0 ? [values] : null;
}

/** Rough share of each byte in source code and prose (higher: more common). */
function byteWeight(b: number): number {
  if (b === 0x20) return 150;
  if (b === 0x65) return 80;
  if (b === 0x74 || b === 0x61 || b === 0x6f || b === 0x69 || b === 0x6e || b === 0x73 || b === 0x72) return 55;
  if (b === 0x0a || b === 0x6c || b === 0x63 || b === 0x64 || b === 0x68 || b === 0x75 || b === 0x09) return 30;
  if (b === 0x6d || b === 0x70 || b === 0x66 || b === 0x67 || b === 0x79 || b === 0x62 || b === 0x2e || b === 0x28 || b === 0x29) return 18;
  if (b === 0x2c || b === 0x3b || b === 0x3d || b === 0x22 || b === 0x27 || b === 0x5f || b === 0x2f || b === 0x3a || b === 0x2d) return 12;
  if (b === 0x77 || b === 0x76 || b === 0x6b || b === 0x7b || b === 0x7d || b === 0x2a) return 10;
  if (b >= 0x30 && b <= 0x39) return 8;
  if (b >= 0x41 && b <= 0x5a) return 5;
  if (b === 0x78 || b === 0x6a || b === 0x71 || b === 0x7a) return 3;
  if (b >= 0x80) return 2;
  if (b >= 0x21 && b < 0x7f) return 4;
  return 1;
}

/** The position of a literal with the rarest byte set, and that set's weight. */
function keyPosition(lit: Lit): { index: number; weight: number } {
  let best = 0;
  let bestWeight = Infinity;
  lit.forEach((set, index) => {
    const weight = set.reduce((sum, b) => sum + byteWeight(b), 0);
    if (weight < bestWeight) {
      bestWeight = weight;
      best = index;
    }
  });
  return { index: best, weight: bestWeight };
}

function score(lits: Lit[]): number {
  // The weakest alternative decides; longer literals verify away more false hits.
  let worst = Infinity;
  for (const lit of lits) {
    const { weight } = keyPosition(lit);
    const s = 1000 / (weight * lits.length) + Math.min(lit.length, 8);
    worst = Math.min(worst, s);
  }
  return worst;
}

const MAX_ALTERNATIVES = 8;

/** Byte literals one of which every match contains, or null when none can be told. */
export function requiredLiterals(h: Hir): Lit[] | null {
  switch (h.kind) {
    case "class": {
      const lit = classLit(h);
      return lit ? [lit] : null;
    }
    case "repeat":
      return h.min >= 1 ? requiredLiterals(h.sub) : null;
    case "alt": {
      const out: Lit[] = [];
      for (const sub of h.subs) {
        const lits = requiredLiterals(sub);
        if (!lits) return null;
        out.push(...lits);
        if (out.length > MAX_ALTERNATIVES) return null;
      }
      return out;
    }
    case "concat": {
      const candidates: Lit[][] = [];
      let run: Lit = [];
      const flush = () => {
        if (run.length > 0) candidates.push([run]);
        run = [];
      };
      for (const sub of h.subs) {
        const lit = sub.kind === "class" ? classLit(sub) : null;
        if (lit) {
          // Appended in place: `concat` would copy the run for every character (quadratic in a long literal).
          for (const set of lit) run.push(set);
          continue;
        }
        flush();
        const inner = requiredLiterals(sub);
        if (inner) candidates.push(inner);
      }
      flush();
      let best: Lit[] | null = null;
      let bestScore = -Infinity;
      for (const c of candidates) {
        const s = score(c);
        if (s > bestScore) {
          bestScore = s;
          best = c;
        }
      }
      return best;
    }
    default:
      return null;
  }
}

/** When the pattern is exactly one fixed literal (no anchors, no alternation), that literal. */
export function exactLiteral(h: Hir): Lit | null {
  if (h.kind === "class") return classLit(h);
  if (h.kind !== "concat") return null;
  const out: Lit = [];
  for (const sub of h.subs) {
    if (sub.kind !== "class") return null;
    const lit = classLit(sub);
    if (!lit) return null;
    for (const set of lit) out.push(set);
  }
  return out.length > 0 ? out : null;
}

/** When every match is exactly one of a few literals (`foo|bar`), those literals. */
export function exactAlternatives(h: Hir): Lit[] | null {
  if (h.kind === "alt") {
    const out: Lit[] = [];
    for (const sub of h.subs) {
      const lit = exactLiteral(sub);
      if (!lit) return null;
      out.push(lit);
    }
    return out.length <= MAX_ALTERNATIVES ? out : null;
  }
  const lit = exactLiteral(h);
  return lit ? [lit] : null;
}

/**
 * Is scanning for these literals likely faster than running the DFA over every byte? Yes when they
 * are long enough for Horspool to skip, or when each has a byte that is not among the most common.
 */
export function worthPrefilter(lits: Lit[]): boolean {
  if (lits.length === 0) return false;
  if (Math.min(...lits.map((lit) => lit.length)) >= 3) return true;
  return lits.every((lit) => keyPosition(lit).weight <= 12);
}

/**
 * Finds occurrences of any of several literals in a buffer, left to right. Two strategies:
 *
 * - a rare key byte: jump between its occurrences with the engine's native `indexOf` (remembering
 *   the next occurrence of each key byte, so one scan looks at each byte once per key byte);
 * - otherwise Horspool over the literals' common prefix length: compare the window's last byte and
 *   skip ahead by how far that byte sits from the end of the window in any literal.
 *
 * Both verify a candidate from its first byte, which for a long literal and a text of near misses
 * costs length × text. The bytes spent verifying are counted; once they outgrow the bytes scanned,
 * the rest of the call runs the linear scan (linear-literal.ts), so no call is worse than linear.
 */
export class LiteralFinder {
  private readonly keys: Array<{ lit: Lit; index: number; bytes: number[] }>;
  private readonly useIndexOf: boolean;
  private cacheBuf: Uint8Array | null = null;
  private readonly cacheFrom = new Int32Array(256);
  private readonly cacheHit = new Int32Array(256);
  /** Horspool: window length, shift per byte, and which bytes may end a window. */
  private readonly window: number;
  private readonly shift = new Int32Array(256);
  private readonly last = new Uint8Array(256);
  /** One linear scanner per literal, or null when a literal's byte sets do not allow one. */
  private readonly linear: LinearLiteral[] | null;
  private readonly longest: number;

  constructor(readonly lits: Lit[]) {
    this.keys = lits.map((lit) => {
      const { index } = keyPosition(lit);
      return { lit, index, bytes: lit[index]! };
    });
    this.window = Math.min(...lits.map((lit) => lit.length));
    const rarest = Math.max(...lits.map((lit) => keyPosition(lit).weight));
    // Native indexOf wins for a rare byte or a window too short to skip much.
    this.useIndexOf = this.window < 3 || rarest <= 3;
    const m = this.window;
    this.shift.fill(m);
    for (const lit of lits) {
      for (let j = 0; j < m - 1; j++) for (const b of lit[j]!) this.shift[b] = Math.min(this.shift[b]!, m - 1 - j);
      for (const b of lit[m - 1]!) this.last[b] = 1;
    }
    this.longest = Math.max(...lits.map((lit) => lit.length));
    const linear = lits.map((lit) => LinearLiteral.of(lit));
    this.linear = linear.every((scan) => scan !== null) ? (linear as LinearLiteral[]) : null;
  }

  /**
   * Has verifying cost more than the scan it serves (`spent` bytes compared, `scanned` bytes passed)?
   * A few whole-literal verifications are always allowed: a hit costs one, and hits never overlap.
   */
  private overBudget(spent: number, scanned: number): boolean {
    return this.linear !== null && spent > 2 * scanned + 4 * this.longest;
  }

  /** Bytes of `lit` that match at `pos` before the first mismatch (its length when it all matches). */
  private static agreeing(buf: Uint8Array, pos: number, end: number, lit: Lit): number {
    if (pos < 0 || pos + lit.length > end) return -1;
    for (let k = 0; k < lit.length; k++) {
      const set = lit[k]!;
      const b = buf[pos + k]!;
      if (set.length === 1 ? set[0] !== b : !set.includes(b)) return k;
    }
    return lit.length;
  }

  /** `find` by the linear scans: the leftmost start of any literal, the first listed winning a tie. */
  private findLinear(buf: Uint8Array, from: number, end: number): { start: number; lit: number } | null {
    let best: { start: number; lit: number } | null = null;
    this.linear!.forEach((scan, lit) => {
      const start = scan.find(buf, from, best ? Math.min(end, best.start - 1 + scan.length) : end);
      if (start >= 0 && (best === null || start < best.start)) best = { start, lit };
    });
    return best;
  }

  private nextByte(buf: Uint8Array, b: number, at: number): number {
    if (this.cacheBuf !== buf) {
      this.cacheBuf = buf;
      this.cacheFrom.fill(-1);
    }
    const from = this.cacheFrom[b]!;
    if (from >= 0 && from <= at) {
      const hit = this.cacheHit[b]!;
      if (hit < 0 || hit >= at) return hit;
    }
    const hit = buf.indexOf(b, at);
    this.cacheFrom[b] = at;
    this.cacheHit[b] = hit;
    return hit;
  }

  /** The first position >= from where one of the literals starts (and ends by `end`), or -1. */
  find(buf: Uint8Array, from: number, end: number): number {
    return this.useIndexOf ? this.findByKey(buf, from, end) : this.findHorspool(buf, from, end);
  }

  private findHorspool(buf: Uint8Array, from: number, end: number): number {
    const m = this.window;
    const shift = this.shift;
    const last = this.last;
    const lits = this.lits;
    let i = from + m - 1;
    let spent = 0;
    while (i < end) {
      const b = buf[i]!;
      if (last[b] === 1) {
        const start = i - m + 1;
        for (let k = 0; k < lits.length; k++) {
          const lit = lits[k]!;
          const agreed = LiteralFinder.agreeing(buf, start, end, lit);
          if (agreed === lit.length) return start;
          spent += agreed + 1;
        }
        if (this.overBudget(spent, i - from)) return this.findLinear(buf, from, end)?.start ?? -1;
      }
      i += shift[b]!;
    }
    return -1;
  }

  private findByKey(buf: Uint8Array, from: number, end: number): number {
    let best = -1;
    for (const key of this.keys) {
      const { lit, index, bytes } = key;
      let at = from + index;
      const stop = (best < 0 ? end : Math.min(end, best + lit.length)) - lit.length + index;
      let spent = 0;
      while (at <= stop) {
        let hit = -1;
        for (const b of bytes) {
          const h = this.nextByte(buf, b, at);
          if (h >= 0 && (hit < 0 || h < hit)) hit = h;
        }
        if (hit < 0 || hit > stop) break;
        const start = hit - index;
        const agreed = LiteralFinder.agreeing(buf, start, end, lit);
        if (agreed === lit.length) {
          if (best < 0 || start < best) best = start;
          break;
        }
        spent += agreed + 1;
        if (this.overBudget(spent, hit - from)) return this.findLinear(buf, from, end)?.start ?? -1;
        at = hit + 1;
      }
    }
    return best;
  }

  /** The leftmost occurrence within [from, end), as [start, end) (the first literal listed wins a tie). */
  findSpan(buf: Uint8Array, from: number, end: number): [number, number] | null {
    let best: [number, number] | null = null;
    for (const { lit, index, bytes } of this.keys) {
      const lastStart = end - lit.length;
      let spent = 0;
      for (let p = from; p <= lastStart; p++) {
        const b = buf[p + index]!;
        if (bytes.length === 1 ? b !== bytes[0] : !bytes.includes(b)) continue;
        const agreed = LiteralFinder.agreeing(buf, p, end, lit);
        if (agreed === lit.length) {
          if (best === null || p < best[0]) best = [p, p + lit.length];
          break;
        }
        spent += agreed + 1;
        if (this.overBudget(spent, p - from)) {
          const found = this.findLinear(buf, from, end);
          return found ? [found.start, found.start + this.lits[found.lit]!.length] : null;
        }
      }
    }
    return best;
  }
}
