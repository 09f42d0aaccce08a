/** The preview strategy for a direction: the head keeps the first lines, the tail the last. */
import { HeadPreview } from "./head-preview.js";
import type { TruncationLimits } from "./options.js";
import type { Preview } from "./preview.js";
import { TailPreview } from "./tail-preview.js";

export function createPreview(limits: TruncationLimits): Preview {
  return limits.direction === "head"
    ? new HeadPreview(limits.maxLines, limits.maxBytes)
    : new TailPreview(limits.maxLines, limits.maxBytes);
}
