/**
 * Sets of code points (or bytes) as sorted, merged, inclusive ranges flattened into one array:
 * [lo0, hi0, lo1, hi1, ...].
 */

export type Ranges = number[];

export const MAX_CODE_POINT = 0x10ffff;
const SURROGATES: Ranges = [0xd800, 0xdfff];

export function canonical(pairs: Array<[number, number]>): Ranges {
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    if (lo > hi) continue;
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

function toPairs(ranges: Ranges): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  return pairs;
}

function union(a: Ranges, b: Ranges): Ranges {
  return canonical([...toPairs(a), ...toPairs(b)]);
}

export function negate(a: Ranges, max: number): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (let i = 0; i < a.length; i += 2) {
    if (a[i]! > next) out.push(next, a[i]! - 1);
    next = a[i + 1]! + 1;
  }
  if (next <= max) out.push(next, max);
  return out;
}

export function intersect(a: Ranges, b: Ranges): Ranges {
  const out: Ranges = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

export function difference(a: Ranges, b: Ranges, max: number): Ranges {
  return intersect(a, negate(b, max));
}

export function symmetricDifference(a: Ranges, b: Ranges, max: number): Ranges {
  return union(difference(a, b, max), difference(b, a, max));
}

export function contains(ranges: Ranges, value: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (value < ranges[mid * 2]!) hi = mid - 1;
    else if (value > ranges[mid * 2 + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Code points (not surrogates): the universe of a Unicode class. */
export function withoutSurrogates(ranges: Ranges): Ranges {
  return difference(ranges, SURROGATES, MAX_CODE_POINT);
}

function count(ranges: Ranges): number {
  let n = 0;
  for (let i = 0; i < ranges.length; i += 2) n += ranges[i + 1]! - ranges[i]! + 1;
  return n;
}
