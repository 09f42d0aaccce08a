/** The nine strategies in OpenCode's order, and the two orders `replace` uses (they differ in BlockAnchor's tuning). */
import type { NamedReplacer } from "../types.js";
import { createBlockAnchorReplacer, SEED_BLOCK_ANCHOR, type BlockAnchorTuning } from "./block-anchor.js";
import { ContextAwareReplacer } from "./context-aware.js";
import { EscapeNormalizedReplacer } from "./escape-normalized.js";
import { IndentationFlexibleReplacer } from "./indentation-flexible.js";
import { LineTrimmedReplacer } from "./line-trimmed.js";
import { MultiOccurrenceReplacer } from "./multi-occurrence.js";
import { PunctuationNormalizedReplacer } from "./punctuation-normalized.js";
import { SimpleReplacer } from "./simple.js";
import { TrimmedBoundaryReplacer } from "./trimmed-boundary.js";
import { WhitespaceNormalizedReplacer } from "./whitespace-normalized.js";

export {
  BlockAnchorReplacer,
  createBlockAnchorReplacer,
  SEED_BLOCK_ANCHOR,
  type BlockAnchorTuning,
} from "./block-anchor.js";
export { ContextAwareReplacer } from "./context-aware.js";
export { EscapeNormalizedReplacer, unescapeString } from "./escape-normalized.js";
export { IndentationFlexibleReplacer } from "./indentation-flexible.js";
export { LineTrimmedReplacer } from "./line-trimmed.js";
export { MultiOccurrenceReplacer } from "./multi-occurrence.js";
export { SimpleReplacer } from "./simple.js";
export { TrimmedBoundaryReplacer } from "./trimmed-boundary.js";
export { WhitespaceNormalizedReplacer } from "./whitespace-normalized.js";

/**
 * OpenCode's order, with BlockAnchor tuned as `blockAnchor` says; with `punctuation`, our
 * PunctuationNormalized after LineTrimmed.
 */
export function replacersWith(blockAnchor: BlockAnchorTuning, punctuation = false): readonly NamedReplacer[] {
  return [
    { name: "Simple", find: SimpleReplacer },
    { name: "LineTrimmed", find: LineTrimmedReplacer },
    ...(punctuation ? [{ name: "PunctuationNormalized", find: PunctuationNormalizedReplacer } as const] : []),
    { name: "BlockAnchor", find: createBlockAnchorReplacer(blockAnchor) },
    { name: "WhitespaceNormalized", find: WhitespaceNormalizedReplacer },
    { name: "IndentationFlexible", find: IndentationFlexibleReplacer },
    { name: "EscapeNormalized", find: EscapeNormalizedReplacer },
    { name: "TrimmedBoundary", find: TrimmedBoundaryReplacer },
    { name: "ContextAware", find: ContextAwareReplacer },
    { name: "MultiOccurrence", find: MultiOccurrenceReplacer },
  ];
}

/** The nine replacers exactly as OpenCode has them. */
export const REPLACERS: readonly NamedReplacer[] = replacersWith(SEED_BLOCK_ANCHOR);
