/**
 * Unicode data for the regex engine: property classes (`\p{...}` with Rust's loose name matching),
 * Perl classes (`\d`, `\s`, `\w`), simple case folding, and the word-character test for `\b`.
 *
 * Code point sets come from the JavaScript engine's own Unicode tables (a `\p{...}` regex run once over
 * every code point), named through the ECMAScript alias tables. So the Unicode version is the engine's
 * (ripgrep 13 uses Unicode 14), and only the properties ECMAScript knows exist here.
 */
import scriptAndCategoryValues from "unicode-match-property-value-ecmascript/data/mappings.js";
import propertyAliases from "unicode-property-aliases-ecmascript";
import canonicalProperties from "unicode-canonical-property-names-ecmascript";
import { canonical, contains, type Ranges } from "./ranges.js";

export class UnicodeLookupError extends Error {}

/** Rust's loose matching of property names: no case, spaces, '_' or '-', and no leading "is". */
function normalizeName(name: string, dropIs = true): string {
  let text = name;
  let hadIs = false;
  if (dropIs && text.length >= 2 && text.slice(0, 2).toLowerCase() === "is") {
    text = text.slice(2);
    hadIs = true;
  }
  let out = "";
  for (const ch of text) {
    if (ch === " " || ch === "_" || ch === "-") continue;
    const code = ch.charCodeAt(0);
    if (code > 0x7f) continue;
    out += ch.toLowerCase();
  }
  // "isc" is an alias of the Other category, not "is" + "c".
  if (hadIs && out === "c") return "isc";
  return out;
}

interface Tables {
  category: Map<string, string>;
  script: Map<string, string>;
  binary: Map<string, string>;
}

let tables: Tables | undefined;

function loadTables(): Tables {
  if (tables) return tables;
  const category = new Map<string, string>();
  const script = new Map<string, string>();
  const binary = new Map<string, string>();
  const add = (map: Map<string, string>, alias: string, value: string) => {
    const key = normalizeName(alias, false);
    if (!map.has(key)) map.set(key, value);
  };
  for (const [alias, value] of scriptAndCategoryValues.get("General_Category") ?? []) {
    // ripgrep 13 (regex-syntax 0.6) has no Cased_Letter category.
    if (value === "Cased_Letter") continue;
    add(category, alias, value);
    add(category, value, value);
  }
  category.set("isc", "Other");
  for (const [alias, value] of scriptAndCategoryValues.get("Script") ?? []) {
    add(script, alias, value);
    add(script, value, value);
  }
  const nonBinary = new Set(["General_Category", "Script", "Script_Extensions"]);
  for (const name of canonicalProperties) if (!nonBinary.has(name)) add(binary, name, name);
  for (const [alias, name] of propertyAliases) if (!nonBinary.has(name)) add(binary, alias, name);
  tables = { category, script, binary };
  return tables;
}

/**
 * The code points the property scans look at, as strings: planes 0 to 3, and plane 14 apart. Planes
 * 4 to 13 hold nothing assigned and planes 15 and 16 only private use: each of those stretches is
 * uniform for every property, so one representative code point speaks for all of it.
 */
interface Segment {
  text: string;
  /** The code point at a UTF-16 index of `text`. */
  at(index: number): number;
}

let segments: Segment[] | undefined;

function buildText(from: number, to: number): string {
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let cp = from; cp <= to; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp > 0xffff) {
      const v = cp - 0x10000;
      chunk.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
    } else chunk.push(cp);
    if (chunk.length >= 8192) {
      parts.push(String.fromCharCode(...chunk));
      chunk.length = 0;
    }
  }
  parts.push(String.fromCharCode(...chunk));
  return parts.join("");
}

function scanSegments(): Segment[] {
  if (segments) return segments;
  const low: Segment = {
    text: buildText(0, 0x3ffff),
    at: (i) => (i < 0xd800 ? i : i < 0xf800 ? i + 0x800 : 0x10000 + ((i - 0xf800) >> 1)),
  };
  const tags: Segment = { text: buildText(0xe0000, 0xeffff), at: (i) => 0xe0000 + (i >> 1) };
  segments = [low, tags];
  return segments;
}

