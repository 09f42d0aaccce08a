/**
 * Pathname expansion, approximated from above: the matcher accepts at least every name bash would (dotfiles
 * too, whatever `dotglob` says, and any single character for a bracket expression), so a glob is judged on
 * a superset of the files it can reach. Judging a few names too many costs a question; one too few, a hole.
 */
import type { Char } from "./words.js";

/** A matcher for one path component written with glob characters. */
export function componentMatcher(chars: readonly Char[]): (name: string) => boolean {
  let source = "";
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (!c.quoted && c.ch === "*") source += "[^]*";
    else if (!c.quoted && c.ch === "?") source += "[^]";
    else if (!c.quoted && c.ch === "[") {
      const close = chars.findIndex((d, j) => j > i + 1 && d.ch === "]" && !d.quoted);
      if (close < 0) source += "\\[";
      else {
        source += "[^]";
        i = close;
      }
    } else source += c.ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`, "u");
  return (name) => regex.test(name);
}

/** Splits characters at unquoted or quoted `/` (both separate components once quotes are removed). */
export function splitComponents(chars: readonly Char[]): Char[][] {
  const parts: Char[][] = [[]];
  for (const c of chars) {
    if (c.ch === "/") parts.push([]);
    else parts[parts.length - 1]!.push(c);
  }
  return parts;
}
