/**
 * Words that name a local file as a URL rather than a path: `file:///etc/passwd` (curl, git, sqlite3 and
 * many more open it), and git's `<transport>::<address>` remotes (`ext::sh -c ...` runs a command, `fd::`
 * reads descriptors). Any other URL (`https://...`) names no local file and is judged as a word.
 */

export type UrlTarget =
  /** A local absolute path the URL opens. */
  | { path: string }
  /** A URL whose local effect cannot be judged. */
  | { why: string };

/** What `word` opens locally as a URL, or null when it is not a file URL or a git transport. */
export function localUrlTarget(word: string): UrlTarget | null {
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(word)) return { why: "a git remote helper (<transport>::) runs or reads something local" };
  // Schemes are case-insensitive: `FILE:///x` and `File:/x` open the file too.
  if (!/^file:/i.test(word)) return null;
  const rest = word.slice("file:".length);
  let encoded: string;
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    const host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    // curl and git accept an empty host and localhost; any other host is not judged (some programs read
    // it as a network share, others as a local path).
    if (host !== "" && host.toLowerCase() !== "localhost") return { why: "a file: URL naming a host" };
    if (slash < 0) return { why: "a file: URL with no path" };
    encoded = rest.slice(slash);
  } else if (rest.startsWith("/")) {
    encoded = rest;
  } else {
    return { why: "a file: URL that is not an absolute path" };
  }
  // The query and fragment are not part of the file (`file:x.db?mode=ro` for sqlite).
  encoded = encoded.replace(/[?#].*$/s, "");
  // curl expands `{a,b}` and `[1-9]` in URLs itself, after the shell: the file is not known from the text.
  if (/[{}[\]*?]/.test(encoded)) return { why: "a file: URL with a pattern the program expands" };
  try {
    return { path: decodeURIComponent(encoded) };
  } catch {
    return { why: "a file: URL with a broken %-escape" };
  }
}
