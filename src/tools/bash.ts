/**
 * The bash tool: runs a command line through the runtime, in `workdir` or the workspace, with a
 * timeout; output streams into the call's metadata as it arrives, and on timeout or abort the call still
 * completes, with the output so far and a note. The full output flows through the streaming truncation,
 * so a command that prints 50 MB is never held whole in memory.
 */
import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import type { OutputChunk } from "../runtime/types.js";
import description from "./bash.txt?raw";
import { deriveBashPermissions, permissionAsks } from "./bash/index.js";
import { resolveToolPath } from "./files/paths.js";
import { fetchGate } from "./bash/fetch-gate.js";
import { define, type Context, type TruncationStream } from "./tool.js";
import { cutMark, MAX_BYTES, MAX_LINES, MAX_SAVED_BYTES } from "./truncation/constants.js";

export const DEFAULT_TIMEOUT_MS = 2 * 60 * 1000;
/**
 * The longest a command may run (10 minutes), whatever timeout the model asks for: a call that never
 * ends holds the session and keeps writing output. OpenCode has no ceiling; a larger value is lowered to this.
 */
export const MAX_TIMEOUT_MS = 10 * 60 * 1000;
/** How much of the output the live view (metadata) shows. */
export const MAX_METADATA_LENGTH = 30_000;
const TAIL_UPDATE_MS = 100;

type BashMetadata = {
  output: string;
  /** Set when the command was left running as a background job. */
  background?: boolean;
  jobId?: string;
  /** null when the command was killed (timeout or abort). */
  exit: number | null;
  description: string;
  truncated?: boolean;
  outputPath?: string;
};

/**
 * The first MAX_METADATA_LENGTH characters, then "\n\n..." once there was more (OpenCode's live view).
 * Past that, the last MAX_METADATA_LENGTH characters are kept as well, so a person watching a long build
 * sees where it is now rather than a head that stopped moving.
 */
class DisplayCopy {
  private text = "";
  private over = false;
  private latest = "";
  private seen = 0;
  private headValue: string | undefined;

  /** Whether the copy changed. */
  add(chunk: string): boolean {
    if (chunk.length === 0) return false;
    this.seen += chunk.length;
    if (this.over) {
      this.latest = (this.latest + chunk).slice(-MAX_METADATA_LENGTH);
      return true;
    }
    this.headValue = undefined;
    const room = MAX_METADATA_LENGTH - this.text.length;
    if (chunk.length > room) {
      this.text += chunk.slice(0, room);
      this.over = true;
      this.latest = (this.text + chunk.slice(room)).slice(-MAX_METADATA_LENGTH);
    } else this.text += chunk;
    return true;
  }

  get value(): string {
    // Built once: past the limit it is published again with every new tail.
    return (this.headValue ??= this.over ? `${this.text}\n\n...` : this.text);
  }

  get overflowing(): boolean {
    return this.over;
  }

  /** While the output is over the limit: its last characters, and how many came before them. */
  get tail(): { tail: string; tailOffset: number } | undefined {
    return this.over ? { tail: this.latest, tailOffset: this.seen - this.latest.length } : undefined;
  }
}

/**
 * Where the whole output goes: the context's streaming truncation when it has one; otherwise (a context
 * made outside a session) a string, which `define` then truncates.
 */
interface OutputTarget {
  /** May return a promise: the runtime then holds further output back until it settles. */
  write(text: string): Promise<void> | undefined;
  /** The model's text and what metadata must say about truncation. */
  finish(): Promise<{ output: string; truncation: Pick<BashMetadata, "truncated" | "outputPath"> }>;
  discard(): Promise<void>;
}

function streamingTarget(stream: TruncationStream): OutputTarget {
  // The sink saves writes in order, one batch at a time; the promise of each lets the runtime wait for it.
  let last: Promise<void> = Promise.resolve();
  let failure: unknown;
  return {
    write(text) {
      last = stream.write(text).catch((error: unknown) => {
        failure ??= error;
      });
      return last;
    },
    async finish() {
      await last;
      if (failure !== undefined) throw failure;
      const result = await stream.finish();
      const truncation = result.truncated ? { truncated: true, outputPath: result.outputPath } : { truncated: false };
      return { output: result.content, truncation };
    },
    discard: () => stream.discard(),
  };
}

/** Without a streaming sink the output is kept in memory, up to the same cap as a saved output. */
function stringTarget(): OutputTarget {
  let text = "";
  let total = 0;
  return {
    write: (chunk) => {
      total += chunk.length;
      // Counted in UTF-16 units, as the string holds it in memory (the mark reports those units too).
      if (text.length < MAX_SAVED_BYTES) text += chunk.slice(0, MAX_SAVED_BYTES - text.length);
      return undefined;
    },
    finish: async () => ({ output: total > text.length ? text + cutMark(text.length, total) : text, truncation: {} }),
    discard: async () => {},
  };
}

async function askPermissions(ctx: Context, command: string, workdir: string): Promise<void> {
  // The runtime says which programs reach only the workspace (the embedded runtime's node and python3).
  const sandboxed = ctx.runtime.sandboxedCommands ?? [];
  for (const ask of permissionAsks(await deriveBashPermissions(command, { workdir, root: ctx.directory, fs: ctx.runtime.fs, sandboxed })))
    await ctx.ask(ask);
}

