/**
 * The size a pattern will compile to, counted before compiling, so `\w{1000}\w{1000}\w{1000}` or
 * `a{1000}{1000}{1000}` fails at once with ripgrep's message instead of building millions of states first.
 * ripgrep's regex crate counts the compiled program's bytes against a limit (100 MiB by default in rg, as
 * rg 13 here reports: "Compiled regex exceeds size limit of 104857600 bytes."). Our NFA is smaller than
 * its program, so the count here is a model of rg's: 32 bytes per state or edge, and 80 per edge of a
 * Unicode class's byte trie, which rg's compiler spells out at far greater length (rg rejects `\w{1000}`
 * but accepts `a{1000}{1000}`). test/security/search-costly-patterns.test.ts compares it with rg.
 */
import { compileNfa } from "./nfa.js";
import type { Hir } from "./parse.js";

const SIZE_LIMIT_BYTES = 100 * 1024 * 1024;
const BYTES_PER_STATE = 32;
const BYTES_PER_EDGE = 32;
const BYTES_PER_UNICODE_EDGE = 80;

export const SIZE_LIMIT_MESSAGE = `Compiled regex exceeds size limit of ${SIZE_LIMIT_BYTES} bytes.`;

/** A class compiles to the same trie wherever it appears: its cost is measured once per distinct class. */
const classCosts = new Map<string, number>();
const CLASS_CACHE_LIMIT = 512;

function classCost(h: Extract<Hir, { kind: "class" }>): number {
  const key = `${h.bytes ? "b" : "u"}${h.ranges.join(",")}`;
  let cost = classCosts.get(key);
  if (cost === undefined) {
    const nfa = compileNfa(h);
    const unicode = !h.bytes && h.ranges.length > 0 && h.ranges[h.ranges.length - 1]! >= 0x80;
    // Less the MATCH state every NFA has.
    cost = (nfa.size - 1) * BYTES_PER_STATE + nfa.edgeLo.length * (unicode ? BYTES_PER_UNICODE_EDGE : BYTES_PER_EDGE);
    if (classCosts.size >= CLASS_CACHE_LIMIT) classCosts.clear();
    classCosts.set(key, cost);
  }
  return cost;
}

/** The bytes `h` compiles to, as counted here; Infinity once past `limit` (the counting stops there). */
function bytes(h: Hir, limit: number): number {
  switch (h.kind) {
    case "empty":
      return 0;
    case "class":
      return classCost(h);
    case "look":
      return BYTES_PER_STATE;
    case "concat":
    case "alt": {
      let total = h.kind === "alt" ? (h.subs.length - 1) * BYTES_PER_STATE : 0;
      for (const sub of h.subs) {
        total += bytes(sub, limit);
        if (total > limit) return Number.POSITIVE_INFINITY;
      }
      return total;
    }
    case "repeat": {
      const body = bytes(h.sub, limit);
      // Each copy of the body, plus one split per optional copy (or the loop's one).
      const copies = h.max === Number.POSITIVE_INFINITY ? Math.max(h.min, 1) : h.max;
      const splits = h.max === Number.POSITIVE_INFINITY ? 1 : h.max - h.min;
      const total = body * copies + splits * BYTES_PER_STATE;
      return total > limit ? Number.POSITIVE_INFINITY : total;
    }
  }
}

/** Whether `h` compiles within ripgrep's default size limit. */
export function withinSizeLimit(h: Hir): boolean {
  return bytes(h, SIZE_LIMIT_BYTES) <= SIZE_LIMIT_BYTES;
}
