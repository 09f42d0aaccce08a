/**
 * Node's core modules in the sandbox: browser builds of Node's own modules from npm where they exist
 * (events, util, assert, readable-stream, buffer, string_decoder, path-browserify, querystring-es3), ZenFS for
 * fs, @noble/hashes for crypto's hashes, fflate for zlib; the rest written here over those. Each module is
 * made on first use. A module Node has and this runtime does not fails with a message naming it.
 */
import { EventEmitter, once, on } from "events";
import * as util from "util";
import assert from "assert";
import * as stream from "readable-stream";
import { Buffer } from "buffer";
import { StringDecoder } from "string_decoder";
import path from "path-browserify";
import querystring from "querystring-es3";
import { md5, sha1 } from "@noble/hashes/legacy";
import { sha224, sha256, sha384, sha512 } from "@noble/hashes/sha2";
import { hmac } from "@noble/hashes/hmac";
import {
  gunzipSync,
  gzipSync,
  inflateSync,
  deflateSync,
  inflateSync as inflateRaw,
  deflateSync as deflateRaw,
  unzlibSync,
  zlibSync,
} from "fflate";
import type { BoundContext } from "@zenfs/core";
import { nodeError, unsupportedModule } from "./errors.js";
import { format, formatWithOptions, inspect } from "./format.js";
import type { EventLoop, Immediate, Timeout } from "./loop.js";
import type { ModuleSystem } from "./modules.js";
import { nodeProcess, stdinData } from "./process.js";

export interface BuiltinDeps {
  files: BoundContext;
  loop: EventLoop;
  modules: () => ModuleSystem;
  write(stream: "stdout" | "stderr", chunk: string | Uint8Array): void;
  /** node:test, made by the runtime (it reports through the process). */
  test: () => unknown;
  /** child_process, made by the runtime (its commands go to the shell). */
  childProcess: () => unknown;
}

/** Modules Node has that cannot work here, with why. */
const UNSUPPORTED: Record<string, string> = {
  http: "there is no network here (fetch and sockets are off)",
  https: "there is no network here (fetch and sockets are off)",
  http2: "there is no network here",
  net: "there is no network here",
  tls: "there is no network here",
  dgram: "there is no network here",
  dns: "there is no network here",
  "dns/promises": "there is no network here",
  cluster: "there are no processes to fork here",
  worker_threads: "programs run in one thread here",
  inspector: "there is no inspector here",
  "inspector/promises": "there is no inspector here",
  v8: "the engine's internals are not exposed here",
  vm: "code runs in one context here (use eval or Function)",
  repl: "there is no interactive terminal here",
  tty: "there is no terminal here",
  trace_events: "there is no tracing here",
  wasi: "WASI is not offered here",
  sqlite: "there is no sqlite here",
  domain: "domain is not offered here",
  async_hooks: "async_hooks is not offered here",
  diagnostics_channel: "diagnostics_channel is not offered here",
  punycode: "punycode is not offered here",
  constants: "constants is not offered here",
  sys: "sys is not offered here (use util)",
};

const HASHES: Record<string, typeof sha256> = {
  md5,
  sha1,
  sha224,
  sha256,
  sha384,
  sha512,
  "sha-1": sha1,
  "sha-256": sha256,
  "sha-512": sha512,
};

function hashOf(algorithm: string): typeof sha256 {
  const hash = HASHES[algorithm.toLowerCase()];
  if (!hash)
    throw nodeError(
      "ERR_OSSL_EVP_UNSUPPORTED",
      `Digest method not supported: ${algorithm} (this runtime has ${Object.keys(HASHES).join(", ")})`,
    );
  return hash;
}

function toBytes(data: unknown, encoding?: BufferEncoding): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw nodeError(
    "ERR_INVALID_ARG_TYPE",
    `The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${typeof data}`,
    TypeError,
  );
}

class Hash {
  private readonly state: { update(bytes: Uint8Array): unknown; digest(): Uint8Array };
  constructor(state: { update(bytes: Uint8Array): unknown; digest(): Uint8Array }) {
    this.state = state;
  }
  update(data: unknown, encoding?: BufferEncoding): this {
    this.state.update(toBytes(data, encoding));
    return this;
  }
  digest(encoding?: BufferEncoding): Buffer | string {
    const bytes = Buffer.from(this.state.digest());
    return encoding ? bytes.toString(encoding) : bytes;
  }
  copy(): Hash {
    return new Hash((this.state as unknown as { clone(): Hash["state"] }).clone());
  }
}

