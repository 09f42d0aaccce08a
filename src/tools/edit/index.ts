/**
 * The edit tool's matching engine: pure functions over LF text, no I/O. `replace` is the entry point;
 * the replacers, the similarity measure and the closest-lines finder are exported for tests, tools and
 * the edit-accuracy benchmark.
 */
export { replace } from "./replace.js";
export {
  CLOSEST_HEADING,
  EditMatchError,
  EMPTY_MESSAGE,
  FILE_LINES_HEADING,
  MISREMEMBERED_MESSAGE,
  IDENTICAL_MESSAGE,
  MULTIPLE_MESSAGE,
  NOT_FOUND_MESSAGE,
  TOO_BROAD_MESSAGE,
  type EditMatchErrorKind,
} from "./errors.js";
export { levenshtein, lineSimilarity, LONGEST_COMPARED_LINE, similarity } from "./levenshtein.js";
export { closestLines, type ClosestLines } from "./closest.js";
export { adaptNewString } from "./reindent.js";
export { describeMatch } from "./notes.js";
export { applyChange, carryEditedLine, carryLineChange, modelStrings, type AppliedChange } from "./intent.js";
export { normalizePunctuation } from "./punctuation.js";
export { judgeSpan, type SpanVerdict } from "./guards.js";
export {
  POLICIES,
  SAFE_BLOCK_ANCHOR_THRESHOLD,
  SAFE_INK_SLACK,
  SAFE_MAX_INK_RATIO,
  SAFE_MIDDLE_LINE_SIMILARITY,
  type PolicyRules,
} from "./policy.js";
export * from "./replacers/index.js";
export {
  isFuzzy,
  REPLACER_NAMES,
  SAFE_ONLY_REPLACER_NAMES,
  type DifferingLine,
  type EditPolicy,
  type LineRange,
  type NamedReplacer,
  type Replacer,
  type ReplacerName,
  type ReplaceOptions,
  type ReplaceResult,
} from "./types.js";
