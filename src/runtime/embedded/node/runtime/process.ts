/**
 * The program's `process`: created when the runtime loads (the browser builds of Node's modules read
 * `process` as they load) and given the program's argv, env, cwd and streams once it is known.
 */
import { EventEmitter } from "events";
import type { Readable, Writable } from "node:stream";
import { Buffer } from "buffer";
import { nodeError } from "./errors.js";

import { NODE_VERSION } from "../version.js";

export { NODE_VERSION };

/** Thrown by `process.exit` to end the program's code where it stands (the runtime catches it). */
export class ExitSignal {
  constructor(readonly code: number) {}
}

interface ProcessHooks {
  write(stream: "stdout" | "stderr", chunk: string | Uint8Array): void;
  exit(code: number): never;
  nextTick(callback: (...args: unknown[]) => void, args: unknown[]): void;
  cwd(): string;
  chdir(path: string): void;
  builtin(name: string): unknown;
}

type Hooks = ProcessHooks;
let hooks: Hooks | undefined;
const need = (): Hooks => {
  if (!hooks) throw new Error("the process is not set up yet");
  return hooks;
};

const startedAt = performance.now();
let exitCode: number | undefined;

/**
 * The stream classes, handed in by the runtime once loaded: readable-stream itself asks for `process` as
 * it loads, so this module cannot import it.
 */
let streams: { Readable: typeof Readable; Writable: typeof Writable } | undefined;
export function provideStreams(classes: { Readable: typeof Readable; Writable: typeof Writable }): void {
  streams = classes;
}

function output(stream: "stdout" | "stderr", fd: number): Writable & { isTTY: boolean; fd: number } {
  if (!streams) throw new Error("the process' streams are not set up yet");
  const writable = new streams.Writable({
    decodeStrings: false,
    write(chunk: unknown, encoding: string, done: (error?: Error | null) => void) {
      if (typeof chunk === "string")
        need().write(stream, encoding === "utf8" || encoding === "buffer" ? chunk : Buffer.from(chunk, encoding as BufferEncoding));
      else need().write(stream, chunk as Uint8Array);
      done();
    },
  }) as Writable & { isTTY: boolean; fd: number };
  writable.isTTY = false;
  writable.fd = fd;
  // Node's stdout and stderr are never closed by a program's end().
  (writable as unknown as { destroySoon(): void }).destroySoon = () => {};
  return writable;
}

let stdinBytes: Uint8Array = new Uint8Array(0);
let stdin: Readable | undefined;

/** Node's env coerces what is assigned to a string. */
function envObject(values: Record<string, string>): Record<string, string> {
  const target: Record<string, string> = { ...values };
  return new Proxy(target, {
    set(object, key, value) {
      if (typeof key === "symbol") return false;
      object[key] = String(value);
      return true;
    },
    defineProperty(object, key, descriptor) {
      if (typeof key === "symbol") return false;
      object[key] = String(descriptor.value);
      return true;
    },
  });
}

class NodeProcess extends EventEmitter {
  title = "node";
  version = NODE_VERSION;
  versions = { node: NODE_VERSION.slice(1), v8: "12.4.254.21-node.21", uv: "1.49.2", modules: "127", unicode: "15.1" };
  release = { name: "node", lts: "Jod" };
  platform = "linux";
  arch = "x64";
  pid = 42;
  ppid = 1;
  execPath = "/usr/local/bin/node";
  argv0 = "node";
  argv: string[] = ["/usr/local/bin/node"];
  execArgv: string[] = [];
  env: Record<string, string> = envObject({});
  config = { variables: {} };
  features = {
    inspector: false,
    debug: false,
    uv: true,
    ipv6: true,
    tls_alpn: false,
    tls_sni: false,
    tls_ocsp: false,
    tls: false,
    typescript: "strip",
  };
  #out: { stdout?: ReturnType<typeof output>; stderr?: ReturnType<typeof output> } = {};

  get stdout(): ReturnType<typeof output> {
    this.#out.stdout ??= output("stdout", 1);
    return this.#out.stdout;
  }

  get stderr(): ReturnType<typeof output> {
    this.#out.stderr ??= output("stderr", 2);
    return this.#out.stderr;
  }
  noDeprecation = false;
  throwDeprecation = false;
  traceDeprecation = false;

  get exitCode(): number | undefined {
    return exitCode;
  }

  set exitCode(value: number | string | undefined | null) {
    if (value === undefined || value === null) {
      exitCode = undefined;
      return;
    }
    const number = Number(value);
    if (!Number.isInteger(number)) {
      throw nodeError(
        "ERR_INVALID_ARG_TYPE",
        `The "code" argument must be of type number. Received ${typeof value} (${String(value)})`,
        TypeError,
      );
    }
    exitCode = number;
  }