function makeCrypto(): Record<string, unknown> {
  const web = globalThis.crypto;
  const randomBytes = (size: number, callback?: (error: Error | null, bytes: Buffer) => void) => {
    const bytes = Buffer.alloc(size);
    for (let at = 0; at < size; at += 65536) web.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
    if (callback) {
      queueMicrotask(() => callback(null, bytes));
      return undefined;
    }
    return bytes;
  };
  return {
    createHash: (algorithm: string) => new Hash(hashOf(algorithm).create()),
    createHmac: (algorithm: string, key: unknown) => new Hash(hmac.create(hashOf(algorithm), toBytes(key))),
    hash: (algorithm: string, data: unknown, encoding: BufferEncoding = "hex") =>
      Buffer.from(hashOf(algorithm)(toBytes(data))).toString(encoding),
    getHashes: () => Object.keys(HASHES),
    randomBytes,
    randomFillSync: (buffer: Uint8Array) => {
      web.getRandomValues(buffer);
      return buffer;
    },
    randomInt: (min: number, max?: number) => {
      if (max === undefined) [min, max] = [0, min];
      const range = max - min;
      const value = new Uint32Array(1);
      web.getRandomValues(value);
      return min + (value[0]! % range);
    },
    randomUUID: () => web.randomUUID(),
    getRandomValues: (array: Uint8Array) => web.getRandomValues(array),
    timingSafeEqual: (a: Uint8Array, b: Uint8Array) => {
      if (a.byteLength !== b.byteLength)
        throw nodeError("ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length", RangeError);
      let diff = 0;
      for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!;
      return diff === 0;
    },
    webcrypto: web,
    subtle: web.subtle,
  };
}

