/**
 * What `@opencode-ai/plugin` gives a custom tool or plugin file, so files written for OpenCode run here
 * unchanged: `tool({ description, args, execute })` (with `tool.schema`, which is zod) and `Tool.define`.
 */
import { z } from "zod";
import type { Runtime } from "../../runtime/types.js";
import type { AskInput } from "../permission/types.js";
import { define } from "../tool.js";

export interface ToolContext {
  sessionID: string;
  messageID: string;
  agent: string;
  directory: string;
  worktree: string;
  abort: AbortSignal;
  metadata(input: { title?: string; metadata?: Record<string, unknown> }): void;
  ask(input: AskInput): Promise<void>;
}

export interface ToolDefinition<Args extends z.ZodRawShape = z.ZodRawShape> {
  description: string;
  args: Args;
  execute(args: z.infer<z.ZodObject<Args>>, context: ToolContext): Promise<string>;
}

export function tool<Args extends z.ZodRawShape>(input: ToolDefinition<Args>): ToolDefinition<Args> {
  return input;
}
tool.schema = z;

export const Tool = { define };

/** The shell a plugin gets as `$`: a tagged template over the workspace runtime, values quoted. */
export interface PluginShell {
  (
    strings: TemplateStringsArray,
    ...values: unknown[]
  ): Promise<{ stdout: string; stderr: string; exitCode: number | null; text(): string }>;
}

export interface PluginInput {
  directory: string;
  worktree: string;
  project: { id: string; worktree: string };
  $: PluginShell;
  /** OpenCode's SDK client has no counterpart in the browser. */
  client: undefined;
}

export interface Hooks {
  tool?: Record<string, ToolDefinition>;
  "tool.execute.before"?: (
    input: { tool: string; sessionID: string; callID: string },
    output: { args: Record<string, unknown> },
  ) => Promise<void>;
  "tool.execute.after"?: (
    input: { tool: string; sessionID: string; callID: string; args: Record<string, unknown> },
    output: { title: string; output: string; metadata: Record<string, unknown> },
  ) => Promise<void>;
  event?: (input: { event: { type: string; properties: unknown } }) => Promise<void>;
}

export type Plugin = (input: PluginInput) => Promise<Hooks>;

const quote = (value: unknown) => `'${String(value).replace(/'/g, `'\\''`)}'`;

export function createPluginShell(runtime: Runtime): PluginShell {
  return pluginShellOver((command) => runtime.exec(command));
}

/** The same shell over any way to run a command line (a sandboxed plugin asks the page by message). */
export function pluginShellOver(
  exec: (command: string) => Promise<{ stdout: string; stderr: string; exitCode: number | null }>,
): PluginShell {
  return async (strings, ...values) => {
    const command = strings.reduce(
      (text, part, i) =>
        text +
        part +
        (i < values.length ? (Array.isArray(values[i]) ? (values[i] as unknown[]).map(quote).join(" ") : quote(values[i])) : ""),
      "",
    );
    const result = await exec(command);
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, text: () => result.stdout };
  };
}
