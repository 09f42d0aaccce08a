const escapes: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };

/**
 * A path as git prints it (core.quotePath): in double quotes with C escapes, and octal for every
 * byte of a non-ASCII character, when it holds any of those; with `spaces`, a space alone calls
 * for quotes too (as `git status -s` does).
 */
export function quotePath(path: string, options: { spaces?: boolean } = {}): string {
  const bytes = new TextEncoder().encode(path);
  const needs = bytes.some((b) => b < 0x20 || b >= 0x7f || b === 34 || b === 92 || (options.spaces === true && b === 32));
  if (!needs) return path;
  let text = '"';
  for (const b of bytes) {
    if (escapes[b] !== undefined) text += escapes[b];
    else if (b < 0x20 || b >= 0x7f) text += `\\${b.toString(8).padStart(3, "0")}`;
    else text += String.fromCharCode(b);
  }
  return `${text}"`;
}

/** `a/<path>` in a diff header, quoted as a whole when the path needs it. */
export function prefixedPath(prefix: string, path: string): string {
  return quotePath(`${prefix}${path}`);
}
