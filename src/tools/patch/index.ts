/**
 * The apply_patch core: parse a patch, verify it against the files and plan every file's new text.
 * Pure: it reads through the `PatchIo` it is given and never writes; the apply_patch tool asks for
 * permission with the planned diffs, writes the `after` texts, and prints `formatSummary`.
 */
export { parsePatch } from "./parse.js";
export { seekSequence, normalizePunctuation, stripLineNumberPrefix } from "./seek.js";
export { planPatch } from "./plan.js";
export { trimDiff } from "../files/diff.js";
export { formatSummary } from "./summary.js";
export { PatchError, isPatchError } from "./errors.js";
export type { PlannedChange, PatchIo } from "./types.js";
