/** A side of a change that exists on one side only, with its content id. */
export interface Lone {
  path: string;
  oid: string;
}

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * git's exact rename detection: each added path whose content equals a removed path's is that
 * path renamed (a candidate with the same file name first, else the first by name). Renames with
 * edits (git's similarity scoring) are not detected. Returns new path -> old path.
 */
export function exactRenames(removed: Lone[], added: Lone[]): Map<string, string> {
  const renames = new Map<string, string>();
  const used = new Set<string>();
  const sources = [...removed].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const target of [...added].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const candidates = sources.filter((s) => s.oid === target.oid && !used.has(s.path));
    const source = candidates.find((s) => basename(s.path) === basename(target.path)) ?? candidates[0];
    if (!source) continue;
    used.add(source.path);
    renames.set(target.path, source.path);
  }
  return renames;
}

/** `src/{lib => util}/a.txt`: a rename as git's --stat and commit summary print it. */
export function renameLabel(a: string, b: string): string {
  const at = (s: string, i: number) => (i < s.length ? s[i] : "\0");
  let prefix = 0;
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) if (a[i] === "/") prefix = i + 1;
  // Walk back from the ends (their terminators included), and into the prefix's slash when there is one.
  let suffix = 0;
  const floor = prefix - (prefix ? 1 : 0);
  for (let i = a.length, j = b.length; floor <= i && floor <= j && i >= 0 && j >= 0 && at(a, i) === at(b, j); i--, j--) {
    if (at(a, i) === "/") suffix = a.length - i;
  }
  const aMid = Math.max(0, a.length - prefix - suffix);
  const bMid = Math.max(0, b.length - prefix - suffix);
  const middle = `${a.slice(prefix, prefix + aMid)} => ${b.slice(prefix, prefix + bMid)}`;
  return prefix + suffix > 0 ? `${a.slice(0, prefix)}{${middle}}${a.slice(a.length - suffix)}` : middle;
}