/** The uniform stretches outside the scanned planes, each with a representative. */
const STRETCHES: Array<{ ranges: Array<[number, number]>; sample: number }> = [
  {
    // Planes 4 to 13, without their noncharacters.
    ranges: Array.from({ length: 10 }, (_, k): [number, number] => [0x40000 + k * 0x10000, 0x4fffd + k * 0x10000]),
    sample: 0x40000,
  },
  {
    // The noncharacters at the end of planes 4 to 13, 15 and 16.
    ranges: [...Array.from({ length: 10 }, (_, k) => 0x4fffe + k * 0x10000), 0xffffe, 0x10fffe].map((cp): [number, number] => [cp, cp + 1]),
    sample: 0x4fffe,
  },
  {
    // Private use planes 15 and 16.
    ranges: [
      [0xf0000, 0xffffd],
      [0x100000, 0x10fffd],
    ],
    sample: 0xf0000,
  },
];

const propertyCache = new Map<string, Ranges>();

/** The code points of an ECMAScript property expression ("Alphabetic", "Script_Extensions=Greek"). */
export function propertyRanges(expression: string): Ranges {
  return classRanges(`\\p{${expression}}`);
}

/** The code points of a JavaScript `u`-mode class body ("\\p{L}\\p{M}"). */
function classRanges(body: string): Ranges {
  const cached = propertyCache.get(body);
  if (cached) return cached;
  const pairs: Array<[number, number]> = [];
  // Alternate between a run of members and a run of non-members: a few thousand regex calls, each
  // consuming a whole run in the engine's own loop.
  const inside = new RegExp(`[${body}]+`, "uy");
  const outside = new RegExp(`[^${body}]+`, "uy");
  for (const { text, at: codePoint } of scanSegments()) {
    let at = 0;
    while (at < text.length) {
      inside.lastIndex = at;
      if (inside.test(text)) {
        const end = inside.lastIndex;
        // The last unit of a run may be the low half of a pair.
        const lastUnit = end - 1;
        const lastStart = (text.charCodeAt(lastUnit) & 0xfc00) === 0xdc00 ? lastUnit - 1 : lastUnit;
        pairs.push([codePoint(at), codePoint(lastStart)]);
        at = end;
      }
      if (at >= text.length) break;
      outside.lastIndex = at;
      if (!outside.test(text)) break;
      at = outside.lastIndex;
    }
  }
  const single = new RegExp(`^[${body}]$`, "u");
  for (const stretch of STRETCHES) if (single.test(String.fromCodePoint(stretch.sample))) pairs.push(...stretch.ranges);
  const ranges = canonical(pairs);
  propertyCache.set(body, ranges);
  return ranges;
}

/**
 * `\p{name}` or `\p{name=value}` as ripgrep reads it. A lone name is a binary property, a general
 * category, or a script (meaning its Script_Extensions), in that order.
 */
export function unicodeClass(name: string, value?: string): Ranges {
  const t = loadTables();
  if (value === undefined) {
    const norm = normalizeName(name);
    if (norm === "any") return [0, 0x10ffff];
    if (norm === "ascii") return [0, 0x7f];
    if (norm === "assigned") return propertyRanges("Assigned");
    if (norm !== "cf") {
      const binary = t.binary.get(norm);
      if (binary) return propertyRanges(binary);
    }
    const category = t.category.get(norm);
    if (category) return propertyRanges(`General_Category=${category}`);
    const script = t.script.get(norm);
    if (script) return propertyRanges(`Script_Extensions=${script}`);
    throw new UnicodeLookupError("Unicode property not found");
  }
  const prop = normalizeName(name);
  const norm = normalizeName(value);
  if (prop === "generalcategory" || prop === "gc") {
    if (norm === "any") return [0, 0x10ffff];
    if (norm === "ascii") return [0, 0x7f];
    if (norm === "assigned") return propertyRanges("Assigned");
    const category = t.category.get(norm);
    if (!category) throw new UnicodeLookupError("Unicode property value not found");
    return propertyRanges(`General_Category=${category}`);
  }
  if (prop === "script" || prop === "sc" || prop === "scriptextensions" || prop === "scx") {
    const script = t.script.get(norm);
    if (!script) throw new UnicodeLookupError("Unicode property value not found");
    const kind = prop === "script" || prop === "sc" ? "Script" : "Script_Extensions";
    return propertyRanges(`${kind}=${script}`);
  }
  throw new UnicodeLookupError("Unicode property not found");
}