async function assertFolder(ctx: Context, workdir: string): Promise<void> {
  const stat = await ctx.runtime.fs.stat(workdir).catch((error: unknown) => {
    if (isRuntimeError(error)) return undefined;
    throw error;
  });
  if (stat?.type !== "directory") {
    throw new Error(
      `The workdir ${workdir} is not an existing folder. Pass a folder that exists (absolute, or relative to ${ctx.directory}), or leave workdir out to run in the workspace.`,
    );
  }
}

/** The same command judged the same way, left running as a job of the session; its end comes as a notice. */
async function startInBackground(ctx: Context, command: string, workdir: string, timeoutMs: number | undefined, description: string) {
  if (!ctx.jobs) throw new Error("background commands need a session to report their end to; run the command without background");
  const job = await ctx.jobs.start(command, {
    cwd: workdir,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    env: { CDPATH: "", BASH_ENV: "", ENV: "" },
    // The agent started it, so its npm asks as a foreground call's does: the prompt comes under this call's
    // card while the job runs, and a refusal fails the job (its notice says so) with nothing installed.
    fetchGate: fetchGate(ctx).gate,
  });
  return {
    title: description,
    metadata: { output: "", exit: null, description, background: true, jobId: job.id, outputPath: job.outputPath } as BashMetadata,
    output: `Started in the background as job ${job.id}; its output streams to ${job.outputPath}. You will get a notice with its output when it ends: do not poll or sleep waiting for it. Carry on with other work, or end your turn.`,
  };
}

export const BashTool = define("bash", {
  description: description
    .trim()
    .replaceAll("{timeout}", String(DEFAULT_TIMEOUT_MS))
    .replaceAll("{maxLines}", String(MAX_LINES))
    .replaceAll("{maxBytes}", String(MAX_BYTES)),
  parameters: z.object({
    command: z.string().describe("The command to execute"),
    timeout: z.number().describe(`Optional timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS})`).optional(),
    workdir: z
      .string()
      .describe("The working directory to run the command in. Defaults to the workspace folder. Use this instead of 'cd' commands.")
      .optional(),
    description: z
      .string()
      .describe(
        "Clear, concise description of what this command does in 5-10 words. Examples:\n" +
          "Input: ls\nOutput: Lists files in current directory\n\n" +
          "Input: git status\nOutput: Shows working tree status\n\n" +
          "Input: npm install\nOutput: Installs package dependencies\n\n" +
          "Input: mkdir foo\nOutput: Creates directory 'foo'",
      ),
    background: z
      .boolean()
      .describe(
        "Start the command and return at once with a job id (for dev servers, watchers, long builds). You are told when it ends, with its output: do not poll",
      )
      .optional(),
  }),
  async execute(args, ctx) {
    if (args.timeout !== undefined && !(args.timeout > 0)) {
      throw new Error(`Invalid timeout value: ${args.timeout}. Timeout must be a positive number.`);
    }
    const workdir = resolveToolPath(ctx, args.workdir ?? ".");
    await askPermissions(ctx, args.command, workdir);
    await assertFolder(ctx, workdir);
    if (args.background === true) return startInBackground(ctx, args.command, workdir, args.timeout, args.description);
    const timeout = Math.min(args.timeout ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);

    const display = new DisplayCopy();
    const publish = () =>
      ctx.metadata({ title: args.description, metadata: { output: display.value, description: args.description, ...display.tail } });
    publish();
    const target = ctx.truncationStream ? streamingTarget(ctx.truncationStream()) : stringTarget();
    // Past the limit only the tail moves: a tenth of a second between updates is live enough.
    let lastTail = 0;
    const onOutput = (chunk: OutputChunk) => {
      const wasOver = display.overflowing;
      if (display.add(chunk.text)) {
        const now = Date.now();
        if (!wasOver || now - lastTail >= TAIL_UPDATE_MS) {
          if (display.overflowing) lastTail = now;
          publish();
        }
      }
      return target.write(chunk.text);
    };
    const fetches = fetchGate(ctx);
    try {
      const result = await ctx.runtime.exec(args.command, {
        cwd: workdir,
        timeoutMs: timeout,
        signal: ctx.abort,
        onOutput,
        collect: false,
        // An inherited CDPATH would send `cd name` somewhere the permission check did not look, and
        // BASH_ENV (ENV for sh) would run a script nobody judged before the command.
        env: { CDPATH: "", BASH_ENV: "", ENV: "" },
        fetchGate: fetches.gate,
      });
      fetches.rethrow();
      const notes: string[] = [];
      if (result.timedOut) notes.push(`bash tool terminated command after exceeding timeout ${timeout} ms`);
      if (result.aborted) notes.push("User aborted the command");
      if (notes.length > 0) {
        const footer = `\n\n<bash_metadata>\n${notes.join("\n")}\n</bash_metadata>`;
        target.write(footer);
        display.add(footer);
      }
      const { output, truncation } = await target.finish();
      const metadata: BashMetadata = { output: display.value, exit: result.exitCode, description: args.description, ...truncation };
      return { title: args.description, metadata, output };
    } catch (error) {
      await target.discard().catch(() => undefined);
      throw error;
    }
  },
});
