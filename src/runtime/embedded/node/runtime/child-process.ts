/**
 * `child_process` for programs in the sandbox: each child is a command line for the same embedded shell
 * that runs the program (so it reaches what the program reaches, and nothing else). The runtime hands the
 * command to the shell with the program's file changes, and gets back its exit, its output and what it
 * changed (see ChildHost). Output arrives when the child ends, not while it runs. The sync forms block on
 * shared memory where the sandbox has it (the CLI's worker threads); in the page they cannot wait, and say
 * which async form to use.
 */
import { EventEmitter } from "events";
import { Readable, Writable } from "readable-stream";
import { Buffer } from "buffer";
import * as util from "util";
import { nodeError } from "./errors.js";
import { resolve } from "./path.js";
import type { SyncReply } from "../sync-reply.js";

/** What the runtime needs from its host to run a child. */
export interface ChildHost {
  /** Starts a command line in the shell; `file` (no shell) asks the shell first whether that command exists. */
  start(request: ChildRequest): { id: number; done: Promise<ChildResult> };
  /** Ends a running child (its command line is aborted). */
  kill(id: number): void;
  cwd(): string;
  env(): Record<string, string>;
  /** Keeps the program alive until the release is called (a running child does, as in Node). */
  hold(): () => void;
  /** Runs a callback of the program as the event loop does (its exceptions are uncaught exceptions). */
  callback(run: () => void): void;
  /** A host timer (the program's own timers may be faked or replaced); returns its cancel. */
  later(run: () => void, ms: number): () => void;
  /** The program's own stdout and stderr, for `stdio: "inherit"`. */
  write(stream: "stdout" | "stderr", chunk: Uint8Array): void;
  execPath: string;
  /** Runs a command and blocks until it ends; undefined where the sandbox cannot block. */
  runSync(request: ChildRequest): SyncReply | undefined;
}

interface ChildRequest {
  command: string;
  /** Set when there is no shell in between: the command Node would look up on PATH. */
  file?: string;
  cwd: string;
  env: Record<string, string>;
  stdin: Uint8Array;
  /** A blocking call's timeout, which the shell enforces. */
  timeoutMs?: number;
}

export type ChildResult =
  | { kind: "exited"; exitCode: number; stdout: Uint8Array; stderr: Uint8Array }
  /** The command (run without a shell) does not exist: Node's spawn ENOENT. */
  | { kind: "not-found" };

type Stdio = "pipe" | "inherit" | "ignore";

interface SpawnOptions {
  cwd?: string | URL;
  env?: Record<string, string | undefined>;
  shell?: boolean | string;
  stdio?: Stdio | Array<Stdio | null | undefined | number>;
  timeout?: number;
  killSignal?: string | number;
  signal?: AbortSignal;
  argv0?: string;
}

interface ExecOptions extends SpawnOptions {
  encoding?: BufferEncoding | "buffer" | null;
  maxBuffer?: number;
}

type ExecCallback = (error: ExecError | null, stdout: string | Buffer, stderr: string | Buffer) => void;

type ExecError = Error & { code?: number | string; killed?: boolean; signal?: string | null; cmd?: string };

