import { formatPatch, structuredPatch } from "diff";

/**
 * Removes the leading whitespace that every content line of a unified diff shares, so a change deep in
 * an indented block reads easily. Only lines inside hunks count (a removed line `--x` is content, not a
 * file header); whitespace-only lines are ignored when measuring and trimmed as far as they go. The
 * shared part is compared as text, so tabs and spaces are never mixed up.
 */
export function trimDiff(diff: string): string {
  const lines = diff.split("\n");
  const content: number[] = [];
  let inHunk = false;
  for (const [index, line] of lines.entries()) {
    if (line.startsWith("@@")) inHunk = true;
    else if (inHunk && (line.startsWith(" ") || line.startsWith("+") || line.startsWith("-"))) content.push(index);
    else if (inHunk && !line.startsWith("\\")) inHunk = false;
  }
  let common: string | undefined;
  for (const index of content) {
    const text = (lines[index] ?? "").slice(1);
    if (text.trim() === "") continue;
    const indent = /^\s*/.exec(text)?.[0] ?? "";
    if (common === undefined) common = indent;
    else {
      let length = 0;
      while (length < common.length && length < indent.length && common[length] === indent[length]) length++;
      common = common.slice(0, length);
    }
    if (common === "") return diff;
  }
  if (!common) return diff;
  for (const index of content) {
    const line = lines[index] ?? "";
    const text = line.slice(1);
    let cut = 0;
    while (cut < common.length && text[cut] === common[cut]) cut++;
    lines[index] = line[0] + text.slice(cut);
  }
  return lines.join("\n");
}

export interface FileDiff {
  diff: string;
  additions: number;
  deletions: number;
}

/** Lines of context around each change (jsdiff's default, which the whole-text diff used). */
const CONTEXT = 4;

/**
 * A trimmed unified diff between two LF texts and its added and removed line counts. The lines both texts
 * share at their start and end are set aside first (all but the context the hunks show), so an edit of a
 * few lines in a large file costs a scan of it, not a diff of it; hunk line numbers are shifted back.
 */
export function fileDiff(oldName: string, newName: string, before: string, after: string): FileDiff {
  const a = before.split("\n");
  const b = after.split("\n");
  let prefix = 0;
  const shorter = Math.min(a.length, b.length);
  while (prefix < shorter - 1 && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix - 1 && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const start = Math.max(0, prefix - CONTEXT);
  const keptSuffix = Math.max(0, suffix - CONTEXT);
  // A slice that stops before the end keeps its last line's newline, so no "No newline" marker appears.
  const slice = (lines: readonly string[]) => {
    const end = lines.length - keptSuffix;
    const text = lines.slice(start, end).join("\n");
    return end < lines.length ? `${text}\n` : text;
  };
  const patch = structuredPatch(oldName, newName, slice(a), slice(b), undefined, undefined, { context: CONTEXT });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    hunk.oldStart += start;
    hunk.newStart += start;
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
  }
  return { diff: trimDiff(formatPatch(patch)), additions, deletions };
}
