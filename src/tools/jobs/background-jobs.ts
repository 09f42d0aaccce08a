/**
 * Shell commands and subagents that run on after their call returned (`background: true` on bash, shell and
 * subagent, as in OpenCode V2). Each job's output is appended to a file in the saved-output folder as it arrives, so the model reads it
 * with the read tool like any saved output, and the page can show it live. When a job ends, its end (with the
 * last of its output) waits in `takeEnded` until the session's loop hands it to the model as a notice, so the
 * model never has to poll.
 * Jobs belong to their session: `stopAll` (the session ending) stops every one still running.
 */
import type { Runtime } from "../../runtime/types.js";
import { errorMessage } from "../../base/error-message.js";

type JobStatus = "running" | "completed" | "failed" | "stopped" | "timed out";

export interface JobInfo {
  id: string;
  /** A shell command, or a subagent (`command` is then "@agent: description"). */
  kind: "shell" | "subagent";
  command: string;
  /** A subagent job's child session, once it has one (the model continues it by this id). */
  sessionID?: string;
  workdir: string;
  status: JobStatus;
  /** null while running, and when the command was killed. */
  exitCode: number | null;
  /** Where the whole output is saved (stdout and stderr in the order they came). */
  outputPath: string;
  startedAt: number;
  endedAt?: number;
  /** What went wrong starting or running it, for status "failed" without an exit code. */
  error?: string;
}

export interface JobEnded {
  job: JobInfo;
  /** The last characters of its output, for the notice. */
  tail: string;
}

export interface BackgroundJobsOptions {
  runtime: Runtime;
  /** The folder the output files go in (created when missing). */
  dir: string;
  newId?: () => string;
}

/** How much of the output's end a notice carries; the rest is in the file. */
const NOTICE_TAIL_CHARS = 4000;
/** At most this many jobs run at once in a session, so a loop of background calls cannot exhaust the runtime. */
const MAX_RUNNING_JOBS = 8;

interface Job {
  info: JobInfo;
  controller: AbortController;
  tail: string;
  /** Appends are chained, so the file keeps the output's order. */
  writes: Promise<void>;
  done: Promise<void>;
}

export class BackgroundJobs {
  private readonly jobs = new Map<string, Job>();
  private endedJobs: JobEnded[] = [];
  private readonly listeners = new Set<(job: JobInfo) => void>();
  private readonly newId: () => string;
  private counter = 0;

  constructor(private readonly options: BackgroundJobsOptions) {
    this.newId = options.newId ?? (() => `job_${Date.now().toString(36)}${(++this.counter).toString(36).padStart(3, "0")}`);
  }

  /** Starts `command` and returns as soon as it runs; its end is reported through `onEnd`. */
  start(
    command: string,
    options: {
      cwd: string;
      timeoutMs?: number;
      env?: Record<string, string>;
      /**
       * Asked before each fetch of the runtime's own programs (the embedded npm), as a foreground call is,
       * with the job's signal (aborted when the job is stopped).
       */
      fetchGate?: (url: string, signal: AbortSignal) => Promise<void>;
    },
  ): Promise<JobInfo> {
    const { runtime } = this.options;
    return this.launch({ kind: "shell", command, workdir: options.cwd }, (job, append) =>
      runtime
        .exec(command, {
          cwd: options.cwd,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          signal: job.controller.signal,
          onOutput: (chunk) => append(chunk.text),
          collect: false,
          ...(options.env ? { env: options.env } : {}),
          ...(options.fetchGate ? { fetchGate: (url: string) => options.fetchGate!(url, job.controller.signal) } : {}),
        })
        .then((result) => {
          job.info.exitCode = result.exitCode;
          job.info.status = result.aborted ? "stopped" : result.timedOut ? "timed out" : result.exitCode === 0 ? "completed" : "failed";
        }),
    );
  }

  /**
   * Starts a subagent as a job: `run` carries it out under the job's signal, writing its answer with
   * `append` and naming its child session with `named` as soon as it has one; a throw is a failure.
   */
  startSubagent(
    label: { agent: string; description: string; cwd: string },
    run: (signal: AbortSignal, append: (text: string) => void, named: (sessionID: string) => void) => Promise<void>,
  ): Promise<JobInfo> {
    return this.launch({ kind: "subagent", command: `@${label.agent}: ${label.description}`, workdir: label.cwd }, async (job, append) => {
      await run(job.controller.signal, append, (sessionID) => {
        if (job.info.sessionID === sessionID) return;
        job.info.sessionID = sessionID;
        this.changed(job.info);
      });
      job.info.status = job.controller.signal.aborted ? "stopped" : "completed";
    });
  }

