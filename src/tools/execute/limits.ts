/**
 * What one execute program may spend. A limit that is reached stops the whole program: it is not an
 * exception the program can catch, or `while (true) { try { ... } catch {} }` would outlive every limit.
 */
export interface ExecuteLimits {
  /** Inner tool calls per program (V2's `maxToolCalls`). */
  maxToolCalls: number;
  /** Wall-clock time for the whole program, inner calls included (V2's `timeoutMs`). */
  timeoutMs: number;
  /** Bytes the program may print with console.log and return (V2's `maxOutputBytes`). */
  maxOutputBytes: number;
  /** Syntax nodes evaluated: bounds loops and recursion that never call a tool. */
  maxSteps: number;
  /** Nested calls of the program's own functions. */
  maxCallDepth: number;
  /** Characters in one string and elements in one array. */
  maxValueSize: number;
  /** Characters and elements created over the whole run, so doubling a value in a loop ends early. */
  maxAllocation: number;
  /** Characters of program text. */
  maxSourceLength: number;
}

export const DEFAULT_LIMITS: ExecuteLimits = {
  maxToolCalls: 50,
  timeoutMs: 5 * 60_000,
  maxOutputBytes: 64 * 1024,
  maxSteps: 1_000_000,
  maxCallDepth: 100,
  maxValueSize: 1_000_000,
  maxAllocation: 20_000_000,
  maxSourceLength: 100_000,
};

/** A limit was reached: the message says which and what to do instead. */
export class LimitError extends Error {
  override readonly name = "LimitError";
  constructor(
    readonly limit: keyof ExecuteLimits | "aborted",
    message: string,
  ) {
    super(message);
  }
}

export function timeoutError(limits: ExecuteLimits): LimitError {
  return new LimitError("timeoutMs", `the program ran longer than ${limits.timeoutMs} ms. Split the work into several shorter programs.`);
}

export function toolCallsError(limits: ExecuteLimits): LimitError {
  return new LimitError(
    "maxToolCalls",
    `the program called more than ${limits.maxToolCalls} tools. Do the rest in another execute call, or narrow the work (one grep instead of many reads).`,
  );
}

/** The running count of what a program spent, checked as it goes. */
export class Budget {
  private steps = 0;
  private allocated = 0;
  private calls = 0;
  private printed = 0;
  depth = 0;
  /** Set by the first limit reached; every later step throws it again, so nothing runs past it. */
  private stopped: LimitError | undefined;
  private readonly deadline: number;
  private lastYield = Date.now();
  private yieldChecks = 0;

  constructor(
    readonly limits: ExecuteLimits,
    private readonly signal: AbortSignal,
    now = Date.now(),
  ) {
    this.deadline = now + limits.timeoutMs;
  }

  get stopReason(): LimitError | undefined {
    return this.stopped;
  }

  stop(error: LimitError): never {
    throw this.halt(error);
  }

  /** Marks the program stopped (from outside: the clock, an abort), so its next step throws; returns the reason. */
  halt(error: LimitError): LimitError {
    this.stopped ??= error;
    return this.stopped;
  }

  /** One syntax node evaluated. The clock is read every 256 steps: a tight loop never waits on a timer. */
  step(): void {
    if (this.stopped) throw this.stopped;
    this.steps++;
    if (this.steps > this.limits.maxSteps)
      this.stop(
        new LimitError(
          "maxSteps",
          `the program ran more than ${this.limits.maxSteps} steps (an endless or very long loop?). Loop over less, or let a tool (grep, glob) do the scanning.`,
        ),
      );
    if ((this.steps & 255) === 0) this.checkClock();
  }

  /**
   * Whether the interpreter should give its thread's event loop a turn: in its worker, a busy program still
   * takes in the answers of the tool calls it started every ~20 ms instead of only at its next await.
   */
  timeToYield(): boolean {
    if ((++this.yieldChecks & 255) !== 0) return false;
    const now = Date.now();
    if (now - this.lastYield < 20) return false;
    this.lastYield = now;
    return true;
  }

  checkClock(): void {
    if (this.stopped) throw this.stopped;
    if (this.signal.aborted) this.stop(new LimitError("aborted", "the call was aborted."));
    if (Date.now() > this.deadline) this.stop(this.timeout());
  }

  timeout(): LimitError {
    return timeoutError(this.limits);
  }

  /**
   * A string or array of `size` characters or elements, of which `added` are new (pushing one item onto a
   * long array adds one; a copy adds all): the size has its cap, and what is new counts toward the total.
   */
  allocate(size: number, added = size): void {
    if (size > this.limits.maxValueSize)
      this.stop(
        new LimitError(
          "maxValueSize",
          `a string or array grew to ${size} characters or elements, past the limit of ${this.limits.maxValueSize}. Work on slices of it instead.`,
        ),
      );
    this.allocated += added;
    if (this.allocated > this.limits.maxAllocation)
      this.stop(
        new LimitError(
          "maxAllocation",
          `the program built more than ${this.limits.maxAllocation} characters and elements in all. Build smaller values.`,
        ),
      );
  }

  /** One more inner tool call. */
  toolCall(): void {
    if (this.stopped) throw this.stopped;
    this.calls++;
    if (this.calls > this.limits.maxToolCalls) this.stop(toolCallsError(this.limits));
  }

  /** Text the program prints or returns. */
  print(bytes: number): void {
    this.printed += bytes;
    if (this.printed > this.limits.maxOutputBytes)
      this.stop(
        new LimitError(
          "maxOutputBytes",
          `the program printed more than ${this.limits.maxOutputBytes} bytes. Print a summary or a slice instead of whole outputs.`,
        ),
      );
  }

  enter(): void {
    this.depth++;
    if (this.depth > this.limits.maxCallDepth)
      this.stop(
        new LimitError(
          "maxCallDepth",
          `the program's functions nested more than ${this.limits.maxCallDepth} calls deep (runaway recursion?). Use a loop instead.`,
        ),
      );
  }

  leave(): void {
    this.depth--;
  }
}
