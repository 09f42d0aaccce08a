/**
 * The glob dialect of permission rules. It is deliberately tiny, because users write these patterns by hand in
 * config files and must be able to predict them:
 *
 * - `*` matches any run of characters, `/` and newlines included (so `*.env` covers `/any/dir/.env`, and a
 *   multi-line bash command is still one string); `**` means the same as `*`.
 * - `?` matches exactly one character.
 * - `[*]`, `[?]` and `[[]` are a literal `*`, `?` and `[` (`escapeWildcard` writes them), so a rule stored
 *   for a command with a quoted `'*'` in it covers that command and not every one. Everything else is
 *   literal: no other character classes, no braces, and `\` is no escape (see next).
 * - `\` is read as `/` on both sides, so a Windows-style path and its rule agree.
 * - A pattern ending in ` *` (space, star) also matches without that tail: `ls *` covers `ls` and `ls -la`
 *   but not `lstmeval`. That is what makes the bash "always allow `git log *`" rule cover plain `git log`.
 * - The whole string must match, and case matters.
 */

// Patterns come from a handful of rules that are matched over and over, so splitting each into characters
// once pays; the cap only guards against a caller feeding an unbounded stream of distinct patterns.
const parsed = new Map<string, Parsed>();
const CACHE_LIMIT = 2048;

/**
 * A parsed pattern is a list of tokens: single characters of the text to match, or these two, which are
 * two characters long so that no character of a text can be equal to them.
 */
const ANY_RUN = "*\u0000";
const ANY_ONE = "?\u0000";

interface Parsed {
  chars: string[];
  /** The pattern without its trailing " *", when it has one. */
  head?: string[];
}

/** `text` as a pattern that matches only itself: its `*`, `?` and `[` written as `[*]`, `[?]`, `[[]`. */
export function escapeWildcard(text: string): string {
  return text.replace(/[*?[]/g, (ch) => `[${ch}]`);
}

export function matchWildcard(str: string, pattern: string): boolean {
  const { chars, head } = parse(pattern);
  // Code points, not UTF-16 units: `?` is one character to a person, emoji included.
  const text = Array.from(toSlashes(str));
  return (head !== undefined && glob(text, head)) || glob(text, chars);
}

/**
 * Greedy matching with a single backtrack point (the last `*` seen). OpenCode compiles patterns to a regex,
 * which backtracks exponentially on patterns like `a*a*a*…b`; this takes at most text × pattern steps and
 * answers the same (a later `*` can absorb anything an earlier one would have, so only the last one needs
 * retrying).
 */
function glob(text: readonly string[], pattern: readonly string[]): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let resumeAt = 0;
  while (t < text.length) {
    const want = pattern[p];
    if (want === ANY_RUN) {
      star = p++;
      resumeAt = t;
    } else if (want !== undefined && (want === ANY_ONE || want === text[t])) {
      t++;
      p++;
    } else if (star >= 0) {
      // Let the last star swallow one more character and try again from there.
      p = star + 1;
      t = ++resumeAt;
    } else {
      return false;
    }
  }
  while (pattern[p] === ANY_RUN) p++;
  return p === pattern.length;
}

function parse(pattern: string): Parsed {
  const cached = parsed.get(pattern);
  if (cached) return cached;
  const normalized = toSlashes(pattern);
  const chars = tokens(normalized);
  // Decided on the pattern as written: `ls **` does not end in " *" and keeps requiring the space, as in
  // OpenCode, where the regex only turns a final " .*" into an optional group.
  const result: Parsed = normalized.endsWith(" *") ? { chars, head: chars.slice(0, -2) } : { chars };
  if (parsed.size >= CACHE_LIMIT) parsed.clear();
  parsed.set(pattern, result);
  return result;
}

function tokens(pattern: string): string[] {
  const chars = Array.from(pattern);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "[" && chars[i + 2] === "]" && (chars[i + 1] === "*" || chars[i + 1] === "?" || chars[i + 1] === "[")) {
      out.push(chars[i + 1]!);
      i += 2;
    } else if (ch === "*") out.push(ANY_RUN);
    else if (ch === "?") out.push(ANY_ONE);
    else out.push(ch);
  }
  return out;
}

function toSlashes(text: string): string {
  return text.includes("\\") ? text.replaceAll("\\", "/") : text;
}
