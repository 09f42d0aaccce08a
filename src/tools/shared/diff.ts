import { createTwoFilesPatch, diffLines } from "diff";

/** Drops the indentation every changed and context line shares, so a deep block's diff reads easily. */
export function trimDiff(diff: string): string {
  const lines = diff.split("\n");
  const body = lines.filter((line) => /^[+\- ]/.test(line) && !line.startsWith("---") && !line.startsWith("+++"));
  let common = Number.POSITIVE_INFINITY;
  for (const line of body) {
    const content = line.slice(1);
    if (content.trim() === "") continue;
    common = Math.min(common, content.length - content.trimStart().length);
  }
  if (!Number.isFinite(common) || common === 0) return diff;
  return lines
    .map((line) => (body.includes(line) && line.length > 1 && line.slice(1).trim() !== "" ? line[0] + line.slice(1 + common) : line))
    .join("\n");
}

export interface FileDiff {
  diff: string;
  additions: number;
  deletions: number;
}

/** A unified diff of one file (with trimmed indentation) and its added and removed line counts. */
export function fileDiff(path: string, before: string, after: string): FileDiff {
  const diff = trimDiff(createTwoFilesPatch(path, path, before, after));
  let additions = 0;
  let deletions = 0;
  for (const change of diffLines(before, after)) {
    if (change.added) additions += change.count ?? 0;
    if (change.removed) deletions += change.count ?? 0;
  }
  return { diff, additions, deletions };
}
