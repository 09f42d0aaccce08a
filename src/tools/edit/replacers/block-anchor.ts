/**
 * BlockAnchor: oldString's first and last lines (trimmed) anchor a block of the file; the lines between
 * are scored with Levenshtein similarity. Needs at least three lines. This is the strategy that can match
 * far more than the model quoted (#24959): OpenCode pairs each first-line anchor with the first later
 * last-line anchor, however far away, and accepts a lone candidate at similarity 0.0. The thresholds and
 * the way candidates are paired and reported are therefore tunable, per policy.
 */
import { indexLines, isBlank, sliceLines } from "../lines.js";
import { lineSimilarity } from "../levenshtein.js";
import type { Replacer } from "../types.js";

export interface BlockAnchorTuning {
  /** A lone candidate is yielded when its middle-line similarity is at least this. */
  readonly singleCandidateThreshold: number;
  /** With several candidates, the threshold each (or the best) must reach. */
  readonly multipleCandidatesThreshold: number;
  /**
   * "best": yield only the most similar of several candidates (OpenCode), which hides that there were
   * several; "all": yield every candidate that reaches the threshold, so the caller sees the ambiguity.
   */
  readonly candidates: "best" | "all";
  /**
   * "first": pair a first-line anchor with the first last-line anchor at least two lines below (the
   * OpenCode). "first-and-same-size": also with the last-line anchor that closes a block of as many
   * non-blank lines as oldString has, which is the block meant when the last line (a lone "}") also
   * occurs inside it.
   */
  readonly lastAnchor: "first" | "first-and-same-size";
}

/** OpenCode: `SINGLE_CANDIDATE_SIMILARITY_THRESHOLD = 0.0`, `MULTIPLE_CANDIDATES_SIMILARITY_THRESHOLD = 0.3`. */
export const SEED_BLOCK_ANCHOR: BlockAnchorTuning = {
  singleCandidateThreshold: 0.0,
  multipleCandidatesThreshold: 0.3,
  candidates: "best",
  lastAnchor: "first",
};

interface Candidate {
  readonly start: number;
  readonly end: number;
}

/**
 * OpenCode's score: the average similarity of the trimmed middle lines, paired by position, over as many
 * middle lines as the shorter of the two blocks has. Pairs of empty lines are skipped but still counted.
 * (One departure: lines over LONGEST_COMPARED_LINE characters count as equal or not, where OpenCode would
 * spend quadratic time and memory on them.)
 */
function anchoredSimilarity(fileTrimmed: readonly string[], candidate: Candidate, searchTrimmed: readonly string[]): number {
  const actual = candidate.end - candidate.start + 1;
  const compared = Math.min(searchTrimmed.length - 2, actual - 2);
  if (compared <= 0) return 1;
  let sum = 0;
  for (let j = 1; j <= compared; j++) {
    const fileLine = fileTrimmed[candidate.start + j]!;
    const searchLine = searchTrimmed[j]!;
    if (fileLine.length === 0 && searchLine.length === 0) continue;
    sum += lineSimilarity(fileLine, searchLine);
  }
  return sum / compared;
}

export function createBlockAnchorReplacer(tuning: BlockAnchorTuning): Replacer {
  return function* blockAnchor(content, find) {
    const raw = find.split("\n");
    // OpenCode counts lines before dropping a trailing empty one, so "a\nb\n" qualifies.
    if (raw.length < 3) return;
    if (raw[raw.length - 1] === "") raw.pop();
    const search = raw.map((line) => line.trim());
    const first = search[0]!;
    const last = search[search.length - 1]!;
    const index = indexLines(content);
    const trimmed = index.lines.map((line) => line.trim());
    const searchNonBlank = raw.filter((line) => !isBlank(line)).length;

    const candidates: Candidate[] = [];
    const add = (start: number, end: number) => {
      if (!candidates.some((c) => c.start === start && c.end === end)) candidates.push({ start, end });
    };
    for (let i = 0; i < trimmed.length; i++) {
      if (trimmed[i] !== first) continue;
      for (let j = i + 2; j < trimmed.length; j++) {
        if (trimmed[j] === last) {
          add(i, j);
          break;
        }
      }
      if (tuning.lastAnchor === "first-and-same-size" && first !== "" && last !== "") {
        let nonBlank = 0;
        for (let k = i; k < trimmed.length; k++) {
          if (trimmed[k] !== "") nonBlank++;
          if (nonBlank < searchNonBlank) continue;
          if (k >= i + 2 && trimmed[k] === last) add(i, k);
          break;
        }
      }
    }
    if (candidates.length === 0) return;

    const threshold = candidates.length === 1 ? tuning.singleCandidateThreshold : tuning.multipleCandidatesThreshold;
    // Scores are at least 0: with no threshold to reach, every candidate goes out unscored.
    if (tuning.candidates === "all" && threshold <= 0) {
      for (const candidate of candidates) yield sliceLines(content, index, candidate.start, candidate.end);
      return;
    }
    const scored = candidates.map((candidate) => ({ candidate, score: anchoredSimilarity(trimmed, candidate, search) }));
    if (tuning.candidates === "all") {
      for (const { candidate, score } of scored) {
        if (score >= threshold) yield sliceLines(content, index, candidate.start, candidate.end);
      }
      return;
    }
    // The first of equally similar candidates wins, as in OpenCode (strictly greater replaces the best).
    let best = scored[0]!;
    for (const entry of scored) if (entry.score > best.score) best = entry;
    if (best.score >= threshold) yield sliceLines(content, index, best.candidate.start, best.candidate.end);
  };
}

export const BlockAnchorReplacer: Replacer = createBlockAnchorReplacer(SEED_BLOCK_ANCHOR);
