/**
 * The sandbox's side of custom code: evaluates the workspace's tool and plugin files, describes each tool
 * by its id, description and JSON Schema, and runs calls and hooks as the page asks. It runs inside the
 * sandbox (see protocol.ts), so it holds nothing the workspace's code may not see: the files' sources, the
 * arguments of its own calls, and a narrow context. Whatever a tool does outside its own thread goes
 * through the page by message (permission asks, a plugin's `$`).
 */
import { basename, extname } from "pathe";
import { z } from "zod";
import { errorMessage } from "../../../base/error-message.js";
import { invalidArgumentsMessage, type Info, type Initialized } from "../../tool.js";
import { isToolDefinition, isToolInfo } from "../from-plugin.js";
import { evaluateModule } from "../module-loader.js";
import { pluginShellOver, type Hooks, type Plugin, type ToolDefinition } from "../plugin-api.js";
import type { FromSandbox, HookName, SandboxCallContext, ToSandbox } from "./protocol.js";

export interface SandboxPort {
  post(message: FromSandbox): void;
  listen(handler: (message: unknown) => void): void;
}

/** One loaded tool, whichever shape its file used, as the sandbox runs it. */
interface LoadedTool {
  description: string;
  parameters: z.ZodType;
  run(args: unknown, ctx: RunContext): Promise<{ title: string; output: string; metadata: Record<string, unknown> }>;
}

interface RunContext extends SandboxCallContext {
  abort: AbortSignal;
  metadata(input: { title?: string; metadata?: Record<string, unknown> }): void;
  ask(input: { permission: string; patterns: string[]; always: string[]; metadata: Record<string, unknown> }): Promise<void>;
}

class InvalidArguments extends Error {}

function fromDefinition(id: string, def: ToolDefinition): LoadedTool {
  const parameters = z.object(def.args);
  return {
    description: def.description,
    parameters,
    async run(args, ctx) {
      const parsed = parameters.safeParse(args);
      if (!parsed.success) throw new InvalidArguments(invalidArgumentsMessage(id, parsed.error));
      const result: unknown = await def.execute(parsed.data, {
        sessionID: ctx.sessionID,
        messageID: ctx.messageID,
        agent: ctx.agent,
        directory: ctx.directory,
        worktree: ctx.directory,
        abort: ctx.abort,
        metadata: ctx.metadata,
        ask: (input) => ctx.ask({ ...input, metadata: input.metadata ?? {} }),
      });
      return { title: "", output: typeof result === "string" ? result : JSON.stringify(result), metadata: {} };
    },
  };
}

/** A `Tool.define` tool gets the narrow context too: no runtime, file time or bus exist in here. */
function fromInfo(id: string, initialized: Initialized): LoadedTool {
  return {
    description: initialized.description,
    parameters: initialized.parameters,
    async run(args, ctx) {
      const parsed = initialized.parameters.safeParse(args);
      if (!parsed.success) throw new InvalidArguments(invalidArgumentsMessage(id, parsed.error));
      const unavailable = (what: string) => () => {
        throw new Error(`ctx.${what} is not available to a custom tool in the page (it runs in a sandbox)`);
      };
      const result = await initialized.execute(parsed.data, {
        ...ctx,
        worktree: ctx.directory,
        // The page truncates the output; here the text passes whole.
        truncate: async (content: string) => ({ content, truncated: false }),
        get runtime() {
          return unavailable("runtime")();
        },
        get fileTime() {
          return unavailable("fileTime")();
        },
        get bus() {
          return unavailable("bus")();
        },
      } as never);
      return { title: result.title, output: result.output, metadata: result.metadata as Record<string, unknown> };
    },
  };
}

