/**
 * Tool output truncation: what the model sees of a long output (a preview, a notice and a hint) and where
 * the full output is kept so that it can be searched or read in parts later.
 */
export { MAX_BYTES, MAX_LINES, RETENTION_MS, WRITE_BATCH_BYTES } from "./constants.js";
export { createToolIdGenerator, isToolId, nextToolId, toolIdTimestamp } from "./ids.js";
export {
  type TruncationDirection,
  type TruncationOptions,
} from "./options.js";
export { TruncationSink } from "./sink.js";
export { OutputStore } from "./store.js";
export { truncateOutput, type TruncationResult } from "./truncate.js";
