/**
 * Tool.define and the types every tool is written against. A tool is an id and an `init`
 * that returns its description, its zod parameters and `execute`; `define` wraps `execute` so that
 * arguments are validated (and parsed: defaults apply) before every run, and output is truncated
 * unless the tool did it itself.
 */
import type { BackgroundJobs } from "./jobs/background-jobs.js";
import { z } from "zod";
import type { Runtime } from "../runtime/types.js";
import type { Bus } from "./bus.js";
import type { FileTime } from "./file-time.js";
import type { LanguageService } from "./ports/language-service.js";
import type { PreviewAccess } from "./ports/preview-access.js";
import type { AskInput, Ruleset } from "./permission/types.js";
import type { SessionCatalog, SessionServices } from "./ports/session-services.js";
import type { WebAccess } from "./ports/web-access.js";

export type Metadata = Record<string, unknown>;

export interface AgentInfo {
  name: string;
  /** The agent's rules (defaults, its own, the workspace config's), in order. */
  permission: Ruleset;
}

interface InitContext {
  agent?: AgentInfo;
  /**
   * The session's subagents and skills, for the descriptions of task and skill. Implemented by the session
   * layer; absent outside a session.
   */
  session?: SessionCatalog;
}

/** An attachment for non-text output (images, PDFs), as a data URL. */
export interface FilePart {
  id: string;
  sessionID: string;
  messageID: string;
  type: "file";
  mime: string;
  url: string;
  filename?: string;
}

export interface TruncateResult {
  content: string;
  truncated: boolean;
  outputPath?: string;
}

/**
 * Truncation for an output that arrives in pieces and may be huge (a command printing 50 MB): each piece
 * goes on to the saved file as it comes, memory keeps only the preview, and finish() returns what
 * `truncate` would have returned for the whole text.
 */
export interface TruncationStream {
  /** Await it: it holds the writer back while a batch is being saved. */
  write(chunk: string): Promise<void>;
  finish(): Promise<TruncateResult>;
  /** Gives the output up (the call failed): removes the file if one was started. */
  discard(): Promise<void>;
}

export type TruncationRequest = { maxLines?: number; maxBytes?: number; direction?: "head" | "tail" };

export interface Context<M extends Metadata = Metadata> {
  sessionID: string;
  messageID: string;
  agent: string;
  abort: AbortSignal;
  callID?: string;
  extra?: Record<string, unknown>;
  /** Live title and metadata for the running call (throttled before it reaches the UI). */
  metadata(input: { title?: string; metadata?: M }): void;
  /**
   * Resolves when allowed; throws a denial or rejection error otherwise. `signal` withdraws the prompt when
   * it aborts, for an ask made after the call returned (a background job's fetch stopped while it waits).
   */
  ask(input: AskInput, options?: { signal?: AbortSignal }): Promise<void>;
  /** Beyond OpenCode's context: the workspace the tool acts on, and the services tools share. */
  runtime: Runtime;
  /** The workspace folder (OpenCode's plugin context calls it directory and worktree). */
  directory: string;
  worktree: string;
  fileTime: FileTime;
  /** Where tools announce what they did (file.edited). */
  bus: Bus;
  /** The session's background shell jobs (bash and shell with `background: true`); absent outside a session. */
  jobs?: BackgroundJobs;
  /** Truncates with the agent's hint, saving the full text in the runtime's data folder. */
  truncate(text: string, options?: TruncationRequest): Promise<TruncateResult>;
  /**
   * The streaming form of `truncate`. A tool using it sets `metadata.truncated` itself, so `define` leaves
   * its output alone. Optional: a context made outside a session (a unit test) may not offer it.
   */
  truncationStream?(options?: TruncationRequest): TruncationStream;

  /**
   * The session the call runs in (todos, subagents, questions, agent switches, nested calls), for the
   * session tools. Implemented by src/session; absent when a call runs outside a conversation.
   */
  session?: SessionServices;

  /**
   * How webfetch, websearch and codesearch reach the web: a plain fetch on Node, direct then a
   * fetch proxy in the page. Given by the session; a context without it has no web tools.
   */
  web?: WebAccess;

  /**
   * The workspace's language service: diagnostics after writes and the lsp tool's operations.
   * Absent when the session has none (a unit test, `"lsp": false` in opencode.json): tools then add nothing.
   */
  lsp?: LanguageService;

  /** The page's Preview pane: only where a page exists; the preview tool is offered only then. */
  preview?: PreviewAccess;
}

export interface ExecuteResult<M extends Metadata = Metadata> {
  title: string;
  metadata: M;
  output: string;
  attachments?: FilePart[];
}

export interface Initialized<P extends z.ZodType = z.ZodType, M extends Metadata = Metadata> {
  description: string;
  parameters: P;
  execute(args: z.infer<P>, ctx: Context): Promise<ExecuteResult<M>>;
  formatValidationError?(error: z.ZodError): string;
}

export interface Info<P extends z.ZodType = z.ZodType, M extends Metadata = Metadata> {
  id: string;
  init(ctx?: InitContext): Promise<Initialized<P, M>>;
}

/** The message a model gets for arguments that do not fit a tool's schema. */
export function invalidArgumentsMessage(id: string, error: z.ZodError): string {
  return `The ${id} tool was called with invalid arguments: ${z.prettifyError(error)}.\nPlease rewrite the input so it satisfies the expected schema.`;
}

export class ToolArgumentsError extends Error {
  override readonly name = "ToolArgumentsError";
}

/**
 * Validates, runs and truncates. Unlike OpenCode, execute receives the parsed value, so zod defaults
 * and transforms apply.
 */
function wrap<P extends z.ZodType, M extends Metadata>(id: string, tool: Initialized<P, M>): Initialized<P, M> {
  const execute = tool.execute;
  return {
    ...tool,
    async execute(args, ctx) {
      const parsed = tool.parameters.safeParse(args);
      if (!parsed.success) {
        const message = tool.formatValidationError ? tool.formatValidationError(parsed.error) : invalidArgumentsMessage(id, parsed.error);
        throw new ToolArgumentsError(message, { cause: parsed.error });
      }
      const result = await execute(parsed.data as z.infer<P>, ctx);
      if ((result.metadata as Metadata).truncated !== undefined) return result;
      const truncated = await ctx.truncate(result.output);
      return {
        ...result,
        output: truncated.content,
        metadata: {
          ...result.metadata,
          truncated: truncated.truncated,
          ...(truncated.truncated ? { outputPath: truncated.outputPath } : {}),
        },
      };
    },
  };
}

type InitOrConfig<P extends z.ZodType, M extends Metadata> = ((ctx?: InitContext) => Promise<Initialized<P, M>>) | Initialized<P, M>;

/** What `define` was given, kept so a tool can be registered under another id (custom tool files). */
const definition = Symbol("tool definition");

export function define<P extends z.ZodType, M extends Metadata>(id: string, init: InitOrConfig<P, M>): Info<P, M> {
  const info: Info<P, M> = {
    id,
    async init(ctx) {
      const tool = typeof init === "function" ? await init(ctx) : init;
      return wrap(id, tool);
    },
  };
  Object.defineProperty(info, definition, { value: init, enumerable: false });
  return info;
}

/** The same tool under another id, so its validation errors name the id the model calls it by. */
export function renamed(info: Info, id: string): Info {
  const original = (info as Info & { [definition]?: InitOrConfig<z.ZodType, Metadata> })[definition];
  if (original) return define(id, original);
  return { id, init: (ctx) => info.init(ctx) };
}

export const Tool = { define };