function makeOs(): Record<string, unknown> {
  const home = () => nodeProcess.env.HOME ?? "/workspace";
  return {
    EOL: "\n",
    platform: () => "linux",
    type: () => "Linux",
    arch: () => "x64",
    release: () => "6.0.0-workbench",
    version: () => "#1 SMP workbench",
    machine: () => "x86_64",
    hostname: () => "workbench",
    homedir: home,
    tmpdir: () => nodeProcess.env.TMPDIR ?? "/tmp",
    endianness: () => "LE",
    uptime: () => Math.floor(performance.now() / 1000),
    loadavg: () => [0, 0, 0],
    totalmem: () => 4 * 1024 ** 3,
    freemem: () => 2 * 1024 ** 3,
    availableParallelism: () => 1,
    cpus: () => [{ model: "workbench", speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
    networkInterfaces: () => ({}),
    userInfo: () => ({ uid: 1000, gid: 1000, username: nodeProcess.env.USER ?? "user", homedir: home(), shell: "/bin/bash" }),
    constants: { signals: { SIGINT: 2, SIGTERM: 15, SIGKILL: 9 }, errno: {} },
    devNull: "/dev/null",
  };
}

function makeUrl(): Record<string, unknown> {
  const fileURLToPath = (url: string | URL) => {
    const parsed = typeof url === "string" ? new URL(url) : url;
    if (parsed.protocol !== "file:") throw nodeError("ERR_INVALID_URL_SCHEME", "The URL must be of scheme file", TypeError);
    return decodeURIComponent(parsed.pathname);
  };
  const pathToFileURL = (file: string) => {
    const absolute = path.resolve(file);
    return new URL(
      `file://${encodeURI(absolute).replace(/[?#]/g, encodeURIComponent)}${file.endsWith("/") && !absolute.endsWith("/") ? "/" : ""}`,
    );
  };
  const parse = (input: string, parseQuery = false) => {
    const hasProtocol = /^[a-z][a-z0-9+.-]*:/i.test(input);
    const url = new URL(input, hasProtocol ? undefined : "http://relative.invalid");
    const search = url.search || null;
    return {
      protocol: hasProtocol ? url.protocol : null,
      slashes: hasProtocol ? /^[a-z][a-z0-9+.-]*:\/\//i.test(input) : null,
      auth: url.username ? `${url.username}${url.password ? `:${url.password}` : ""}` : null,
      host: hasProtocol ? url.host || null : null,
      port: url.port || null,
      hostname: hasProtocol ? url.hostname || null : null,
      hash: url.hash || null,
      search,
      query: parseQuery ? querystring.parse(url.search.slice(1)) : search ? search.slice(1) : null,
      pathname: url.pathname,
      path: `${url.pathname}${url.search}`,
      href: hasProtocol ? url.href : input,
    };
  };
  const format = (value: URL | Record<string, string | null>) => {
    if (value instanceof URL) return value.href;
    const protocol = value.protocol ?? "";
    const slashes = value.slashes || /^(https?|ftp|file|wss?):?$/.test(protocol) ? "//" : "";
    const host = value.host ?? (value.hostname ? `${value.hostname}${value.port ? `:${value.port}` : ""}` : "");
    const search =
      value.search ?? (value.query ? `?${typeof value.query === "string" ? value.query : querystring.stringify(value.query)}` : "");
    return `${protocol}${protocol && !protocol.endsWith(":") ? ":" : ""}${host || protocol === "file:" ? slashes : ""}${host}${value.pathname ?? ""}${search}${value.hash ?? ""}`;
  };
  return {
    URL,
    URLSearchParams,
    fileURLToPath,
    pathToFileURL,
    parse,
    format,
    resolve: (from: string, to: string) => new URL(to, new URL(from, "resolve://")).href.replace(/^resolve:\/\//, ""),
    domainToASCII: (domain: string) => new URL(`http://${domain}`).hostname,
  };
}

function makeTimers(loop: EventLoop): Record<string, unknown> {
  const byId = new Map<number, Timeout>();
  const setTimeout = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (typeof callback !== "function")
      throw nodeError("ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function. Received ${typeof callback}`, TypeError);
    const timer = loop.setTimeout(callback, delay, args, false);
    byId.set(Number(timer), timer);
    return timer;
  };
  const setInterval = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (typeof callback !== "function")
      throw nodeError("ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function. Received ${typeof callback}`, TypeError);
    const timer = loop.setTimeout(callback, delay, args, true);
    byId.set(Number(timer), timer);
    return timer;
  };
  const clear = (timer: unknown) => {
    const found = typeof timer === "number" || typeof timer === "string" ? byId.get(Number(timer)) : (timer as Timeout | undefined);
    if (found && typeof found.clear === "function") {
      found.clear();
      byId.delete(Number(found));
    }
  };
  const setImmediate = (callback: (...args: unknown[]) => void, ...args: unknown[]) => loop.setImmediate(callback, args);
  const clearImmediate = (immediate: Immediate | undefined) => {
    if (immediate) loop.clearImmediate(immediate);
  };
  const promises = {
    setTimeout: (delay?: number, value?: unknown, options?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(value), delay);
        options?.signal?.addEventListener("abort", () => {
          clear(timer);
          reject(Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" }));
        });
      }),
    setImmediate: (value?: unknown) => new Promise((resolve) => setImmediate(() => resolve(value))),
    setInterval: async function* (delay?: number, value?: unknown) {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        yield value;
      }
    },
    scheduler: {
      wait: (delay: number) => new Promise((resolve) => setTimeout(resolve, delay)),
      yield: () => new Promise((resolve) => setImmediate(resolve)),
    },
  };
  return { setTimeout, setInterval, setImmediate, clearTimeout: clear, clearInterval: clear, clearImmediate, promises };
}

function makeFs(deps: BuiltinDeps): Record<string, unknown> {
  const fs = deps.files.fs as unknown as Record<string, (...args: unknown[]) => unknown> & { promises: Record<string, unknown> };
  const isStdin = (file: unknown) => file === 0 || file === "/dev/stdin";
  const stdoutFd = (fd: unknown): "stdout" | "stderr" | undefined => (fd === 1 ? "stdout" : fd === 2 ? "stderr" : undefined);
  const wrapped: Record<string, unknown> = { ...fs };
  wrapped.readFileSync = (file: unknown, options?: unknown) => {
    if (!isStdin(file)) return fs.readFileSync!(file, options);
    const bytes = Buffer.from(stdinData());
    const encoding = typeof options === "string" ? options : (options as { encoding?: BufferEncoding } | undefined)?.encoding;
    return encoding ? bytes.toString(encoding as BufferEncoding) : bytes;
  };
  wrapped.writeSync = (fd: unknown, data: unknown, ...rest: unknown[]) => {
    const stream = stdoutFd(fd);
    if (!stream) return fs.writeSync!(fd, data, ...rest);
    const bytes =
      typeof data === "string" ? Buffer.from(data, (typeof rest[1] === "string" ? rest[1] : "utf8") as BufferEncoding) : toBytes(data);
    deps.write(stream, bytes);
    return bytes.byteLength;
  };
  // Callback calls finish on a later turn and keep the program alive until then.
  for (const name of Object.keys(fs)) {
    if (
      name.endsWith("Sync") ||
      !/^[a-z]/.test(name) ||
      typeof fs[name] !== "function" ||
      ["createReadStream", "createWriteStream", "watch", "watchFile", "unwatchFile", "exists"].includes(name)
    )
      continue;
    const original = fs[name]!;
    wrapped[name] = (...args: unknown[]) => {
      const last = args.length - 1;
      if (typeof args[last] !== "function") return original(...args);
      const callback = args[last] as (...results: unknown[]) => void;
      const release = deps.loop.hold();
      args[last] = (...results: unknown[]) => {
        release();
        deps.loop.callback(() => callback(...results));
      };
      if (name === "readFile" && isStdin(args[0])) {
        let result: unknown;
        try {
          result = (wrapped.readFileSync as (...a: unknown[]) => unknown)(...args.slice(0, last));
        } catch (error) {
          return queueMicrotask(() => (args[last] as (...r: unknown[]) => void)(error));
        }
        return queueMicrotask(() => (args[last] as (...r: unknown[]) => void)(null, result));
      }
      return original(...args);
    };
  }
  wrapped.promises = fs.promises;
  return wrapped;
}

function makeReadline(): Record<string, unknown> {
  const createInterface = (options: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } | NodeJS.ReadableStream) => {
    const input = (options as { input?: NodeJS.ReadableStream }).input ?? (options as NodeJS.ReadableStream);
    const output = (options as { output?: NodeJS.WritableStream }).output;
    const emitter = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const lines: string[] = [];
    const waiting: Array<(result: IteratorResult<string>) => void> = [];
    let buffered = "";
    let closed = false;
    const decoder = new StringDecoder("utf8");
    const push = (line: string) => {
      if (waiting.length > 0) waiting.shift()!({ value: line, done: false });
      else lines.push(line);
      emitter.emit("line", line);
    };
    const close = () => {
      if (closed) return;
      closed = true;
      for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
      emitter.emit("close");
    };
    input.on("data", (chunk: Buffer | string) => {
      buffered += typeof chunk === "string" ? chunk : decoder.write(chunk);
      const parts = buffered.split(/\r?\n/);
      buffered = parts.pop() ?? "";
      for (const line of parts) push(line);
    });
    input.on("end", () => {
      buffered += decoder.end();
      if (buffered !== "") push(buffered);
      buffered = "";
      close();
    });
    emitter.close = close;
    emitter.pause = () => emitter;
    emitter.resume = () => emitter;
    emitter.setPrompt = () => {};
    emitter.prompt = () => {};
    emitter.write = (text: string) => output?.write(text);
    emitter.question = (query: string, callback: (answer: string) => void) => {
      output?.write(query);
      emitter.once("line", callback);
    };
    (emitter as unknown as Record<symbol, unknown>)[Symbol.asyncIterator] = () => ({
      next: () =>
        lines.length > 0
          ? Promise.resolve({ value: lines.shift()!, done: false })
          : closed
            ? Promise.resolve({ value: undefined, done: true })
            : new Promise<IteratorResult<string>>((resolve) => waiting.push(resolve)),
      return: () => {
        close();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    });
    return emitter;
  };
  return {
    createInterface,
    Interface: EventEmitter,
    clearLine: () => true,
    cursorTo: () => true,
    moveCursor: () => true,
    emitKeypressEvents: () => {},
  };
}

function makeZlib(): Record<string, unknown> {
  const sync =
    (run: (data: Uint8Array) => Uint8Array) =>
    (data: unknown): Buffer =>
      Buffer.from(run(toBytes(data)));
  const later =
    (run: (data: Uint8Array) => Uint8Array) =>
    (data: unknown, ...rest: unknown[]) => {
      const callback = rest[rest.length - 1] as (error: Error | null, result?: Buffer) => void;
      try {
        const result = Buffer.from(run(toBytes(data)));
        queueMicrotask(() => callback(null, result));
      } catch (error) {
        queueMicrotask(() => callback(error as Error));
      }
    };
  const kinds = {
    gzip: gzipSync,
    gunzip: gunzipSync,
    deflate: zlibSync,
    inflate: unzlibSync,
    deflateRaw,
    inflateRaw,
    unzip: (data: Uint8Array) => (data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : unzlibSync(data)),
  };
  const zlib: Record<string, unknown> = { constants: {} };
  for (const [name, run] of Object.entries(kinds)) {
    zlib[`${name}Sync`] = sync(run as (data: Uint8Array) => Uint8Array);
    zlib[name] = later(run as (data: Uint8Array) => Uint8Array);
  }
  void inflateSync;
  void deflateSync;
  return zlib;
}

function makeUtil(): Record<string, unknown> {
  const extra: Record<string, unknown> = {
    format,
    formatWithOptions,
    inspect,
    TextEncoder,
    TextDecoder,
    isDeepStrictEqual: (a: unknown, b: unknown) => {
      try {
        assert.deepStrictEqual(a, b);
        return true;
      } catch {
        return false;
      }
    },
    stripVTControlCharacters: (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ""),
    styleText: (_format: unknown, text: string) => text,
    toUSVString: (text: string) => (text as string & { toWellFormed(): string }).toWellFormed(),
    parseArgs: () => {
      throw nodeError("ERR_WORKBENCH_UNSUPPORTED", "util.parseArgs is not available in the workbench's embedded node yet");
    },
    aborted: (signal: AbortSignal) => new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true })),
  };
  return { ...util, ...extra, default: undefined };
}

