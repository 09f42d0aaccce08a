/**
 * What the preview frame may say to the page, checked before anything is done with it: the frame runs the
 * workspace's code, so its messages are input from an untrusted party.
 */
import { z } from "zod";

const Source = z.object({ path: z.string().max(4096), line: z.number().int(), column: z.number().int() });

export const FrameMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("console"),
    level: z.enum(["log", "info", "warn", "error", "debug"]),
    text: z.string().max(20_000),
    source: Source.optional(),
  }),
  z.object({
    type: z.literal("error"),
    kind: z.enum(["uncaught", "rejection"]),
    message: z.string().max(20_000),
    stack: z.string().max(50_000).optional(),
    source: Source.optional(),
  }),
  /** A React root exists: the page can take hot updates. */
  z.object({ type: z.literal("hot-ready") }),
  z.object({ type: z.literal("hot-done"), id: z.number().int(), roots: z.number().int(), failed: z.boolean().optional() }),
  z.object({ type: z.literal("fetch"), id: z.number().int(), path: z.string().max(4096) }),
  z.object({ type: z.literal("navigate"), path: z.string().max(4096) }),
  z.object({ type: z.literal("snapshot"), id: z.number().int(), title: z.string().max(10_000), text: z.string().max(5_000_000) }),
  z.object({
    type: z.literal("screenshot"),
    id: z.number().int(),
    /** A PNG, nothing else: the page hands it to the model as an image. */
    dataUrl: z
      .string()
      .max(16_000_000)
      .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)
      .optional(),
    error: z.string().max(2_000).optional(),
  }),
]);
export type FrameMessage = z.infer<typeof FrameMessage>;
