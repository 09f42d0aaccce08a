/**
 * Tool output truncation: what the model sees of a long output (a preview, a notice and a hint) and where
 * the full output is kept so that it can be searched or read in parts later.
 */
export { ID_PREFIX, MAX_BYTES, MAX_LINES, OUTPUT_FOLDER, RETENTION_MS, WRITE_BATCH_BYTES } from "./constants.js";
export { createToolIdGenerator, isToolId, nextToolId, toolIdTimestamp } from "./ids.js";
export { formatTruncated, truncationHint, type TruncatedParts, type TruncationUnit } from "./notice.js";
export {
  resolveLimits,
  type TruncationDirection,
  type TruncationHint,
  type TruncationLimits,
  type TruncationOptions,
} from "./options.js";
export { TruncationSink, type TruncationSinkOptions } from "./sink.js";
export { OutputStore, type OpenOptions, type OutputStoreOptions } from "./store.js";
export { truncateOutput, type TruncationResult } from "./truncate.js";
export { utf8Length } from "./utf8.js";
export { OutputWriter, type OutputTarget } from "./writer.js";