  get stdin(): Readable {
    if (!stdin) {
      const bytes = stdinBytes;
      if (!streams) throw new Error("the process' streams are not set up yet");
      stdin = new streams.Readable({
        read() {
          if (bytes.byteLength > 0) this.push(Buffer.from(bytes));
          this.push(null);
        },
      });
      (stdin as Readable & { fd: number; isTTY: boolean }).fd = 0;
      (stdin as Readable & { isTTY: boolean }).isTTY = false;
    }
    return stdin;
  }

  cwd(): string {
    return need().cwd();
  }

  chdir(directory: string): void {
    need().chdir(directory);
  }

  exit(code?: number | string | null): never {
    if (code !== undefined && code !== null) this.exitCode = code;
    return need().exit(exitCode ?? 0);
  }

  reallyExit(code?: number): never {
    return this.exit(code);
  }

  abort(): never {
    return need().exit(134);
  }

  nextTick(callback: (...args: unknown[]) => void, ...args: unknown[]): void {
    if (typeof callback !== "function") {
      throw nodeError("ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function. Received ${typeof callback}`, TypeError);
    }
    need().nextTick(callback, args);
  }

  hrtime = Object.assign(
    (previous?: [number, number]): [number, number] => {
      const now = performance.timeOrigin + performance.now();
      let seconds = Math.floor(now / 1000);
      let nanos = Math.floor((now % 1000) * 1e6);
      if (previous) {
        seconds -= previous[0];
        nanos -= previous[1];
        if (nanos < 0) {
          seconds--;
          nanos += 1e9;
        }
      }
      return [seconds, nanos];
    },
    { bigint: (): bigint => BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1e6)) },
  );

  uptime(): number {
    return (performance.now() - startedAt) / 1000;
  }

  memoryUsage = Object.assign(
    () => {
      const heap = (performance as { memory?: { usedJSHeapSize: number; totalJSHeapSize: number } }).memory;
      const used = heap?.usedJSHeapSize ?? 0;
      return { rss: used, heapTotal: heap?.totalJSHeapSize ?? used, heapUsed: used, external: 0, arrayBuffers: 0 };
    },
    { rss: () => 0 },
  );

  cpuUsage(): { user: number; system: number } {
    return { user: Math.round(performance.now() * 1000), system: 0 };
  }

  resourceUsage(): Record<string, number> {
    return { userCPUTime: Math.round(performance.now() * 1000), systemCPUTime: 0, maxRSS: 0 };
  }

  emitWarning(warning: string | Error, type?: string | { type?: string; code?: string }, code?: string): void {
    const options = typeof type === "object" ? type : { type, code };
    const error = typeof warning === "string" ? Object.assign(new Error(warning), { name: options.type ?? "Warning" }) : warning;
    if (options.code) (error as Error & { code?: string }).code = options.code;
    need().nextTick(() => {
      if (this.listenerCount("warning") > 0) this.emit("warning", error);
      if (this.noDeprecation && error.name === "DeprecationWarning") return;
      const prefix = (error as Error & { code?: string }).code ? `[${(error as Error & { code?: string }).code}] ` : "";
      need().write("stderr", `(node:${this.pid}) ${prefix}${error.name}: ${error.message}\n`);
    }, []);
  }

  umask(): number {
    return 0o22;
  }

  getuid(): number {
    return 1000;
  }

  geteuid(): number {
    return 1000;
  }

  getgid(): number {
    return 1000;
  }

  getegid(): number {
    return 1000;
  }

  getgroups(): number[] {
    return [1000];
  }

  kill(pid: number): boolean {
    if (pid === this.pid) return this.exit(143);
    throw nodeError("ESRCH", "kill ESRCH");
  }

  binding(name: string): never {
    throw nodeError("ERR_WORKBENCH_UNSUPPORTED", `process.binding('${name}') is not available in the workbench's embedded node`);
  }

  /** Node 22's way to a core module from anywhere: here, this runtime's core modules. */
  getBuiltinModule(name: string): unknown {
    return need().builtin(name.startsWith("node:") ? name.slice(5) : name);
  }

  setSourceMapsEnabled(): void {}

  setUncaughtExceptionCaptureCallback(): void {}

  hasUncaughtExceptionCaptureCallback(): boolean {
    return false;
  }
}

export const nodeProcess = new NodeProcess();

export interface ProcessSetup {
  argv: string[];
  execArgv: string[];
  env: Record<string, string>;
  stdin: Uint8Array;
}

export function setUpProcess(setup: ProcessSetup, given: Hooks): void {
  hooks = given;
  nodeProcess.argv = setup.argv;
  nodeProcess.execArgv = setup.execArgv;
  nodeProcess.env = envObject(setup.env);
  stdinBytes = setup.stdin;
}

/** The process' stdin bytes, for `fs.readFileSync(0)` and `/dev/stdin`. */
export function stdinData(): Uint8Array {
  return stdinBytes;
}

(globalThis as Record<string, unknown>).process = nodeProcess;