function makeModule(deps: BuiltinDeps, names: readonly string[]): Record<string, unknown> {
  const builtinModules = names.filter((name) => name !== "test");
  const isBuiltin = (name: string) => (name.startsWith("node:") ? names.includes(name.slice(5)) : name !== "test" && names.includes(name));
  return {
    builtinModules,
    isBuiltin,
    createRequire: (from: string | URL) => deps.modules().createRequire(String(from)),
    register: () => {},
    syncBuiltinESMExports: () => {},
    findSourceMap: () => undefined,
    enableCompileCache: () => ({ status: 3 }),
    Module: class Module {},
  };
}

export function createBuiltins(deps: BuiltinDeps): { get(name: string): unknown; has(name: string): boolean; names: readonly string[] } {
  const made = new Map<string, unknown>();
  const factories: Record<string, () => unknown> = {
    assert: () => assert,
    "assert/strict": () => assert.strict,
    buffer: () => ({ Buffer, constants: { MAX_LENGTH: 2 ** 32, MAX_STRING_LENGTH: 2 ** 29 }, kMaxLength: 2 ** 32, Blob, atob, btoa }),
    child_process: deps.childProcess,
    crypto: makeCrypto,
    events: () => Object.assign(EventEmitter, { EventEmitter, once, on, default: EventEmitter }),
    fs: () => makeFs(deps),
    "fs/promises": () => (get("fs") as { promises: unknown }).promises,
    module: () => makeModule(deps, names),
    os: makeOs,
    path: () => Object.assign(path, { posix: path, default: path }),
    "path/posix": () => path,
    perf_hooks: () => ({ performance, PerformanceObserver: class {} }),
    process: () => nodeProcess,
    querystring: () => querystring,
    readline: makeReadline,
    "readline/promises": () => {
      const readline = get("readline") as {
        createInterface(options: unknown): EventEmitter & { question(q: string, cb: (a: string) => void): void };
      };
      return {
        createInterface: (options: unknown) => {
          const rl = readline.createInterface(options);
          const question = rl.question.bind(rl);
          return Object.assign(rl, { question: (query: string) => new Promise((resolve) => question(query, resolve)) });
        },
      };
    },
    stream: () => {
      // readable-stream's Stream already has some of these (`promises` as a getter): add only the missing ones.
      const Stream = stream.Stream as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(stream)) if (!(key in Stream)) Stream[key] = value;
      return Stream;
    },
    "stream/promises": () => stream.promises,
    "stream/web": () => ({ ReadableStream, WritableStream, TransformStream }),
    string_decoder: () => ({ StringDecoder }),
    test: deps.test,
    timers: () => makeTimers(deps.loop),
    "timers/promises": () => (get("timers") as { promises: unknown }).promises,
    url: makeUrl,
    util: makeUtil,
    "util/types": () => util.types,
    zlib: makeZlib,
  };
  for (const name of Object.keys(UNSUPPORTED)) {
    factories[name] = () => {
      throw unsupportedModule(name, UNSUPPORTED[name]!);
    };
  }
  const names = Object.keys(factories).sort();
  function get(name: string): unknown {
    if (made.has(name)) return made.get(name);
    const factory = factories[name];
    if (!factory) throw nodeError("ERR_UNKNOWN_BUILTIN_MODULE", `No such built-in module: node:${name}`);
    const value = factory();
    made.set(name, value);
    return value;
  }
  return { get, has: (name) => Object.hasOwn(factories, name), names };
}