  private async launch(
    what: Pick<JobInfo, "kind" | "command" | "workdir">,
    body: (job: Job, append: (text: string) => void) => Promise<void>,
  ): Promise<JobInfo> {
    const running = this.list().filter((job) => job.status === "running").length;
    if (running >= MAX_RUNNING_JOBS) {
      throw new Error(
        `${running} background jobs are already running, the most a session may have: wait for one to end (you will be told), or ask the person to stop one`,
      );
    }
    const { runtime, dir } = this.options;
    const id = this.newId();
    await runtime.fs.mkdir(dir, { recursive: true });
    const outputPath = `${dir.replace(/\/+$/, "")}/${id}.log`;
    await runtime.fs.writeFile(outputPath, "");
    const info: JobInfo = { id, ...what, status: "running", exitCode: null, outputPath, startedAt: Date.now() };
    const job: Job = { info, controller: new AbortController(), tail: "", writes: Promise.resolve(), done: Promise.resolve() };
    this.jobs.set(id, job);
    // Told at once: a job that prints nothing for a while (one waiting on a permission prompt) is listed too.
    this.changed(info);
    const append = (text: string) => {
      job.tail = (job.tail + text).slice(-NOTICE_TAIL_CHARS);
      job.writes = job.writes.then(() => runtime.fs.appendFile(outputPath, text)).catch(() => undefined);
      this.changed(info);
    };
    job.done = body(job, append)
      .catch((error: unknown) => {
        info.status = job.controller.signal.aborted ? "stopped" : "failed";
        info.error = errorMessage(error);
      })
      .then(async () => {
        info.endedAt = Date.now();
        await job.writes;
        this.endedJobs.push({ job: { ...info }, tail: job.tail });
        this.changed(info);
      });
    return { ...info };
  }

  /** The jobs that ended since the last call, oldest first; each is returned once. */
  takeEnded(): JobEnded[] {
    const ended = this.endedJobs;
    this.endedJobs = [];
    return ended;
  }

  /** The ended jobs waiting to be told, without taking them (as `takeEnded` does). */
  waitingEnds(): readonly JobEnded[] {
    return [...this.endedJobs];
  }

  /** Calls `listener` on every change of any job (output or status); returns the unsubscribe. */
  onChange(listener: (job: JobInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(info: JobInfo): void {
    for (const listener of this.listeners) listener({ ...info });
  }

  list(): JobInfo[] {
    return [...this.jobs.values()].map((job) => ({ ...job.info }));
  }

  get(id: string): JobInfo | undefined {
    const job = this.jobs.get(id);
    return job ? { ...job.info } : undefined;
  }

  /** The output so far (what has reached the file). */
  async output(id: string): Promise<string> {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`there is no background job ${id} in this session (jobs: ${[...this.jobs.keys()].join(", ") || "none"})`);
    await job.writes;
    return new TextDecoder().decode(await this.options.runtime.fs.readFile(job.info.outputPath));
  }

  /** Stops a running job; resolves once it has ended. False when there is no such running job. */
  async stop(id: string): Promise<boolean> {
    const job = this.jobs.get(id);
    if (!job || job.info.status !== "running") return false;
    job.controller.abort();
    await job.done;
    return true;
  }

  /** Resolves when the job has ended (at once when it already has). */
  async ended(id: string): Promise<JobInfo | undefined> {
    await this.jobs.get(id)?.done;
    return this.get(id);
  }

  /** The session is ending: stop every job still running, and wait for them. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.stop(id)));
  }
}

/** What the model is told when a job ends: which job, how it ended, the end of its output and where the rest is. */
export function jobNotice({ job, tail }: JobEnded): string {
  const cut = tail.length >= NOTICE_TAIL_CHARS ? `(the last ${NOTICE_TAIL_CHARS} characters; all of it is in the file)\n` : "";
  if (job.kind === "subagent") {
    // V2's subagent answer, as a foreground call would have returned it, with the job's state.
    const state = job.status === "completed" ? "completed" : job.status === "stopped" ? "stopped" : "error";
    const body =
      job.status === "completed"
        ? `${cut}${tail}`
        : `The background subagent ${job.command} ${job.status}${job.error ? `: ${job.error}` : ""}.`;
    return `<subagent sessionID="${job.sessionID ?? ""}" state="${state}" job="${job.id}">\n${body}\n</subagent>`;
  }
  const how =
    job.status === "completed" || job.status === "failed"
      ? job.exitCode === null
        ? `${job.status}${job.error ? `: ${job.error}` : ""}`
        : `${job.status} with exit code ${job.exitCode}`
      : job.status;
  return `<background_job id="${job.id}" state="${job.status}">\nThe background command \`${job.command}\` ${how}. Its output is saved in ${job.outputPath}.\n${cut}${tail}\n</background_job>`;
}
