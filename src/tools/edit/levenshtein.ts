/**
 * Edit distance, as OpenCode's BlockAnchor replacer scores middle lines with it: insertions, deletions and
 * substitutions of UTF-16 code units, each costing 1. OpenCode fills a full (a+1)x(b+1) matrix; only the
 * previous row is ever read, so two rows give the same numbers in O(min(a, b)) memory.
 */
export function levenshtein(a: string, b: string): number {
  if (a === "" || b === "") return Math.max(a.length, b.length);
  // Rows run over the shorter string: the distance is symmetric, the memory is not.
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let previous = new Uint32Array(short.length + 1);
  let current = new Uint32Array(short.length + 1);
  for (let j = 0; j <= short.length; j++) previous[j] = j;
  for (let i = 1; i <= long.length; i++) {
    current[0] = i;
    const code = long.charCodeAt(i - 1);
    for (let j = 1; j <= short.length; j++) {
      const substitution = previous[j - 1]! + (code === short.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length]!;
}

/**
 * 1 for equal strings, 0 for strings with nothing in common: `1 - distance / max(length)`, OpenCode's
 * per-line score. Two empty strings are equal (OpenCode skips such pairs instead of dividing by zero).
 */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - levenshtein(a, b) / longest;
}

/**
 * Lines longer than this (minified code) are compared for equality only: edit distance costs the product
 * of the two lengths, and two 50,000-character lines would take seconds (OpenCode's full matrix would
 * also take gigabytes).
 */
const LONGEST_COMPARED_LINE = 2000;

/** `similarity` of two lines, or 1 / 0 (equal or not) when either is longer than LONGEST_COMPARED_LINE. */
export function lineSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (Math.max(a.length, b.length) > LONGEST_COMPARED_LINE) return 0;
  return similarity(a, b);
}
