/**
 * Runs the bash tool the way a session does (Tool.define's execute, a context with the streaming
 * truncation), on a chosen backend, keeping every live metadata update and every permission asked.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../../src/runtime/node/index.js";
import type { Runtime } from "../../../src/runtime/types.js";
import { bootWebContainer } from "../../../src/runtime/webcontainer/boot.js";
import { BashTool } from "../../../src/tools/bash.js";
import { Bus } from "../../../src/tools/bus.js";
import { FileTime } from "../../../src/tools/file-time.js";
import type { BackgroundJobs } from "../../../src/tools/jobs/background-jobs.js";
import type { AskInput } from "../../../src/tools/permission/types.js";
import type { Context, ExecuteResult, Metadata } from "../../../src/tools/tool.js";
import { OutputStore, TruncationSink, truncateOutput } from "../../../src/tools/truncation/index.js";
import { createWebContainerStandin } from "../../support/webcontainer-standin.js";

export interface BashBackend {
  name: string;
  /** Output of each top-level statement arrives before the command line ends. */
  streams: boolean;
  /** Commands are real processes (a process tree to check). */
  processes: boolean;
  /**
   * A `while true` loop runs until stopped. Not on the stand-in: it runs just-bash in this thread with
   * its default limits, which end such a loop after 100,000 commands (the real WebContainer has no such limit).
   */
  endlessLoops: boolean;
  create(): Promise<{ runtime: Runtime; cleanup(): Promise<void> }>;
}

export const bashBackends: BashBackend[] = [
  {
    name: "embedded",
    streams: true,
    processes: false,
    endlessLoops: true,
    async create() {
      // Loops unlimited, so that a `while true` runs until it is stopped, as it would with ?limits=off.
      const runtime = await createEmbeddedRuntime({
        workerFactory: nodeShellWorkerFactory,
        limits: { maxLoopIterations: null, maxCommandCount: null },
      });
      return { runtime, cleanup: () => runtime.dispose() };
    },
  },
  {
    name: "node",
    streams: true,
    processes: true,
    endlessLoops: true,
    async create() {
      const base = await realpath(await mkdtemp(join(tmpdir(), "wb-bash-")));
      const runtime = createNodeRuntime({ root: base });
      return { runtime, cleanup: () => rm(base, { recursive: true, force: true }) };
    },
  },
  {
    name: "webcontainer (stand-in)",
    streams: false,
    processes: false,
    endlessLoops: false,
    async create() {
      const outcome = await bootWebContainer(createWebContainerStandin(), {
        timeoutMs: 5_000,
        environment: { isolated: true, hasSharedMemory: true },
      });
      if (!outcome.ok) throw new Error(outcome.message);
      const runtime = outcome.runtime;
      return { runtime, cleanup: () => runtime.dispose() };
    },
  },
];

export interface BashRun {
  result: ExecuteResult<Metadata>;
  /** Every metadata update, in order. */
  updates: Array<{ output: string; description: string; tail?: string; tailOffset?: number }>;
  asks: AskInput[];
}

export interface RunOptions {
  signal?: AbortSignal;
  onUpdate?: (output: string) => void;
  /** Answers each ask (with the signal that withdraws it, if any); allows everything when absent. */
  answer?: (ask: AskInput, signal?: AbortSignal) => Promise<void>;
  /** Leave the streaming truncation out of the context (a context made outside a session). */
  noStream?: boolean;
  /** The session's background jobs, for `background: true`. */
  jobs?: BackgroundJobs;
}

export async function runBash(runtime: Runtime, args: Record<string, unknown>, options: RunOptions = {}): Promise<BashRun> {
  const updates: BashRun["updates"] = [];
  const asks: AskInput[] = [];
  const store = new OutputStore(runtime, { dataDir: `${runtime.root}/.data` });
  const hint = { taskAvailable: false };
  const ctx: Context = {
    sessionID: "ses_test",
    messageID: "msg_test",
    agent: "build",
    abort: options.signal ?? new AbortController().signal,
    metadata(input) {
      const meta = input.metadata as { output: string; description: string; tail?: string; tailOffset?: number };
      updates.push({ output: meta.output, description: meta.description, tail: meta.tail, tailOffset: meta.tailOffset });
      options.onUpdate?.(meta.output);
    },
    async ask(input, askOptions) {
      asks.push(input);
      await options.answer?.(input, askOptions?.signal);
    },
    runtime,
    directory: runtime.root,
    worktree: runtime.root,
    fileTime: new FileTime(runtime.fs),
    bus: new Bus(),
    truncate: (text, truncation = {}) => truncateOutput(text, truncation, store, hint),
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.noStream ? {} : { truncationStream: (truncation = {}) => new TruncationSink(store, truncation, hint) }),
  };
  const tool = await BashTool.init();
  const result = await tool.execute(args as never, ctx);
  return { result, updates, asks };
}

export const footer = (...lines: string[]) => `\n\n<bash_metadata>\n${lines.join("\n")}\n</bash_metadata>`;
