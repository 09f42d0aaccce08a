/**
 * The edit tool's matching engine: pure functions over LF text, no I/O. `replace` is the entry point;
 * the replacers, the similarity measure and the closest-lines finder are exported for tests, tools and
 * the edit-accuracy benchmark.
 */
export { replace } from "./replace.js";
export {
  CLOSEST_HEADING,
  EditMatchError,
  IDENTICAL_MESSAGE,
  MULTIPLE_MESSAGE,
  NOT_FOUND_MESSAGE,
  TOO_BROAD_MESSAGE,
  type EditMatchErrorKind,
} from "./errors.js";
export { levenshtein, similarity } from "./levenshtein.js";
export { adaptNewString } from "./reindent.js";
export { describeMatch } from "./notes.js";
export {
  POLICIES,
  SAFE_BLOCK_ANCHOR_THRESHOLD,
  SAFE_INK_SLACK,
  SAFE_MAX_INK_RATIO,
  SAFE_MIDDLE_LINE_SIMILARITY,
} from "./policy.js";
export * from "./replacers/index.js";
export {
  REPLACER_NAMES,
  type EditPolicy,
  type Replacer,
  type ReplaceOptions,
} from "./types.js";
