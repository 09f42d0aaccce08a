import type { Endpoint } from "./endpoint.js";
import type { FromShell, ShellLimits, ToShell } from "./shell-protocol.js";
import type { OutputStream, ShellState } from "../types.js";
import { errorMessage } from "../../base/error-message.js";

/** A started shell worker: its control channel, the main-side end of its file channel, and a kill switch. */
export interface ShellWorker {
  control: Endpoint;
  fsEndpoint: Endpoint;
  /** Sets the one handler told when the worker dies on its own (replacing any earlier one). */
  onCrash(handler: (message: string) => void): void;
  /** Keeps the host process alive while a command runs (node); a no-op in the browser. */
  setBusy(busy: boolean): void;
  terminate(): void;
}

/** Which worker to start: a shell (the default) or the search host (search-core.ts). */
export type WorkerEntry = "shell" | "search";

export type ShellWorkerFactory = (entry?: WorkerEntry) => Promise<ShellWorker>;

export interface ShellRun {
  command: string;
  cwd: string;
  env: Record<string, string>;
}

export type ShellOutcome = { kind: "done"; exitCode: number; stdout: string; stderr: string; state: ShellState } | { kind: "killed" };

/** How long a stopped command may take to end by itself before its worker is terminated. */
const ABORT_GRACE_MS = 250;
const START_TIMEOUT_MS = 20_000;

function waitFor<T extends FromShell["kind"]>(control: Endpoint, kind: T, timeoutMs: number): Promise<Extract<FromShell, { kind: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the shell worker did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const stop = control.listen((message) => {
      if ((message as FromShell).kind !== kind) return;
      clearTimeout(timer);
      stop();
      resolve(message as Extract<FromShell, { kind: T }>);
    });
  });
}

/**
 * Runs each command in a worker of its own (reusing an idle one), so stopping one command, which may
 * mean terminating its worker, never disturbs another. The files are served from this side.
 */
export class ShellPool {
  private idle: ShellWorker | undefined;
  private nextId = 1;
  private disposed = false;
  private readonly live = new Set<ShellWorker>();
  /** Counts limit changes; a worker set up before the latest one is not reused. */
  private generation = 0;
  private readonly generationOf = new WeakMap<ShellWorker, number>();

  constructor(
    private readonly factory: ShellWorkerFactory,
    private readonly serve: (fsEndpoint: Endpoint) => () => void,
    private readonly init: { root: string; env: Record<string, string>; limits: ShellLimits; python?: boolean },
  ) {}

  private async start(): Promise<ShellWorker> {
    const worker = await this.factory();
    this.live.add(worker);
    this.generationOf.set(worker, this.generation);
    const unserve = this.serve(worker.fsEndpoint);
    const terminate = worker.terminate.bind(worker);
    worker.terminate = () => {
      unserve();
      this.live.delete(worker);
      terminate();
    };
    try {
      const ready = waitFor(worker.control, "ready", START_TIMEOUT_MS);
      worker.control.post({ kind: "init", ...this.init } satisfies ToShell);
      await ready;
      return worker;
    } catch (error) {
      worker.terminate();
      throw error;
    }
  }

  async run(
    run: ShellRun,
    onStop: (stop: () => void) => void,
    onOutput: (stream: OutputStream, text: string) => void = () => {},
    fetchGate?: (url: string) => Promise<void>,
  ): Promise<ShellOutcome> {
    if (this.disposed) throw new Error("the runtime was disposed");
    const worker = this.idle ?? (await this.start());
    this.idle = undefined;
    const id = this.nextId++;
    worker.setBusy(true);
    let terminated = false;
    const outcome = await new Promise<ShellOutcome>((resolve) => {
      let settled = false;
      const settle = (result: ShellOutcome) => {
        if (settled) return;
        settled = true;
        unlisten();
        resolve(result);
      };
      const failed = (stderr: string): ShellOutcome => ({
        kind: "done",
        exitCode: 1,
        stdout: "",
        stderr,
        state: { cwd: run.cwd, env: run.env },
      });
      const unlisten = worker.control.listen((data) => {
        const message = data as FromShell;
        if (message.kind === "output" && message.id === id) {
          if (!settled) onOutput(message.stream, message.text);
        } else if (message.kind === "done" && message.id === id) {
          settle({ kind: "done", exitCode: message.exitCode, stdout: message.stdout, stderr: message.stderr, state: message.state });
        } else if (message.kind === "failed" && message.id === id) {
          settle(failed(`${message.message}\n`));
        } else if (message.kind === "fetch-check" && message.id === id) {
          const verdict = (refused?: string) =>
            worker.control.post({
              kind: "fetch-verdict",
              check: message.check,
              ...(refused === undefined ? {} : { refused }),
            } satisfies ToShell);
          if (!fetchGate) verdict();
          else
            fetchGate(message.url).then(
              () => verdict(),
              (error: unknown) => verdict(errorMessage(error)),
            );
        }
      });
      worker.onCrash((message) => {
        terminated = true;
        worker.terminate();
        settle(failed(`the shell crashed: ${message}\n`));
      });
      worker.control.post({ kind: "exec", id, ...run } satisfies ToShell);
      onStop(() => {
        // Ask first (a sleep or a pipeline stops at its next step); a loop that never yields
        // does not hear it, so its worker is terminated after a short grace.
        worker.control.post({ kind: "abort", id } satisfies ToShell);
        setTimeout(() => {
          if (settled) return;
          terminated = true;
          worker.terminate();
          settle({ kind: "killed" });
        }, ABORT_GRACE_MS);
      });
    });
    if (terminated || outcome.kind === "killed") return outcome;
    worker.setBusy(false);
    if (this.idle || this.disposed || !this.current(worker)) worker.terminate();
    else this.idle = worker;
    return outcome;
  }

  /**
   * New limits for the commands that start from now on (a running command keeps the ones it started
   * with): an idle worker was set up with the old ones, so it goes.
   */
  setLimits(limits: ShellLimits): void {
    this.init.limits = limits;
    this.generation++;
    const idle = this.idle;
    this.idle = undefined;
    if (idle) {
      idle.terminate();
      void this.warm().catch(() => {});
    }
  }

  private current(worker: ShellWorker): boolean {
    return this.generationOf.get(worker) === this.generation;
  }

  /** Starts a worker ahead of the first command, so the first prompt answers at once. */
  async warm(): Promise<void> {
    if (this.idle || this.disposed) return;
    const worker = await this.start();
    // Limits changed or the pool closed while it started, or another warm got there first.
    if (this.idle || this.disposed || !this.current(worker)) worker.terminate();
    else this.idle = worker;
  }

  dispose(): void {
    this.disposed = true;
    this.idle = undefined;
    for (const worker of [...this.live]) worker.terminate();
  }
}