/** POSIX shell quoting: a word the shell passes through as it is. */
function shellWord(word: string): string {
  if (word !== "" && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function stdioOf(options: SpawnOptions, index: 0 | 1 | 2): Stdio {
  const stdio = options.stdio;
  if (stdio === undefined) return "pipe";
  if (typeof stdio === "string") return stdio;
  const value = stdio[index];
  if (value === "inherit" || value === index) return "inherit";
  if (value === "ignore") return "ignore";
  return "pipe";
}

function signalName(signal: string | number | undefined): string {
  if (typeof signal === "string") return signal;
  const names: Record<number, string> = { 1: "SIGHUP", 2: "SIGINT", 9: "SIGKILL", 15: "SIGTERM" };
  return signal === undefined ? "SIGTERM" : (names[signal] ?? "SIGTERM");
}

function assertString(name: string, value: unknown): asserts value is string {
  if (typeof value !== "string")
    throw nodeError(
      "ERR_INVALID_ARG_TYPE",
      `The "${name}" argument must be of type string. Received ${value === null ? "null" : typeof value}`,
      TypeError,
    );
}

export function createChildProcess(host: ChildHost): Record<string, unknown> {
  let nextPid = 1000;

  /** Where a child runs, with what environment, and the command line the shell is given for it. */
  function commandLine(
    file: string,
    args: string[],
    options: SpawnOptions,
  ): { cwd: string; env: Record<string, string>; program: string; command: string } {
    const cwd = resolve(
      host.cwd(),
      options.cwd === undefined ? "." : String(options.cwd instanceof URL ? options.cwd.pathname : options.cwd),
    );
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.env ?? host.env())) if (value !== undefined) env[key] = String(value);
    const program = file === host.execPath ? "node" : file;
    const command = options.shell ? [file, ...args].join(" ") : [program, ...args].map(shellWord).join(" ");
    return { cwd, env, program, command };
  }

  class ChildProcess extends EventEmitter {
    pid: number | undefined;
    stdin: Writable | null = null;
    stdout: Readable | null = null;
    stderr: Readable | null = null;
    stdio: Array<Writable | Readable | null>;
    exitCode: number | null = null;
    signalCode: string | null = null;
    killed = false;
    connected = false;
    readonly spawnfile: string;
    readonly spawnargs: string[];
    private id: number | undefined;
    private ended = false;
    private killedWith: string | undefined;

    constructor(file: string, args: string[], options: SpawnOptions) {
      super();
      this.spawnfile = file;
      this.spawnargs = [file, ...args];
      const { cwd, env, program, command } = commandLine(file, args, options);
      const modes = [stdioOf(options, 0), stdioOf(options, 1), stdioOf(options, 2)] as const;
      const input: Uint8Array[] = [];
      let inputEnded = false;
      let launch: () => void = () => {};
      if (modes[0] === "pipe") {
        this.stdin = new Writable({
          write(chunk: Uint8Array | string, encoding: BufferEncoding, done: () => void) {
            input.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
            done();
          },
          final(done: () => void) {
            inputEnded = true;
            done();
            launch();
          },
        });
      }
      const readable = () => new Readable({ read() {} });
      if (modes[1] === "pipe") this.stdout = readable();
      if (modes[2] === "pipe") this.stderr = readable();
      this.stdio = [this.stdin, this.stdout, this.stderr];
      this.pid = nextPid++;
      const release = host.hold();
      let started = false;
      // The child gets what the program wrote to its stdin by the end of this turn, or up to stdin's end.
      launch = () => {
        if (started) return;
        started = true;
        if (this.killedWith) {
          // Killed before it started: it never runs, and ends as a killed child does.
          this.once("close", release);
          this.finish({ kind: "exited", exitCode: 0, stdout: new Uint8Array(0), stderr: new Uint8Array(0) }, modes);
          return;
        }
        const stdin = Buffer.concat(input);
        const run = host.start({ command, file: options.shell ? undefined : program, cwd, env, stdin });
        this.id = run.id;
        run.done.then(
          (result) =>
            host.callback(() => {
              this.once("close", release);
              this.finish(result, modes);
            }),
          (error: unknown) =>
            host.callback(() => {
              release();
              this.emit("error", error);
            }),
        );
      };
      queueMicrotask(() => {
        if (!inputEnded) host.later(() => host.callback(launch), 0);
        this.emit("spawn");
      });
      if (options.timeout && options.timeout > 0) {
        const cancel = host.later(() => host.callback(() => this.kill(options.killSignal)), options.timeout);
        this.once("exit", cancel);
      }
      if (options.signal) {
        const signal = options.signal;
        const abort = () => {
          this.kill(options.killSignal);
          const error = new Error("The operation was aborted", { cause: signal.reason });
          Object.assign(error, { name: "AbortError", code: "ABORT_ERR" });
          this.emit("error", error);
        };
        if (signal.aborted) queueMicrotask(abort);
        else {
          signal.addEventListener("abort", abort, { once: true });
          this.once("exit", () => signal.removeEventListener("abort", abort));
        }
      }
    }

    private finish(result: ChildResult, modes: readonly [Stdio, Stdio, Stdio]): void {
      if (this.ended) return;
      this.ended = true;
      if (result.kind === "not-found") {
        this.pid = undefined;
        const error = nodeError("ENOENT", `spawn ${this.spawnfile} ENOENT`);
        Object.assign(error, { errno: -2, syscall: `spawn ${this.spawnfile}`, path: this.spawnfile, spawnargs: this.spawnargs.slice(1) });
        this.stdout?.push(null);
        this.stderr?.push(null);
        this.emit("error", error);
        this.emit("close", -2, null);
        return;
      }
      const streams: Array<[Readable | null, Uint8Array, "stdout" | "stderr", Stdio]> = [
        [this.stdout, result.stdout, "stdout", modes[1]],
        [this.stderr, result.stderr, "stderr", modes[2]],
      ];
      for (const [stream, data, name, mode] of streams) {
        if (mode === "inherit" && data.byteLength > 0) host.write(name, data);
        if (!stream) continue;
        if (data.byteLength > 0) stream.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        stream.push(null);
      }
      if (this.killedWith) this.signalCode = this.killedWith;
      else this.exitCode = result.exitCode;
      this.emit("exit", this.exitCode, this.signalCode);
      // `close` comes once the child's streams have ended (those nobody reads end at once).
      const open = [this.stdout, this.stderr].filter(
        (stream): stream is Readable => stream !== null && stream.readableFlowing === true && !stream.readableEnded,
      );
      let waiting = open.length;
      const close = () => host.later(() => host.callback(() => this.emit("close", this.exitCode, this.signalCode)), 0);
      if (waiting === 0) close();
      for (const stream of open)
        stream.once("end", () => {
          if (--waiting === 0) close();
        });
    }

    kill(signal?: string | number): boolean {
      if (this.ended || this.killedWith) return false;
      this.killedWith = signalName(signal);
      this.killed = true;
      if (this.id !== undefined) host.kill(this.id);
      return true;
    }

    ref(): this {
      return this;
    }

    unref(): this {
      return this;
    }

    disconnect(): void {}
  }

  function normalize(args: unknown, options: unknown): { args: string[]; options: SpawnOptions } {
    if (!Array.isArray(args)) return { args: [], options: (args ?? {}) as SpawnOptions };
    return { args: args.map(String), options: (options ?? {}) as SpawnOptions };
  }

  function spawn(file: unknown, args?: unknown, options?: unknown): ChildProcess {
    assertString("file", file);
    const normal = normalize(args, options);
    return new ChildProcess(file, normal.args, normal.options);
  }

  /** execFile and exec: output gathered into strings (or Buffers), one callback at the end. */
  function gather(child: ChildProcess, cmd: string, options: ExecOptions, callback: ExecCallback | undefined): ChildProcess {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    const text = (chunks: Buffer[]) => {
      const bytes = Buffer.concat(chunks);
      return options.encoding === "buffer" || options.encoding === null ? bytes : bytes.toString(options.encoding ?? "utf8");
    };
    let done = false;
    const finish = (error: ExecError | null) => {
      if (done) return;
      done = true;
      callback?.(error, text(out), text(err));
    };
    child.once("error", (error: ExecError) => finish(error));
    child.once("close", (code: number | null, signal: string | null) => {
      if (code === 0 && signal === null) return finish(null);
      const stderr = Buffer.concat(err).toString();
      const error: ExecError = new Error(`Command failed: ${cmd}\n${stderr}`);
      Object.assign(error, { code, killed: child.killed, signal, cmd });
      finish(error);
    });
    return child;
  }

  function execFile(file: unknown, ...rest: unknown[]): ChildProcess {
    assertString("file", file);
    const callback = typeof rest[rest.length - 1] === "function" ? (rest.pop() as ExecCallback) : undefined;
    const normal = normalize(rest[0], rest[1]);
    const options = normal.options as ExecOptions;
    const child = new ChildProcess(file, normal.args, options);
    return gather(child, [file, ...normal.args].join(" "), options, callback);
  }

  function exec(command: unknown, options?: unknown, callback?: unknown): ChildProcess {
    assertString("command", command);
    if (typeof options === "function") [callback, options] = [options, undefined];
    const settings = { ...((options ?? {}) as ExecOptions), shell: (options as ExecOptions | undefined)?.shell || true };
    return gather(new ChildProcess(command, [], settings), command, settings, callback as ExecCallback | undefined);
  }

  // util.promisify(exec) and util.promisify(execFile) resolve with { stdout, stderr }, as Node's do.
  const promisified =
    (run: (...args: unknown[]) => ChildProcess) =>
    (...args: unknown[]) => {
      let child: ChildProcess | undefined;
      const promise = new Promise((resolvePromise, reject) => {
        child = run(...args, (error: ExecError | null, stdout: unknown, stderr: unknown) => {
          if (error) reject(Object.assign(error, { stdout, stderr }));
          else resolvePromise({ stdout, stderr });
        });
      });
      return Object.assign(promise, { child });
    };
  Object.defineProperty(exec, util.promisify.custom, { value: promisified(exec as (...args: unknown[]) => ChildProcess) });
  Object.defineProperty(execFile, util.promisify.custom, { value: promisified(execFile as (...args: unknown[]) => ChildProcess) });

  const cannotWait = (name: string, instead: string) =>
    nodeError(
      "ERR_WORKBENCH_UNSUPPORTED",
      `child_process.${name} cannot wait for a command in the page's embedded node (its sandbox has no shared memory to block on). Use ${instead} instead.`,
    );

  interface SyncOptions extends ExecOptions {
    input?: string | Uint8Array;
  }

  /** spawnSync's result: what every blocking form is built on. */
  function runBlocking(name: string, instead: string, file: string, args: string[], options: SyncOptions) {
    const { cwd, env, program, command } = commandLine(file, args, options);
    const input =
      options.input === undefined ? new Uint8Array(0) : typeof options.input === "string" ? Buffer.from(options.input) : options.input;
    const timeoutMs = options.timeout && options.timeout > 0 ? options.timeout : undefined;
    const reply = host.runSync({ command, file: options.shell ? undefined : program, cwd, env, stdin: input, timeoutMs });
    if (!reply) throw cannotWait(name, instead);
    const encode = (bytes: Uint8Array) => {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return options.encoding && options.encoding !== "buffer" ? buffer.toString(options.encoding) : buffer;
    };
    const stdout = encode(reply.stdout);
    const stderr = encode(reply.stderr);
    if (reply.notFound) {
      const error = nodeError("ENOENT", `spawnSync ${file} ENOENT`);
      Object.assign(error, { errno: -2, syscall: `spawnSync ${file}`, path: file, spawnargs: args });
      return { error, status: null, signal: null, output: null, pid: 0, stdout, stderr };
    }
    if (reply.timedOut) {
      const spawned = options.shell ? "/bin/sh" : file;
      const error = nodeError("ETIMEDOUT", `spawnSync ${spawned} ETIMEDOUT`);
      Object.assign(error, { errno: -110, syscall: `spawnSync ${spawned}`, path: spawned, spawnargs: options.shell ? ["-c", file] : args });
      const signal = signalName(options.killSignal);
      return { error, status: null, signal, output: [null, stdout, stderr], pid: nextPid++, stdout, stderr };
    }
    return { status: reply.exitCode, signal: null, output: [null, stdout, stderr], pid: nextPid++, stdout, stderr };
  }

  function syncArgs(args: unknown, options: unknown): { args: string[]; options: SyncOptions } {
    return normalize(args, options) as { args: string[]; options: SyncOptions };
  }

  /** execSync and execFileSync: stdout back, stderr to the program's own unless piped, a throw on failure. */
  function checked(name: string, instead: string, file: string, args: string[], options: SyncOptions, cmd: string) {
    const result = runBlocking(name, instead, file, args, options);
    const stderrMode = stdioOf(options, 2);
    const stderrBytes = typeof result.stderr === "string" ? Buffer.from(result.stderr) : result.stderr;
    if (options.stdio === undefined || stderrMode === "inherit") {
      if (stderrBytes.byteLength > 0) host.write("stderr", stderrBytes);
    }
    if (result.error) {
      const { error, ...rest } = result;
      throw Object.assign(error, rest);
    }
    if (result.status !== 0) {
      const error = new Error(`Command failed: ${cmd}${stderrBytes.byteLength > 0 ? `\n${stderrBytes.toString()}` : ""}`);
      Object.assign(error, result);
      throw error;
    }
    if (stdioOf(options, 1) === "inherit") {
      const out = typeof result.stdout === "string" ? Buffer.from(result.stdout) : result.stdout;
      if (out.byteLength > 0) host.write("stdout", out);
    }
    return result.stdout;
  }

  function execSync(command: unknown, options?: unknown) {
    assertString("command", command);
    const settings = { ...((options ?? {}) as SyncOptions), shell: (options as SyncOptions | undefined)?.shell || true };
    return checked(
      "execSync",
      "await util.promisify(child_process.exec)(command), or exec(command, callback)",
      command,
      [],
      settings,
      command,
    );
  }

  function execFileSync(file: unknown, args?: unknown, options?: unknown) {
    assertString("file", file);
    const normal = syncArgs(args, options);
    const instead = "await util.promisify(child_process.execFile)(file, args), or execFile(file, args, callback)";
    return checked("execFileSync", instead, file, normal.args, normal.options, [file, ...normal.args].join(" "));
  }

  function spawnSync(file: unknown, args?: unknown, options?: unknown) {
    assertString("file", file);
    const normal = syncArgs(args, options);
    return runBlocking("spawnSync", "spawn(command, args) and its 'close' event", file, normal.args, normal.options);
  }

  return {
    ChildProcess,
    spawn,
    exec,
    execFile,
    fork: () => {
      throw nodeError(
        "ERR_WORKBENCH_UNSUPPORTED",
        "child_process.fork needs an IPC channel, which the workbench's embedded node does not have. Use spawn(process.execPath, [file, ...args]) and talk over stdout instead.",
      );
    },
    execSync,
    execFileSync,
    spawnSync,
  };
}
