/**
 * The page's side of custom code run in a sandbox: reads the workspace's tool and plugin files, sends their
 * sources to a fresh sandbox, and registers what it describes (each tool's id, description and JSON Schema)
 * as tools whose calls go over by message. The page never runs the workspace's code, and the sandbox never
 * sees the page's runtime, storage or keys: a call carries its validated arguments and a narrow context,
 * an abort is a message, and a tool that does not stop within a grace period after its abort (or its time
 * limit) is ended with its whole sandbox, which the next call starts afresh.
 */
import { z } from "zod";
import { errorMessage } from "../../../base/error-message.js";
import type { Runtime } from "../../../runtime/types.js";
import { define, ToolArgumentsError, type Context, type Info } from "../../tool.js";
import { customCodeFiles, type LoadedPlugin, type LoadProblem } from "../loader.js";
import type { Hooks } from "../plugin-api.js";
import type { WorkspaceCode, WorkspaceCodeLoader } from "../workspace-code.js";
import { fromSandboxSchema, type FromSandbox, type HookName, type SourceFile, type ToSandbox } from "./protocol.js";

/** One sandbox as the page holds it: a message channel, and the way to end the thread behind it. */
export interface CodeSandboxConnection {
  post(message: ToSandbox): void;
  onMessage(handler: (message: unknown) => void): void;
  onCrash(handler: (message: string) => void): void;
  terminate(): void;
}

export type OpenCodeSandbox = () => Promise<CodeSandboxConnection>;

export interface SandboxedCodeOptions {
  open: OpenCodeSandbox;
  /** How long a tool may keep running after its abort before its sandbox is ended. */
  stopGraceMs?: number;
  /** How long loading the files (evaluating them, starting the plugins) may take. */
  loadTimeoutMs?: number;
}

const DEFAULT_STOP_GRACE_MS = 1000;
const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

type Loaded = Extract<FromSandbox, { kind: "loaded" }>;

interface Pending {
  resolve(message: FromSandbox): void;
  reject(error: Error): void;
  ctx?: Context;
}

/** A sandbox that has loaded the files: its calls and hook runs waiting for an answer. */
class LiveSandbox {
  readonly pending = new Map<number, Pending>();
  /** Calls the sandbox has not finished, answered or not (an aborted call stays here until it stops). */
  readonly unfinished = new Set<number>();
  /**
   * Aborted calls the sandbox has not stopped yet, each settled when it stops or the sandbox is ended: a
   * new call waits for them rather than queue behind a tool that may be stuck.
   */
  readonly stopping = new Map<number, { settled: Promise<void>; settle(): void }>();
  dead = false;

  constructor(
    readonly connection: CodeSandboxConnection,
    private readonly runtime: Runtime,
  ) {}

  end(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    this.connection.terminate();
    for (const pending of this.pending.values()) pending.reject(new Error(reason));
    this.pending.clear();
    this.unfinished.clear();
    for (const stop of this.stopping.values()) stop.settle();
    this.stopping.clear();
  }

  /** Marks `id` as told to stop; settled once it answers or the sandbox ends. */
  stop(id: number): void {
    let settle = () => {};
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.stopping.set(id, { settled, settle });
  }

  receive(raw: unknown): void {
    const parsed = fromSandboxSchema.safeParse(raw);
    // The workspace's code can post on this channel too: what does not fit is dropped.
    if (!parsed.success || this.dead) return;
    const message = parsed.data;
    if (message.kind === "loaded") return;
    if (message.kind === "ask" || message.kind === "shell") return void this.serve(message);
    if (message.kind === "metadata") {
      this.pending.get(message.id)?.ctx?.metadata({
        ...(message.title !== undefined ? { title: message.title } : {}),
        ...(message.metadata !== undefined ? { metadata: message.metadata } : {}),
      });
      return;
    }
    this.unfinished.delete(message.id);
    this.stopping.get(message.id)?.settle();
    this.stopping.delete(message.id);
    const pending = this.pending.get(message.id);
    this.pending.delete(message.id);
    pending?.resolve(message);
  }

