import type { ExecOptions, OutputChunk, OutputStream } from "./types.js";

/**
 * Gathers a command's output in arrival order and forwards each chunk to the caller as it comes. With
 * `collect: false` it only forwards: the caller keeps what it needs, and a huge output never becomes one
 * string here.
 */
export class OutputCollector {
  private readonly chunks: OutputChunk[] = [];
  private readonly onOutput: ExecOptions["onOutput"];
  private readonly collect: boolean;

  constructor(options: Pick<ExecOptions, "onOutput" | "collect"> = {}) {
    this.onOutput = options.onOutput;
    this.collect = options.collect !== false;
  }

  /** Returns the caller's promise when it asked to be waited for (see ExecOptions.onOutput). */
  push(stream: OutputStream, text: string): Promise<unknown> | undefined {
    if (text.length === 0) return undefined;
    const chunk = { stream, text };
    if (this.collect) this.chunks.push(chunk);
    const answer: unknown = this.onOutput?.(chunk);
    return answer instanceof Promise ? answer : undefined;
  }

  result(): { stdout: string; stderr: string; output: string } {
    let stdout = "";
    let stderr = "";
    let output = "";
    for (const chunk of this.chunks) {
      if (chunk.stream === "stdout") stdout += chunk.text;
      else stderr += chunk.text;
      output += chunk.text;
    }
    return { stdout, stderr, output };
  }
}

export type StopReason = "timeout" | "abort";

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One place where a caller's AbortSignal and a timeout become a single "stop now" event, so every
 * backend reports timedOut/aborted the same way.
 */
export class StopControl {
  reason: StopReason | undefined;
  private readonly listeners: Array<(reason: StopReason) => void> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort = () => this.fire("abort");

  constructor(private readonly options: Pick<ExecOptions, "signal" | "timeoutMs">) {
    if (options.signal?.aborted) this.reason = "abort";
    options.signal?.addEventListener("abort", this.onAbort, { once: true });
    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      // Timers take at most 2^31-1 ms and fire at once beyond it: a longer timeout waits the longest they can.
      this.timer = setTimeout(() => this.fire("timeout"), Math.min(options.timeoutMs, MAX_TIMER_MS));
    }
  }

  onStop(listener: (reason: StopReason) => void): void {
    if (this.reason) listener(this.reason);
    else this.listeners.push(listener);
  }

  private fire(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    for (const listener of this.listeners.splice(0)) listener(reason);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener("abort", this.onAbort);
  }

  flags(): { timedOut: boolean; aborted: boolean } {
    return { timedOut: this.reason === "timeout", aborted: this.reason === "abort" };
  }
}

export class ChangeListeners {
  private readonly listeners = new Set<(paths: string[] | "unknown") => void>();

  add(listener: (paths: string[] | "unknown") => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(paths: string[] | "unknown"): void {
    for (const listener of this.listeners) listener(paths);
  }
}
