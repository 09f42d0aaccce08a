/**
 * A session's conversation as OpenCode models it: user and assistant messages, each a list of parts.
 * An assistant message is one model step's worth of parts (step-start, reasoning, text, tool calls,
 * step-finish); the loop adds one per step. A tool part names its call: the call's record (state,
 * input, output, permissions) stays in the session's `calls`, the one place the runner keeps it, so
 * calls run by hand and calls made by the model are the same kind of thing.
 *
 * These schemas are the single source of the types and of what an imported session must look like.
 */
import { z } from "zod";

// Counts and costs are never negative: an imported file saying otherwise would skew every total.
export const Tokens = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative(),
  cache: z.object({ read: z.number().nonnegative(), write: z.number().nonnegative() }),
});
export type Tokens = z.infer<typeof Tokens>;

export const emptyTokens = (): Tokens => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } });

const PartBase = { id: z.string(), messageID: z.string() };
const Times = z.object({ start: z.number(), end: z.number().optional() });

export const TextPart = z.object({
  ...PartBase,
  type: z.literal("text"),
  text: z.string(),
  /** Written by the workbench, not typed by the person or the model (a reminder, a summary request). */
  synthetic: z.boolean().optional(),
  time: Times.optional(),
});
export const ReasoningPart = z.object({ ...PartBase, type: z.literal("reasoning"), text: z.string(), time: Times.optional() });
const ToolPart = z.object({
  ...PartBase,
  type: z.literal("tool"),
  /** The id the provider gave the call (sent back with its result). */
  providerCallID: z.string(),
  /** The call's record in the session's `calls`. */
  callID: z.string(),
  tool: z.string(),
});
const StepStartPart = z.object({ ...PartBase, type: z.literal("step-start") });
const StepFinishPart = z.object({
  ...PartBase,
  type: z.literal("step-finish"),
  /** The provider's finish reason: stop, tool-calls, length, content-filter, error, other, unknown. */
  reason: z.string(),
  tokens: Tokens,
  cost: z.number().nonnegative(),
});
export const FilePart = z.object({
  ...PartBase,
  type: z.literal("file"),
  mime: z.string(),
  filename: z.string().optional(),
  /** A data: URL (pasted images, attached files' bytes) or the file's workspace path as file://. */
  url: z.string(),
});
/** Marks a user message that asked for compaction; the assistant reply after it is the summary. */
const CompactionPart = z.object({ ...PartBase, type: z.literal("compaction"), auto: z.boolean() });

export const Part = z.discriminatedUnion("type", [
  TextPart,
  ReasoningPart,
  ToolPart,
  StepStartPart,
  StepFinishPart,
  FilePart,
  CompactionPart,
]);
export type Part = z.infer<typeof Part>;
export type TextPart = z.infer<typeof TextPart>;
export type ReasoningPart = z.infer<typeof ReasoningPart>;
type ToolPart = z.infer<typeof ToolPart>;
type StepStartPart = z.infer<typeof StepStartPart>;
type StepFinishPart = z.infer<typeof StepFinishPart>;
export type FilePart = z.infer<typeof FilePart>;
type CompactionPart = z.infer<typeof CompactionPart>;

export const ModelRef = z.object({ providerID: z.string(), modelID: z.string() });
export type ModelRef = z.infer<typeof ModelRef>;

/** What went wrong with a step, as the person should see it (the provider layer classifies errors). */
export const MessageError = z.object({
  /** auth, credit, model, context, network, cors, rate, server, aborted, interrupted, unknown */
  kind: z.string(),
  message: z.string(),
  /** What the person can do about it. */
  hint: z.string().optional(),
  status: z.number().optional(),
});
export type MessageError = z.infer<typeof MessageError>;

export const UserMessage = z.object({
  id: z.string(),
  sessionID: z.string(),
  role: z.literal("user"),
  time: z.object({ created: z.number() }),
  agent: z.string(),
  model: ModelRef,
  parts: z.array(Part),
});
export type UserMessage = z.infer<typeof UserMessage>;

export const AssistantMessage = z.object({
  id: z.string(),
  sessionID: z.string(),
  role: z.literal("assistant"),
  /** The user message this answers. */
  parentID: z.string(),
  time: z.object({ created: z.number(), completed: z.number().optional() }),
  agent: z.string(),
  providerID: z.string(),
  modelID: z.string(),
  parts: z.array(Part),
  /** The provider's finish reason for this step; absent while it streams. */
  finish: z.string().optional(),
  error: MessageError.optional(),
  tokens: Tokens,
  cost: z.number().nonnegative(),
  /** This message is a compaction summary: the model sees it instead of everything before it. */
  summary: z.boolean().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

export const Message = z.discriminatedUnion("role", [UserMessage, AssistantMessage]);
export type Message = z.infer<typeof Message>;
