/** The vocabulary the matching engine shares between its replacers, its policies and its callers. */

/** OpenCode's nine strategies, in the order `replace` tries them. */
export const REPLACER_NAMES = [
  "Simple",
  "LineTrimmed",
  "BlockAnchor",
  "WhitespaceNormalized",
  "IndentationFlexible",
  "EscapeNormalized",
  "TrimmedBoundary",
  "ContextAware",
  "MultiOccurrence",
] as const;

/** Ours: tried by the safe policy only, right after LineTrimmed. */
const SAFE_ONLY_REPLACER_NAMES = ["PunctuationNormalized"] as const;

export type ReplacerName = (typeof REPLACER_NAMES)[number] | (typeof SAFE_ONLY_REPLACER_NAMES)[number];

/**
 * A strategy: given the file's text and the model's oldString, it yields substrings of the file that it
 * believes oldString meant. It decides nothing: `replace` locates each candidate, judges it and applies it.
 */
export type Replacer = (content: string, find: string) => Generator<string, void, undefined>;

export interface NamedReplacer {
  readonly name: ReplacerName;
  readonly find: Replacer;
}

/**
 * "seed": OpenCode's behaviour (BlockAnchor thresholds 0.0 / 0.3, newString written verbatim), kept as
 * the reference the edit-accuracy benchmark measures against. "safe": ours, the default.
 */
export type EditPolicy = "seed" | "safe";

export interface ReplaceOptions {
  /** Replace every occurrence (literally: `$&`, `$$` and friends in newString stay as written). */
  replaceAll?: boolean;
  policy?: EditPolicy;
}

/** A line of oldString that is not the file's line as written, and the file line it stands for. */
export interface DifferingLine {
  /** 1-based line of oldString. */
  readonly model: number;
  /** 1-based line of the file, or undefined when the line has no counterpart there. */
  readonly file: number | undefined;
  /** Same once whitespace, escapes and typographic punctuation are set aside (not a real mismatch). */
  readonly cosmetic: boolean;
}

export interface ReplaceResult {
  /** The whole text after the replacement. */
  content: string;
  /** The strategy that matched. */
  strategy: ReplacerName;
  /** True unless oldString was found exactly (Simple or MultiOccurrence). */
  fuzzy: boolean;
  /** How many places were replaced (1 unless replaceAll). */
  occurrences: number;
  /** 1-based line of the original text where the (first) replaced span starts. */
  startLine: number;
  /** 1-based line of the original text where the (last) replaced span ends. */
  endLine: number;
  /**
   * For a fuzzy match (safe policy), oldString's lines that are not the file's lines as written (at the
   * first place): the model's picture of the file was off there, and the file's text was kept.
   */
  differing: readonly DifferingLine[];
}

/** Lines `start`..`end` of the original text, 1-based and inclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export function isFuzzy(name: ReplacerName): boolean {
  return name !== "Simple" && name !== "MultiOccurrence";
}
