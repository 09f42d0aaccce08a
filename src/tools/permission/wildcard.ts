/**
 * The glob dialect of permission rules. It is deliberately tiny, because users write these patterns by hand in
 * config files and must be able to predict them:
 *
 * - `*` matches any run of characters, `/` and newlines included (so `*.env` covers `/any/dir/.env`, and a
 *   multi-line bash command is still one string); `**` means the same as `*`.
 * - `?` matches exactly one character.
 * - Everything else is literal: no character classes, no braces, no escapes.
 * - `\` is read as `/` on both sides, so a Windows-style path and its rule agree.
 * - A pattern ending in ` *` (space, star) also matches without that tail: `ls *` covers `ls` and `ls -la`
 *   but not `lstmeval`. That is what makes the bash "always allow `git log *`" rule cover plain `git log`.
 * - The whole string must match, and case matters.
 */

const regexSyntax = new Set(["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/"]);

// Patterns come from a handful of rules that are matched over and over, so compiling each once pays; the cap
// only guards against a caller feeding an unbounded stream of distinct patterns.
const compiled = new Map<string, RegExp>();
const CACHE_LIMIT = 2048;

export function matchWildcard(str: string, pattern: string): boolean {
  return compile(pattern).test(toSlashes(str));
}

function compile(pattern: string): RegExp {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  const normalized = toSlashes(pattern);
  // The optional tail is decided on the pattern as written, before runs of `*` are merged: `ls **` keeps
  // requiring the space, exactly as the regex OpenCode builds does.
  const source = normalized.endsWith(" *")
    ? `${translate(normalized.slice(0, -2))}(?: .*)?`
    : translate(normalized);
  // `s` lets `*` and `?` cross newlines; `u` makes `?` one code point, not half of an emoji's surrogate pair.
  const regex = new RegExp(`^${source}$`, "su");
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(pattern, regex);
  return regex;
}

function translate(glob: string): string {
  let out = "";
  let previousStar = false;
  for (const char of glob) {
    if (char === "*") {
      // Merging a run of stars changes nothing about what matches, but keeps `a**********b` from
      // backtracking polynomially on a long miss.
      if (!previousStar) out += ".*";
      previousStar = true;
      continue;
    }
    previousStar = false;
    if (char === "?") out += ".";
    else if (regexSyntax.has(char)) out += `\\${char}`;
    else out += char;
  }
  return out;
}

function toSlashes(text: string): string {
  return text.includes("\\") ? text.replaceAll("\\", "/") : text;
}
