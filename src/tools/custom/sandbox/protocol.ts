/**
 * The messages between the page and a custom-code sandbox (an opaque-origin worker that runs a trusted
 * workspace's custom tools and plugins away from the workbench's storage). The page sends the files'
 * sources once, then calls and hook runs; the sandbox answers with plain data only. Everything the sandbox
 * sends is checked here against these schemas: the workspace's code shares the sandbox's thread and may
 * post anything.
 */
import { z } from "zod";

const HOOK_NAMES = ["tool.execute.before", "tool.execute.after"] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** The narrow context a call carries into the sandbox: no runtime, no storage, no services. */
export interface SandboxCallContext {
  sessionID: string;
  messageID: string;
  agent: string;
  callID?: string;
  directory: string;
}

export type ToSandbox =
  | { kind: "load"; root: string; tools: SourceFile[]; plugins: SourceFile[] }
  | { kind: "call"; id: number; tool: string; args: unknown; context: SandboxCallContext }
  | { kind: "abort"; id: number }
  | { kind: "hook"; id: number; plugin: number; name: HookName; input: unknown; output: unknown }
  | { kind: "reply"; id: number; ok: true; value?: unknown }
  | { kind: "reply"; id: number; ok: false; message: string };

export interface SourceFile {
  path: string;
  source: string;
}

const problem = z.object({ file: z.string(), error: z.string() });

export const fromSandboxSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("loaded"),
    tools: z.array(z.object({ id: z.string().min(1), description: z.string(), schema: z.record(z.string(), z.unknown()) })),
    plugins: z.array(z.object({ file: z.string(), name: z.string(), hooks: z.array(z.enum(HOOK_NAMES)) })),
    problems: z.array(problem),
  }),
  z.object({
    kind: z.literal("done"),
    id: z.number(),
    title: z.string(),
    output: z.string(),
    metadata: z.record(z.string(), z.unknown()),
  }),
  z.object({ kind: z.literal("hooked"), id: z.number(), output: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal("failed"), id: z.number(), message: z.string(), invalidArguments: z.boolean() }),
  z.object({
    kind: z.literal("metadata"),
    id: z.number(),
    title: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({
    kind: z.literal("ask"),
    id: z.number(),
    call: z.number(),
    input: z.object({
      permission: z.string().min(1),
      patterns: z.array(z.string()),
      always: z.array(z.string()),
      metadata: z.record(z.string(), z.unknown()),
    }),
  }),
  z.object({ kind: z.literal("shell"), id: z.number(), command: z.string() }),
]);

export type FromSandbox = z.infer<typeof fromSandboxSchema>;
