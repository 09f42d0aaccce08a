/**
 * The node runtime's search threads: a few worker_threads, started the first time a search is big
 * enough to want them and kept for the runtime's life (a thread costs a few hundred milliseconds to
 * start, far more than a small search). Each takes batches of paths, reads and searches them, and
 * answers (search-batch.ts). When threads cannot start here at all, `readyNow` stays false and
 * searches keep to the calling thread; a thread that dies mid-search fails that search with a
 * SearchThreadError rather than leaving it waiting.
 */
import { Worker } from "node:worker_threads";
import type { BinaryMode } from "../../search/binary.js";
import type { BatchReply, FromThread, ToThread } from "./search-batch.js";

/** A search thread stopped (crashed, or the runtime was disposed) before answering. */
export class SearchThreadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchThreadError";
  }
}

export interface SearchPoolOptions {
  threads: number;
  /** The thread's entry module (tests substitute one). */
  entry?: URL;
}

export interface PoolQuery {
  patterns: string[];
  caseInsensitive: boolean;
  positions: boolean;
  /** When the search must stop (epoch ms): the threads end their batch there, even inside one long match. */
  deadlineAt: number;
}

/** One search's use of the pool. */
export interface PoolJob {
  /** Hands a batch to the least busy thread; settles with its reply, or a SearchThreadError. */
  dispatch(paths: string[], modes?: BinaryMode[]): Promise<BatchReply>;
  /** The search is over (done, aborted or abandoned): threads skip whatever of it they still hold. */
  end(): void;
}

interface Pending {
  resolve(reply: BatchReply): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** Terminated on purpose: its exit is no crash. */
  stopping: boolean;
  exited: boolean;
  /** Batches handed to it and not yet answered, by `${job}:${seq}`. */
  pending: Map<string, Pending>;
  /** Jobs it has been told about. */
  begun: Set<number>;
}

export class SearchPool {
  private threads: Thread[] = [];
  /** Every thread ever started, to count the live ones. */
  private started = new Set<Thread>();
  /** Threads could not start here: searches stay in the calling thread. */
  private broken = false;
  private disposed = false;
  private nextJob = 1;
  /** Set while threads are being ended (dispose, or threads that could not start). */
  private stopping: Promise<void> | undefined;
  /** Woken when a thread comes up, or the pool gives up on threads. */
  private readyWaiters: Array<() => void> = [];
  private readonly entry: URL;

  constructor(private readonly options: SearchPoolOptions) {
    this.entry = options.entry ?? new URL("./search-thread.mjs", import.meta.url);
  }

  /** True when a thread can take batches now; otherwise starts the threads (once) and says false. */
  readyNow(): boolean {
    if (this.disposed || this.broken) return false;
    if (this.threads.length === 0) this.start();
    return this.threads.some((thread) => thread.ready);
  }

  /** Starts the threads if need be; true once one can take batches, false if none can start here. */
  async ready(): Promise<boolean> {
    while (!this.readyNow()) {
      if (this.disposed || this.broken) {
        await this.stopping;
        return false;
      }
      // Someone waits for them: the starting threads hold the process open until they are up.
      for (const thread of this.threads) if (!thread.ready) thread.worker.ref();
      await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
    }
    return true;
  }

  /** Files the threads have read, over every search (how far an aborted search got). */
  filesRead = 0;

  /** Batches handed out and not yet answered. */
  get pendingBatches(): number {
    let pending = 0;
    for (const thread of this.threads) pending += thread.pending.size;
    return pending;
  }

  /** Threads started and not yet exited (0 after dispose). */
  get liveThreads(): number {
    let live = 0;
    for (const thread of this.started) if (!thread.exited) live++;
    return live;
  }

  private start(): void {
    for (let k = 0; k < this.options.threads; k++) {
      let worker: Worker;
      try {
        worker = new Worker(this.entry);
      } catch {
        this.broken = true;
        this.stopping = this.stopAll();
        return;
      }
      const thread: Thread = { worker, ready: false, stopping: false, exited: false, pending: new Map(), begun: new Set() };
      // Idle threads must not keep the process alive (a CLI run ends without disposing its runtime);
      // one with batches to answer must, or a search's wait for them could be cut short.
      worker.unref();
      let failure = "";
      worker.on("message", (message: FromThread) => this.receive(thread, message));
      worker.on("error", (error) => (failure = error.message));
      worker.on("exit", (code) => {
        thread.exited = true;
        this.started.delete(thread);
        if (thread.stopping) return;
        if (!thread.ready) {
          // It never came up (no loader, no permission to start threads): this pool stays unused.
          this.broken = true;
          this.stopping = this.stopAll();
          return;
        }
        this.threads = this.threads.filter((t) => t !== thread);
        const reason = failure ? `: ${failure}` : ` with code ${code}`;
        this.fail(thread, new SearchThreadError(`A search thread stopped unexpectedly${reason}. The search is incomplete; run it again.`));
      });
      this.threads.push(thread);
      this.started.add(thread);
    }
  }

  private receive(thread: Thread, message: FromThread): void {
    if (message.kind === "ready") {
      thread.ready = true;
      if (thread.pending.size === 0) thread.worker.unref();
      this.wakeWaiters();
      return;
    }
    if (message.kind === "done") this.filesRead += message.reply.searched;
    const key = `${message.id}:${message.seq}`;
    const pending = thread.pending.get(key);
    if (!pending) return;
    thread.pending.delete(key);
    if (thread.pending.size === 0) thread.worker.unref();
    if (message.kind === "done") pending.resolve(message.reply);
    else pending.reject(new SearchThreadError(`A search thread failed: ${message.message}. The search is incomplete.`));
  }

  private wakeWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }

  private fail(thread: Thread, error: Error): void {
    const pending = [...thread.pending.values()];
    thread.pending.clear();
    for (const p of pending) p.reject(error);
  }

  private async stopAll(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    this.wakeWaiters();
    for (const thread of threads) {
      thread.stopping = true;
      this.fail(thread, new SearchThreadError("The runtime was disposed during the search."));
    }
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private post(thread: Thread, message: ToThread): void {
    thread.worker.postMessage(message);
  }

  /** Starts a search on the pool; call only after readyNow() said true. */
  begin(query: PoolQuery): PoolJob {
    const id = this.nextJob++;
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    let seq = 0;
    let ended = false;
    const used = new Set<Thread>();
    return {
      dispatch: (paths, modes) => {
        const ready = this.threads.filter((thread) => thread.ready);
        if (ready.length === 0)
          return Promise.reject(new SearchThreadError("No search thread is running (the runtime was disposed, or they stopped)."));
        let thread = ready[0]!;
        for (const t of ready) if (t.pending.size < thread.pending.size) thread = t;
        if (!thread.begun.has(id)) {
          thread.begun.add(id);
          used.add(thread);
          this.post(thread, { kind: "begin", id, cancel, ...query });
        }
        const n = seq++;
        return new Promise<BatchReply>((resolve, reject) => {
          if (thread.pending.size === 0) thread.worker.ref();
          thread.pending.set(`${id}:${n}`, { resolve, reject });
          this.post(thread, { kind: "batch", id, seq: n, paths, ...(modes ? { modes } : {}) });
        });
      },
      end: () => {
        if (ended) return;
        ended = true;
        Atomics.store(cancel, 0, 1);
        for (const thread of used) {
          thread.begun.delete(id);
          if (!thread.exited) this.post(thread, { kind: "end", id });
        }
      },
    };
  }

  /** Ends the threads; a search still using them fails with a SearchThreadError. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopping = this.stopAll();
    await this.stopping;
  }
}
