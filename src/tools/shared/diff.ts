import { createTwoFilesPatch, diffLines } from "diff";

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

/** A trimmed unified diff between two LF texts and its added and removed line counts. */
export function fileDiff(oldName: string, newName: string, before: string, after: string): FileDiff {
  const diff = trimDiff(createTwoFilesPatch(oldName, newName, before, after));
  let additions = 0;
  let deletions = 0;
  for (const change of diffLines(before, after)) {
    if (change.added) additions += change.count;
    else if (change.removed) deletions += change.count;
  }
  return { diff, additions, deletions };
}