  /** What the sandbox asks of the page: a permission prompt for one of its running calls, or a plugin's `$`. */
  private async serve(message: Extract<FromSandbox, { kind: "ask" | "shell" }>): Promise<void> {
    try {
      let value: unknown;
      if (message.kind === "ask") {
        const ctx = this.pending.get(message.call)?.ctx;
        if (!ctx) throw new Error("the call that asked has ended");
        await ctx.ask(message.input);
      } else {
        const result = await this.runtime.exec(message.command);
        value = { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
      }
      this.connection.post({ kind: "reply", id: message.id, ok: true, value });
    } catch (error) {
      if (!this.dead) this.connection.post({ kind: "reply", id: message.id, ok: false, message: errorMessage(error) });
    }
  }
}

/** What is sent over: plain data, so nothing of the page (a function, a class) is cloned into the sandbox. */
function plainData(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function parametersOf(schema: Record<string, unknown>): z.ZodType {
  const { $schema: _ignored, ...rest } = schema;
  try {
    return z.fromJSONSchema({ ...rest, type: "object" } as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // A schema zod cannot read back: the sandbox, which holds the real one, still validates.
    return z.looseObject({}).meta({ properties: (rest.properties as object | undefined) ?? {} });
  }
}

export class SandboxedWorkspaceCode {
  private live: LiveSandbox | undefined;
  private starting: Promise<{ live: LiveSandbox; loaded: Loaded }> | undefined;
  private nextId = 1;
  private disposed = false;
  private readonly stopGraceMs: number;
  private readonly loadTimeoutMs: number;

  constructor(private readonly options: SandboxedCodeOptions) {
    this.stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
    this.loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  }

  /** The loader a session is given. */
  readonly load: WorkspaceCodeLoader = async (runtime, dirs) => {
    const files = await customCodeFiles(runtime, dirs);
    const problems: LoadProblem[] = [];
    const read = async (paths: string[]) => {
      const sources: SourceFile[] = [];
      for (const path of paths) {
        try {
          sources.push({ path, source: new TextDecoder().decode(await runtime.fs.readFile(path)) });
        } catch (error) {
          problems.push({ file: path, error: errorMessage(error) });
        }
      }
      return sources;
    };
    const load: ToSandbox = { kind: "load", root: runtime.root, tools: await read(files.tools), plugins: await read(files.plugins) };
    if (load.tools.length + load.plugins.length === 0) return { tools: [], plugins: [], problems };
    let loaded: Loaded;
    try {
      loaded = (await this.start(runtime, load)).loaded;
    } catch (error) {
      const file = [...load.tools, ...load.plugins].map((source) => source.path).join(", ");
      return { tools: [], plugins: [], problems: [...problems, { file, error: errorMessage(error) }] };
    }
    return this.describe(runtime, load, loaded, problems);
  };

  /** Ends the sandbox (the session that loaded it is going); a later call does not start another. */
  dispose(): void {
    this.disposed = true;
    this.live?.end("the session was closed");
    this.live = undefined;
  }

  private describe(runtime: Runtime, load: ToSandbox, loaded: Loaded, problems: LoadProblem[]): WorkspaceCode {
    const tools: Info[] = loaded.tools.map((tool) =>
      define(tool.id, {
        description: tool.description,
        parameters: parametersOf(tool.schema),
        execute: async (args, ctx) => {
          const answer = await this.call(runtime, load, tool.id, args, ctx);
          return { title: answer.title, output: answer.output, metadata: answer.metadata };
        },
      }),
    );
    const plugins: LoadedPlugin[] = loaded.plugins.map((plugin, index) => {
      const hooks: Hooks = {};
      if (plugin.hooks.includes("tool.execute.before"))
        hooks["tool.execute.before"] = async (input, output) => {
          const changed = await this.hook(runtime, load, index, "tool.execute.before", input, output);
          const args = z.record(z.string(), z.unknown()).safeParse(changed.args);
          if (!args.success) throw new Error("its tool.execute.before hook left args that are not an object");
          output.args = args.data;
        };
      if (plugin.hooks.includes("tool.execute.after"))
        hooks["tool.execute.after"] = async (input, output) => {
          const changed = z
            .object({ title: z.string(), output: z.string(), metadata: z.record(z.string(), z.unknown()) })
            .safeParse(await this.hook(runtime, load, index, "tool.execute.after", input, output));
          if (!changed.success) throw new Error("its tool.execute.after hook left a title, output or metadata of the wrong type");
          Object.assign(output, changed.data);
        };
      return { file: plugin.file, name: plugin.name, hooks };
    });
    return { tools, plugins, problems: [...problems, ...loaded.problems] };
  }

  /** The sandbox with the files loaded: the one running, or a fresh one (the first, or after one was ended). */
  private start(runtime: Runtime, load: ToSandbox): Promise<{ live: LiveSandbox; loaded: Loaded }> {
    if (this.disposed) return Promise.reject(new Error("the session that loaded the custom tools was closed"));
    if (this.live && !this.live.dead) return this.starting!;
    this.starting = (async () => {
      const connection = await this.options.open();
      const live = new LiveSandbox(connection, runtime);
      this.live = live;
      const loaded = new Promise<Loaded>((resolve, reject) => {
        const timer = setTimeout(() => {
          live.end("");
          reject(new Error(`loading took longer than ${this.loadTimeoutMs / 1000} s (a file or plugin that never finishes starting?)`));
        }, this.loadTimeoutMs);
        connection.onCrash((message) => {
          clearTimeout(timer);
          reject(new Error(`the custom code sandbox stopped: ${message}`));
          live.end(`the custom code sandbox stopped: ${message}`);
        });
        connection.onMessage((raw) => {
          const parsed = fromSandboxSchema.safeParse(raw);
          if (parsed.success && parsed.data.kind === "loaded") {
            clearTimeout(timer);
            resolve(parsed.data);
          } else live.receive(raw);
        });
      });
      connection.post(load);
      return { live, loaded: await loaded };
    })();
    return this.starting;
  }

  private async send(runtime: Runtime, load: ToSandbox, message: ToSandbox & { id: number }, ctx?: Context): Promise<FromSandbox> {
    let { live } = await this.start(runtime, load);
    // A call aborted but still running (maybe stuck) decides whether this sandbox goes on: wait for it.
    while (live.stopping.size > 0) {
      await Promise.all([...live.stopping.values()].map((stop) => stop.settled));
      ({ live } = await this.start(runtime, load));
    }
    return new Promise<FromSandbox>((resolve, reject) => {
      live.pending.set(message.id, { resolve, reject, ...(ctx ? { ctx } : {}) });
      if (message.kind === "call") live.unfinished.add(message.id);
      live.connection.post(message);
    });
  }

  private async call(runtime: Runtime, load: ToSandbox, tool: string, args: unknown, ctx: Context) {
    const id = this.nextId++;
    const onAbort = () => {
      const current = this.live;
      if (!current || current.dead || !current.unfinished.has(id)) return;
      current.connection.post({ kind: "abort", id });
      current.stop(id);
      current.pending.get(id)?.reject(new Error(`The call was aborted before the custom tool ${tool} finished.`));
      current.pending.delete(id);
      // Told to stop; one that keeps running (an endless loop never reads the message) takes its sandbox down.
      setTimeout(() => {
        if (current.unfinished.has(id)) current.end(`the custom tool ${tool} did not stop after its call was aborted`);
      }, this.stopGraceMs);
    };
    if (ctx.abort.aborted) throw new Error(`The call was aborted before the custom tool ${tool} started.`);
    ctx.abort.addEventListener("abort", onAbort, { once: true });
    try {
      const answer = await this.send(
        runtime,
        load,
        {
          kind: "call",
          id,
          tool,
          args: plainData(args),
          context: {
            sessionID: ctx.sessionID,
            messageID: ctx.messageID,
            agent: ctx.agent,
            directory: ctx.directory,
            ...(ctx.callID ? { callID: ctx.callID } : {}),
          },
        },
        ctx,
      );
      if (answer.kind === "failed") throw answer.invalidArguments ? new ToolArgumentsError(answer.message) : new Error(answer.message);
      if (answer.kind !== "done") throw new Error(`the sandbox answered a call with "${answer.kind}"`);
      return answer;
    } finally {
      ctx.abort.removeEventListener("abort", onAbort);
    }
  }

  private async hook(
    runtime: Runtime,
    load: ToSandbox,
    plugin: number,
    name: HookName,
    input: unknown,
    output: unknown,
  ): Promise<Record<string, unknown>> {
    const answer = await this.send(runtime, load, {
      kind: "hook",
      id: this.nextId++,
      plugin,
      name,
      input: plainData(input),
      output: plainData(output),
    });
    if (answer.kind === "failed") throw new Error(answer.message);
    if (answer.kind !== "hooked") throw new Error(`the sandbox answered a hook with "${answer.kind}"`);
    return answer.output;
  }
}
