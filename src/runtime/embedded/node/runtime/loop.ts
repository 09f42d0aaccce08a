/**
 * Node's event loop as programs see it, over the host's timers: `process.nextTick` runs before promise
 * callbacks, timers and immediates keep the program alive unless unref'd, and the program ends when nothing
 * holds it any more (then `beforeExit`, then exit).
 */

type Callback = (...args: unknown[]) => void;

/** The host's own timer functions, taken before the program can replace them. */
const hostSetTimeout = globalThis.setTimeout.bind(globalThis);
const hostClearTimeout = globalThis.clearTimeout.bind(globalThis);

export class EventLoop {
  private readonly ticks: Array<() => void> = [];
  private tickScheduled = false;
  private holds = 0;
  private idleCheck: ReturnType<typeof hostSetTimeout> | undefined;
  private readonly immediates: Immediate[] = [];
  private immediateTimer: ReturnType<typeof hostSetTimeout> | undefined;
  /** Set once the main module has run: only then does an empty loop mean the end. */
  private started = false;
  stopped = false;

  constructor(
    /** Runs a callback of the program, reporting what it throws as an uncaught exception. */
    private readonly guard: (run: () => void) => void,
    /** Called when nothing holds the loop any more (Node's `beforeExit`); it may add work. */
    private readonly onIdle: () => void,
  ) {}

  /** Called when the loop stayed empty after `onIdle`: the program is over. */
  onSettled: () => void = () => {};

  private isIdle(): boolean {
    return !this.stopped && this.holds === 0 && this.ticks.length === 0 && this.immediates.length === 0;
  }

  nextTick(callback: Callback, args: unknown[]): void {
    this.ticks.push(() => callback(...args));
    if (!this.tickScheduled) {
      this.tickScheduled = true;
      queueMicrotask(() => this.drainTicks());
    }
  }

  /** Runs the queued ticks now (after the main module and after each callback, as Node does). */
  drainTicks(): void {
    this.tickScheduled = false;
    while (this.ticks.length > 0 && !this.stopped) {
      const tick = this.ticks.shift()!;
      this.guard(tick);
    }
  }

  /** Runs a callback of the program the way Node runs one from its loop: ticks right after it. */
  callback(run: () => void): void {
    if (this.stopped) return;
    this.guard(run);
    this.drainTicks();
    this.maybeIdle();
  }

  /** Something (a timer, a pending read) keeps the program alive until the returned release is called. */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.maybeIdle();
    };
  }

  start(): void {
    this.started = true;
    this.maybeIdle();
  }

  /** Checks for the end after pending promise callbacks ran (a host timer runs after all of them). */
  maybeIdle(): void {
    if (!this.started || this.stopped || this.holds > 0 || this.idleCheck !== undefined) return;
    this.idleCheck = hostSetTimeout(() => {
      if (!this.isIdle()) {
        this.idleCheck = undefined;
        return;
      }
      this.onIdle();
      this.drainTicks();
      // Once more after what beforeExit started has had its turn.
      hostSetTimeout(() => {
        this.idleCheck = undefined;
        if (this.isIdle()) this.onSettled();
        else this.maybeIdle();
      }, 0);
    }, 0);
  }

  setTimeout(callback: Callback, delay: unknown, args: unknown[], repeat: boolean): Timeout {
    return new Timeout(this, callback, delay, args, repeat);
  }

  setImmediate(callback: Callback, args: unknown[]): Immediate {
    const immediate = new Immediate(this, callback, args);
    this.immediates.push(immediate);
    if (this.immediateTimer === undefined) this.immediateTimer = hostSetTimeout(() => this.runImmediates(), 0);
    return immediate;
  }

  clearImmediate(immediate: Immediate): void {
    const at = this.immediates.indexOf(immediate);
    if (at >= 0) this.immediates.splice(at, 1);
    immediate.release();
  }

  private runImmediates(): void {
    this.immediateTimer = undefined;
    // Those queued while these run wait for the next turn, as in Node.
    const now = this.immediates.splice(0);
    for (const immediate of now) {
      immediate.release();
      this.callback(() => immediate.run());
    }
    if (this.immediates.length > 0 && this.immediateTimer === undefined)
      this.immediateTimer = hostSetTimeout(() => this.runImmediates(), 0);
  }

  /** @internal for Timeout */
  schedule(run: () => void, delay: number): ReturnType<typeof hostSetTimeout> {
    return hostSetTimeout(run, delay);
  }

  /** @internal for Timeout */
  cancel(handle: ReturnType<typeof hostSetTimeout>): void {
    hostClearTimeout(handle);
  }
}

let nextTimerId = 1;

/** A timer as Node returns it: ref/unref/hasRef/refresh, and a number when coerced. */
export class Timeout {
  private handle: ReturnType<typeof hostSetTimeout> | undefined;
  private release: (() => void) | undefined;
  private readonly delay: number;
  private readonly id = nextTimerId++;
  private referenced = true;
  private cleared = false;

  constructor(
    private readonly loop: EventLoop,
    private readonly callback: Callback,
    delay: unknown,
    private readonly args: unknown[],
    private readonly repeat: boolean,
  ) {
    const ms = Number(delay);
    this.delay = Number.isFinite(ms) && ms >= 1 && ms <= 2 ** 31 - 1 ? ms : 1;
    this.release = loop.hold();
    this.arm();
  }

  private arm(): void {
    this.handle = this.loop.schedule(() => this.fire(), this.delay);
  }

  private fire(): void {
    if (this.cleared) return;
    if (this.repeat) this.arm();
    else this.dispose();
    this.loop.callback(() => this.callback.apply(this, this.args));
  }

  private dispose(): void {
    this.cleared = true;
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  clear(): void {
    if (this.handle !== undefined) this.loop.cancel(this.handle);
    this.dispose();
  }

  ref(): this {
    if (!this.referenced && !this.cleared) this.release = this.loop.hold();
    this.referenced = true;
    return this;
  }

  unref(): this {
    if (this.referenced) {
      const release = this.release;
      this.release = undefined;
      release?.();
    }
    this.referenced = false;
    return this;
  }

  hasRef(): boolean {
    return this.referenced && !this.cleared;
  }

  refresh(): this {
    if (this.cleared) return this;
    if (this.handle !== undefined) this.loop.cancel(this.handle);
    this.arm();
    return this;
  }

  close(): this {
    this.clear();
    return this;
  }

  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

export class Immediate {
  private releaseHold: (() => void) | undefined;

  constructor(
    loop: EventLoop,
    private readonly callback: Callback,
    private readonly args: unknown[],
  ) {
    this.releaseHold = loop.hold();
  }

  run(): void {
    this.callback(...this.args);
  }

  release(): void {
    const release = this.releaseHold;
    this.releaseHold = undefined;
    release?.();
  }

  ref(): this {
    return this;
  }

  unref(): this {
    this.release();
    return this;
  }

  hasRef(): boolean {
    return this.releaseHold !== undefined;
  }
}