export function serveCustomCode(port: SandboxPort): void {
  const tools = new Map<string, LoadedTool>();
  const plugins: Hooks[] = [];
  const running = new Map<number, AbortController>();
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextRequest = 1;

  type Request = Extract<FromSandbox, { kind: "ask" | "shell" }>;
  const request = (message: Request extends infer R ? (R extends Request ? Omit<R, "id"> : never) : never) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextRequest++;
      waiting.set(id, { resolve, reject });
      port.post({ ...message, id } as FromSandbox);
    });

  async function load(message: Extract<ToSandbox, { kind: "load" }>): Promise<void> {
    const problems: { file: string; error: string }[] = [];
    const described: { id: string; description: string; schema: Record<string, unknown> }[] = [];
    const add = async (id: string, value: unknown): Promise<boolean> => {
      let tool: LoadedTool;
      if (isToolInfo(value)) tool = fromInfo(id, await value.init());
      else if (isToolDefinition(value)) tool = fromDefinition(id, value);
      else return false;
      tools.set(id, tool);
      described.push({
        id,
        description: tool.description,
        schema: z.toJSONSchema(tool.parameters, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
      });
      return true;
    };
    for (const file of message.tools) {
      const namespace = basename(file.path, extname(file.path));
      try {
        let found = 0;
        for (const [name, value] of Object.entries(evaluateModule(file.source, file.path))) {
          if (name === "__esModule") continue;
          if (await add(name === "default" ? namespace : `${namespace}_${name}`, value as Info)) found++;
        }
        if (found === 0)
          problems.push({ file: file.path, error: "exports no tool: export tool({ description, args, execute }) or Tool.define(...)" });
      } catch (error) {
        problems.push({ file: file.path, error: errorMessage(error) });
      }
    }
    const shell = pluginShellOver(async (command) => {
      const result = (await request({ kind: "shell", command })) as { stdout: string; stderr: string; exitCode: number | null };
      return result;
    });
    const pluginList: { file: string; name: string; hooks: HookName[] }[] = [];
    for (const file of message.plugins) {
      try {
        for (const [name, value] of Object.entries(evaluateModule(file.source, file.path))) {
          if (typeof value !== "function") continue;
          const hooks: Hooks =
            (await (value as Plugin)({
              directory: message.root,
              worktree: message.root,
              project: { id: message.root, worktree: message.root },
              $: shell,
              client: undefined,
            })) ?? {};
          plugins.push(hooks);
          pluginList.push({
            file: file.path,
            name,
            hooks: (["tool.execute.before", "tool.execute.after"] as const).filter((hook) => typeof hooks[hook] === "function"),
          });
          for (const [id, def] of Object.entries(hooks.tool ?? {})) {
            if (!(await add(id, def))) problems.push({ file: file.path, error: `its tool "${id}" is not a tool({...}) definition` });
          }
        }
      } catch (error) {
        problems.push({ file: file.path, error: errorMessage(error) });
      }
    }
    port.post({ kind: "loaded", tools: described, plugins: pluginList, problems });
  }

  async function call(message: Extract<ToSandbox, { kind: "call" }>): Promise<void> {
    const controller = new AbortController();
    running.set(message.id, controller);
    try {
      const tool = tools.get(message.tool);
      if (!tool) throw new Error(`no custom tool "${message.tool}" was loaded in the sandbox`);
      const result = await tool.run(message.args, {
        ...message.context,
        abort: controller.signal,
        metadata: (input) => port.post({ kind: "metadata", id: message.id, ...plain(input) }),
        ask: async (input) => {
          await request({ kind: "ask", call: message.id, input });
        },
      });
      port.post({ kind: "done", id: message.id, ...plain(result) });
    } catch (error) {
      port.post({ kind: "failed", id: message.id, message: errorMessage(error), invalidArguments: error instanceof InvalidArguments });
    } finally {
      running.delete(message.id);
    }
  }

  async function hook(message: Extract<ToSandbox, { kind: "hook" }>): Promise<void> {
    try {
      const run = plugins[message.plugin]?.[message.name] as ((input: unknown, output: unknown) => Promise<void>) | undefined;
      if (!run) throw new Error(`the plugin has no ${message.name} hook`);
      const output = message.output as Record<string, unknown>;
      await run(message.input, output);
      port.post({ kind: "hooked", id: message.id, output: plain(output) });
    } catch (error) {
      port.post({ kind: "failed", id: message.id, message: errorMessage(error), invalidArguments: false });
    }
  }

  port.listen((raw) => {
    const message = raw as ToSandbox;
    if (message.kind === "load") void load(message);
    else if (message.kind === "call") void call(message);
    else if (message.kind === "hook") void hook(message);
    else if (message.kind === "abort") running.get(message.id)?.abort(new Error("the call was aborted"));
    else if (message.kind === "reply") {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new Error(message.message));
    }
  });
}

/** What crosses the channel: plain data only (a tool's result may hold functions or class instances). */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value ?? {})) as T;
}
