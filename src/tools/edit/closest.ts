/**
 * When nothing matches, the model retries better if it sees what the file really has near what it meant:
 * the window of lines most similar to oldString, with line numbers. Windows have oldString's line count;
 * every one is scored cheaply (shared tokens, line by line), and the few best are ranked again by edit
 * similarity of their trimmed text, so a large file costs a linear scan, not an edit distance per line.
 */
import { searchLines } from "./lines.js";
import { similarity } from "./levenshtein.js";

/** Lines shown at most; a longer oldString is shown by its first lines' window. */
const CLOSEST_MAX_LINES = 30;
/** Characters shown of one line at most. */
const CLOSEST_MAX_LINE_CHARS = 200;
/** oldString lines used to score a window (the start of a long oldString places it well enough). */
const SCORED_LINES = 40;
/** Windows ranked by edit similarity after the cheap pass. */
const RERANKED = 5;
/** Characters of each side the edit similarity looks at. */
const RERANK_CHARS = 2000;

export interface ClosestLines {
  /** 1-based number of the first line shown. */
  readonly startLine: number;
  readonly lines: readonly string[];
  /** Edit similarity of the window's trimmed text to oldString's, 0..1. */
  readonly similarity: number;
}

function tokens(line: string): Set<string> {
  return new Set(line.match(/[\p{L}\p{N}_$]+|[^\s\p{L}\p{N}_$]/gu) ?? []);
}

function shared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const token of small) if (large.has(token)) common++;
  return common / (a.size + b.size - common);
}

export function closestLines(content: string, find: string): ClosestLines | undefined {
  if (content === "") return undefined;
  const fileLines = content.split("\n");
  const fileTrimmed = fileLines.map((line) => line.trim());
  const wanted = searchLines(find).map((line) => line.trim());
  const size = Math.min(wanted.length, fileLines.length);
  const scored = Math.min(size, SCORED_LINES);
  const fileTokens = fileTrimmed.map(tokens);
  const wantedTokens = wanted.slice(0, scored).map(tokens);

  const cheap: Array<{ start: number; score: number }> = [];
  for (let start = 0; start + size <= fileLines.length; start++) {
    let score = 0;
    for (let k = 0; k < scored; k++) {
      score += fileTrimmed[start + k] === wanted[k] ? 1 : 0.9 * shared(fileTokens[start + k]!, wantedTokens[k]!);
    }
    cheap.push({ start, score });
  }
  cheap.sort((a, b) => b.score - a.score || a.start - b.start);

  const target = wanted.slice(0, size).join("\n").slice(0, RERANK_CHARS);
  let best: { start: number; similarity: number } | undefined;
  for (const { start } of cheap.slice(0, RERANKED)) {
    const text = fileTrimmed
      .slice(start, start + size)
      .join("\n")
      .slice(0, RERANK_CHARS);
    const score = similarity(text, target);
    if (!best || score > best.similarity || (score === best.similarity && start < best.start)) best = { start, similarity: score };
  }
  if (!best) return undefined;
  const shown = fileLines.slice(best.start, best.start + Math.min(size, CLOSEST_MAX_LINES));
  return {
    startLine: best.start + 1,
    lines: shown.map((line) => (line.length > CLOSEST_MAX_LINE_CHARS ? `${line.slice(0, CLOSEST_MAX_LINE_CHARS)}…` : line)),
    similarity: best.similarity,
  };
}