let perl: { digit: Ranges; space: Ranges; word: Ranges } | undefined;

export function perlClasses(): { digit: Ranges; space: Ranges; word: Ranges } {
  if (perl) return perl;
  const digit = propertyRanges("General_Category=Decimal_Number");
  const space = propertyRanges("White_Space");
  // One pass for the five parts of \\w.
  const word = classRanges(
    "\\p{Alphabetic}\\p{General_Category=Mark}\\p{General_Category=Decimal_Number}\\p{General_Category=Connector_Punctuation}\\p{Join_Control}",
  );
  perl = { digit, space, word };
  return perl;
}

function pairsOf(ranges: Ranges): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) out.push([ranges[i]!, ranges[i + 1]!]);
  return out;
}

export const ASCII_WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

export function isAsciiWordByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || b === 0x5f || (b >= 0x61 && b <= 0x7a);
}

/** Unicode `\w` membership, for `\b`. */
export function isWordCodePoint(cp: number): boolean {
  if (cp < 0x80) return isAsciiWordByte(cp);
  return contains(perlClasses().word, cp);
}

interface Folding {
  /** Sorted code points that have other case variants. */
  cased: Int32Array;
  /** For each entry of `cased`, its whole orbit (itself included). */
  orbits: Map<number, number[]>;
}

let folding: Folding | undefined;

/**
 * Simple case folding orbits, from the engine's one-to-one case mappings. Dotted and dotless i
 * (U+0130, U+0131) stay apart from i/I, as in Unicode's CaseFolding (their mappings are Turkic-only).
 */
function loadFolding(): Folding {
  if (folding) return folding;
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    let y = x;
    while (y !== r) {
      const next = parent.get(y)!;
      parent.set(y, r);
      y = next;
    }
    return r;
  };
  const link = (a: number, b: number) => {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  };
  const single = (s: string): number | undefined => {
    const cp = s.codePointAt(0);
    if (cp === undefined) return undefined;
    return s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
  };
  for (let cp = 0; cp <= 0x1ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp === 0x130 || cp === 0x131) continue;
    const s = String.fromCodePoint(cp);
    const lower = single(s.toLowerCase());
    const upper = single(s.toUpperCase());
    if (lower !== undefined && lower !== cp && lower !== 0x130 && lower !== 0x131) link(cp, lower);
    if (upper !== undefined && upper !== cp && upper !== 0x130 && upper !== 0x131) link(cp, upper);
  }
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const root = find(cp);
    let group = groups.get(root);
    if (!group) groups.set(root, (group = []));
    group.push(cp);
  }
  const orbits = new Map<number, number[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => a - b);
    for (const cp of group) orbits.set(cp, group);
  }
  const cased = Int32Array.from([...orbits.keys()].sort((a, b) => a - b));
  folding = { cased, orbits };
  return folding;
}

/** The class closed under simple case folding. */
export function caseFold(ranges: Ranges): Ranges {
  const { cased, orbits } = loadFolding();
  const pairs: Array<[number, number]> = pairsOf(ranges);
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i]!;
    const hi = ranges[i + 1]!;
    let a = 0;
    let b = cased.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (cased[mid]! < lo) a = mid + 1;
      else b = mid;
    }
    for (let k = a; k < cased.length && cased[k]! <= hi; k++) {
      for (const other of orbits.get(cased[k]!)!) pairs.push([other, other]);
    }
  }
  return canonical(pairs);
}

/** ASCII-only case folding, for `(?i)` without Unicode. */
export function asciiCaseFold(ranges: Ranges): Ranges {
  const pairs: Array<[number, number]> = pairsOf(ranges);
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i]!;
    const hi = ranges[i + 1]!;
    const a = Math.max(lo, 0x41);
    const b = Math.min(hi, 0x5a);
    if (a <= b) pairs.push([a + 32, b + 32]);
    const c = Math.max(lo, 0x61);
    const d = Math.min(hi, 0x7a);
    if (c <= d) pairs.push([c - 32, d - 32]);
  }
  return canonical(pairs);
}
