/**
 * What a checkpoint records. The zod schemas are the source of the types: a stored checkpoint is read
 * back through them, so a damaged record is refused with a message rather than restored from.
 */
import { z } from "zod";

/** One path's state: a file (its content by hash), a folder, or a symbolic link (its target, not followed). */
const EntrySchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("file"),
    hash: z.string(),
    size: z.number(),
    mode: z.number().optional(),
    /** Size and mtime when read, so a later scan of a real folder may trust an untouched file unread. */
    seen: z.object({ size: z.number(), mtimeMs: z.number() }).optional(),
  }),
  z.object({ type: z.literal("directory"), mode: z.number().optional() }),
  z.object({ type: z.literal("symlink"), target: z.string() }),
]);
export type Entry = z.infer<typeof EntrySchema>;

/** A path (relative to the workspace root, "/"-separated) going from `before` to `after`; null: absent. */
const ChangeSchema = z.object({
  path: z.string().min(1),
  before: EntrySchema.nullable(),
  after: EntrySchema.nullable(),
});
export type Change = z.infer<typeof ChangeSchema>;

/**
 * Why a checkpoint was taken, which says who made its changes (those since the checkpoint before it):
 * - baseline: the workspace as first seen (every path a creation);
 * - call: a tool call ended, its changes are the call's;
 * - message, call-start, outside: a moment before a user message or a call; changes there were made by
 *   hand (editor, terminal, uploads) or by nothing the session knows;
 * - restore, revert: an undo, a redo or a call reverted through this store.
 */
const CauseSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("baseline") }),
  z.object({ kind: z.literal("outside") }),
  z.object({ kind: z.literal("message"), sessionID: z.string(), messageID: z.string() }),
  z.object({ kind: z.literal("call-start"), sessionID: z.string(), callID: z.string() }),
  z.object({ kind: z.literal("call"), sessionID: z.string(), callID: z.string(), tool: z.string().optional() }),
  z.object({ kind: z.literal("restore"), to: z.number() }),
  z.object({ kind: z.literal("revert"), callID: z.string() }),
]);
export type Cause = z.infer<typeof CauseSchema>;

export const CheckpointSchema = z.object({
  /** Ascending from 0 (the baseline): the order of the timeline. */
  seq: z.number().int().nonnegative(),
  time: z.number(),
  cause: CauseSchema,
  changes: z.array(ChangeSchema),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** Changes in these checkpoints were made by a person (or by nothing the session ran): undo must ask first. */
export function isByHand(cause: Cause): boolean {
  return cause.kind === "outside" || cause.kind === "message" || cause.kind === "call-start";
}

export function sameEntry(a: Entry | null, b: Entry | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === "file" && b.type === "file") return a.hash === b.hash && a.mode === b.mode;
  if (a.type === "directory" && b.type === "directory") return a.mode === b.mode;
  return a.type === "symlink" && b.type === "symlink" && a.target === b.target;
}
