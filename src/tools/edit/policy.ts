/**
 * The two ways `replace` can behave, as data: OpenCode's (OpenCode v1.2.25, the benchmark's reference)
 * and ours. Every number here was chosen against the edit-accuracy corpus (bench/edit-corpus.ts), whose
 * cases say what the right answer is; the comments give the reason behind each one.
 */
import { SEED_BLOCK_ANCHOR, type BlockAnchorTuning } from "./replacers/block-anchor.js";
import type { EditPolicy } from "./types.js";

/*
 * Measured on 20,000 random pairs of code lines from the corpus sources, Levenshtein similarity of two
 * unrelated lines has median 0.15, 99th percentile 0.40, 99.9th 0.67 (0.18% reach 0.6). A line the model
 * remembered slightly wrong (a dropped semicolon, other quotes, spacing, an escaped quote) scores at least
 * 0.75, 0.82 at the 1st percentile and 0.96 at the median.
 */

/**
 * Safe BlockAnchor threshold: the average similarity the middle lines of an anchored span must reach. The
 * OpenCode accepts a lone candidate at 0.0 (any middle at all: #24959) and the best of several at 0.3 (an
 * ordinary unrelated line). 0.75 is the lowest score of a cosmetic slip, so a block with one slipped line
 * passes and a block whose middle is mostly other code does not. In the safe policy the score is taken by
 * the span guard (guards.ts) over the non-blank lines paired in order, so blank lines neither help nor hurt
 * (OpenCode's score counts a pair of blank lines as 0), and BlockAnchor itself yields every anchored pair.
 */
export const SAFE_BLOCK_ANCHOR_THRESHOLD = 0.75;

/**
 * Every middle line of an anchored match (BlockAnchor, ContextAware) must resemble its counterpart at
 * least this much, so one invented or unrelated line cannot hide inside a long block whose average is
 * good: replacing it would silently drop a line of the file the model never quoted. 0.6 lets every
 * cosmetic slip through (>= 0.75) and stops 99.8% of unrelated lines.
 */
export const SAFE_MIDDLE_LINE_SIMILARITY = 0.6;

/**
 * A fuzzy span may hold at most this many times oldString's non-whitespace characters (plus a few, so
 * short strings are not refused for a bracket). Normalizing strategies never exceed 1; only anchored
 * spans can, and those are further held to oldString's count of non-blank lines.
 */
export const SAFE_MAX_INK_RATIO = 1.25;
export const SAFE_INK_SLACK = 10;

export interface PolicyRules {
  readonly blockAnchor: BlockAnchorTuning;
  /**
   * "seed": a candidate found more than once is skipped and the next one tried, so a fuzzy strategy may
   * end up editing a unique variant of text that was ambiguous (#41872). "report": the first strategy
   * that finds anything decides, and several places are reported as multiple matches.
   */
  readonly ambiguity: "seed" | "report";
  /** Refuse fuzzy spans much larger than oldString, and anchored spans whose middle lines do not resemble it. */
  readonly guardSpans: boolean;
  /**
   * At a fuzzy match, make the change from oldString to newString on the file's own lines (keeping the
   * file's text where the model changed nothing, re-indenting new lines) instead of writing newString.
   */
  readonly applyChange: boolean;
  /** Also match lines that differ only in typographic punctuation (PunctuationNormalized, after LineTrimmed). */
  readonly punctuation: boolean;
}

export const POLICIES: Readonly<Record<EditPolicy, PolicyRules>> = {
  seed: { blockAnchor: SEED_BLOCK_ANCHOR, ambiguity: "seed", guardSpans: false, applyChange: false, punctuation: false },
  safe: {
    // Every candidate, scored by the guard instead; several that pass are reported as multiple matches.
    blockAnchor: {
      singleCandidateThreshold: 0,
      multipleCandidatesThreshold: 0,
      candidates: "all",
      lastAnchor: "first-and-same-size",
    },
    ambiguity: "report",
    guardSpans: true,
    applyChange: true,
    punctuation: true,
  },
};
