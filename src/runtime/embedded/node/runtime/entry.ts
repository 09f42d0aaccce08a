/**
 * The node runtime's entry, bundled into one script that a sandbox evaluates: it waits for the program,
 * sets up its files, process, globals and modules, runs it, and reports its exit with what it changed.
 * One program per sandbox: the sandbox is thrown away afterwards.
 */
import { ExitSignal, NODE_VERSION, nodeProcess, provideStreams, setUpProcess } from "./process.js";
import { Readable, Writable } from "readable-stream";
import { Buffer } from "buffer";
import { inspect } from "./format.js";
import assert from "assert";
import { createBuiltins } from "./builtins.js";
import { createChildProcess, type ChildHost, type ChildResult } from "./child-process.js";
import { newReplyBuffer, waitForSyncReply } from "../sync-reply.js";
import { createConsole } from "./console.js";
import { nodeError } from "./errors.js";
import { createProgramFiles, type ProgramFiles } from "./files.js";
import type { RuntimeHost } from "./host.js";
import { SANDBOX_MAIN } from "../../sandbox/contract.js";
import { EventLoop } from "./loop.js";
import { ModuleSystem } from "./modules.js";
import { Output } from "./output.js";
import { installStackFormat } from "./stack.js";
import { join, resolve } from "./path.js";
import { createTestRunner, withoutRuntimeFrames } from "./test-runner.js";
import type { NodeProgram } from "../protocol.js";

provideStreams({ Readable: Readable as never, Writable: Writable as never });

const hostSetTimeout = globalThis.setTimeout.bind(globalThis);
const hostClearTimeout = globalThis.clearTimeout.bind(globalThis);
/**
 * A blocking child_process call waits on memory shared with the shell: only where the sandbox is a worker
 * thread in node (the CLI). A page's sandbox has no SharedArrayBuffer without cross-origin isolation, and
 * even with it the page's shell worker is in another agent cluster, so shared memory would never arrive.
 */
const canBlock = !("crossOriginIsolated" in globalThis) && typeof SharedArrayBuffer === "function" && typeof Atomics.wait === "function";
/** Indirect eval: code runs in the global scope, and `sourceURL` names its file in stack lines. */
const globalEval = eval;

function compile(code: string, filename: string): unknown {
  return globalEval(`${code}\n//# sourceURL=${filename}`);
}

/** How Node prints an exception that ended the program. */
function describeUncaught(error: unknown): string {
  if (error instanceof Error) {
    const stack = withoutRuntimeFrames(error.stack ?? `${error.name}: ${error.message}`);
    const extra = Object.keys(error).filter((key) => key !== "stack" && key !== "message");
    const props =
      extra.length > 0
        ? ` {\n${extra.map((key) => `  ${key}: ${inspect((error as unknown as Record<string, unknown>)[key])}`).join(",\n")}\n}`
        : "";
    return `${stack}${props}`;
  }
  return `Uncaught ${inspect(error)}`;
}

function run(host: RuntimeHost, program: NodeProgram, preloaded: ProgramFiles | undefined): void {
  installStackFormat();
  if (!preloaded && program.files.kind === "delta")
    throw new Error("the sandbox was sent the files' changes but holds no files to apply them to");
  const files = preloaded ? preloaded.update(program.files) : createProgramFiles(program.files.entries, program.roots);
  files.context.pwd = files.context.fs.existsSync(program.cwd) ? program.cwd : program.roots[0]!;
  const output = new Output(
    (message, transfer) => host.post(message, transfer),
    (flush) => hostSetTimeout(flush, 0),
  );
  const write = (stream: "stdout" | "stderr", chunk: string | Uint8Array) => output.write(stream, chunk);
  let exited = false;

  function end(code: number): void {
    if (exited) return;
    exited = true;
    try {
      nodeProcess.emit("exit", code);
    } catch (error) {
      if (!(error instanceof ExitSignal)) write("stderr", `${describeUncaught(error)}\n`);
    }
    const final = nodeProcess.exitCode ?? code;
    loop.stopped = true;
    output.flush();
    output.closed = true;
    host.post({ kind: "exit", code: final & 0xff, changes: files.changes() });
  }

  function uncaught(error: unknown, origin: "uncaughtException" | "unhandledRejection"): void {
    if (exited || error instanceof ExitSignal) return;
    const event =
      origin === "unhandledRejection" && nodeProcess.listenerCount("unhandledRejection") > 0 ? "unhandledRejection" : "uncaughtException";
    if (nodeProcess.listenerCount(event) > 0) {
      try {
        nodeProcess.emit(event, error, event === "unhandledRejection" ? undefined : origin);
        return;
      } catch (again) {
        if (again instanceof ExitSignal) return;
        error = again;
      }
    }
    if (origin === "unhandledRejection" && !(error instanceof Error)) {
      write(
        "stderr",
        `node:internal/process/promises:394\n    triggerUncaughtException(err, true /* fromPromise */);\n    ^\n\n[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${inspect(error)}".] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n\nNode.js ${NODE_VERSION}\n`,
      );
    } else write("stderr", `${describeUncaught(error)}\n\nNode.js ${NODE_VERSION}\n`);
    end(1);
  }

  const guard = (callback: () => void) => {
    try {
      callback();
    } catch (error) {
      uncaught(error, "uncaughtException");
    }
  };

  const loop = new EventLoop(guard, () => {
    if (exited) return;
    guard(() => nodeProcess.emit("beforeExit", nodeProcess.exitCode ?? 0));
  });
  loop.onSettled = () => end(nodeProcess.exitCode ?? 0);

  host.onUncaughtException((error) => uncaught(error, "uncaughtException"));
  host.onUnhandledRejection((reason) => uncaught(reason, "unhandledRejection"));

  let modules: ModuleSystem;
  const testRunner = createTestRunner({
    write: (text) => write("stdout", text),
    now: () => performance.now(),
    cwd: () => files.context.pwd,
  });
  const builtins = createBuiltins({
    files: files.context,
    loop,
    modules: () => modules,
    write,
    test: () => testRunner.module,
    childProcess: () => createChildProcess(childHost(host, files, loop, write)),
  });
  modules = new ModuleSystem({
    fs: files.context.fs,
    builtin: (name) => builtins.get(name),
    isBuiltin: (name) => builtins.has(name.startsWith("node:") ? name.slice(5) : name),
    compile,
  });
  modules.cwd = () => files.context.pwd;

  setUpProcess(
    { argv: program.argv, execArgv: program.execArgv, env: program.env, stdin: program.stdin },
    {
      write,
      exit: (code) => {
        end(code);
        throw new ExitSignal(code);
      },
      nextTick: (callback, args) => loop.nextTick(callback, args),
      cwd: () => files.context.pwd,
      chdir: (directory) => {
        const target = resolve(files.context.pwd, String(directory));
        let isDirectory = false;
        try {
          isDirectory = files.context.fs.statSync(target).isDirectory();
        } catch {
          isDirectory = false;
        }
        if (!isDirectory) {
          const error = nodeError("ENOENT", `ENOENT: no such file or directory, chdir ${files.context.pwd} -> '${directory}'`);
          Object.assign(error, { errno: -2, syscall: "chdir", path: files.context.pwd, dest: String(directory) });
          throw error;
        }
        files.context.pwd = target;
      },
      builtin: (name) => builtins.get(name),
    },
  );

  installGlobals(builtins.get("timers") as Record<string, unknown>, write);

  const main = async () => {
    const mode = program.mode;
    if (mode.kind === "file") {
      const path = resolve(files.context.pwd, mode.path);
      let filename: string;
      try {
        filename = modules.resolve(path, undefined, "require");
      } catch {
        const error = nodeError("MODULE_NOT_FOUND", `Cannot find module '${path}'`);
        Object.assign(error, { requireStack: [] });
        throw error;
      }
      await modules.runMain(filename);
    } else if (mode.kind === "eval" || mode.kind === "stdin") {
      const name = mode.kind === "eval" ? "[eval]" : "[stdin]";
      const result = modules.runSource(mode.code, name, mode.module);
      if (mode.kind === "eval" && mode.print) {
        const value = await result;
        write("stdout", `${typeof value === "string" ? value : inspect(value)}\n`);
      } else await result;
    } else {
      await runTests(mode.files);
    }
  };

  async function runTests(paths: readonly string[]): Promise<void> {
    const startedAt = performance.now();
    for (const path of paths) {
      const filename = resolve(files.context.pwd, path);
      const started = performance.now();
      for (const key of Object.keys(modules.cache)) delete modules.cache[key];
      let error: unknown;
      try {
        await modules.runMain(filename);
        await new Promise((settle) => hostSetTimeout(settle, 0));
      } catch (caught) {
        error = caught;
      }
      const declared = testRunner.declared();
      if (declared) await testRunner.runDeclared();
      if (error !== undefined || !declared) testRunner.reportFile(path, performance.now() - started, error);
    }
    const { failed } = testRunner.summary(startedAt);
    if (failed > 0) nodeProcess.exitCode = 1;
  }

  // A program that declares node:test tests without --test runs them once it has loaded.
  const runDeclaredTests = async () => {
    if (program.mode.kind === "test" || !testRunner.declared()) return;
    const startedAt = performance.now();
    await testRunner.runDeclared();
    const { failed } = testRunner.summary(startedAt);
    if (failed > 0 && nodeProcess.exitCode === undefined) nodeProcess.exitCode = 1;
  };

  const hold = loop.hold();
  let started: Promise<void>;
  try {
    started = main();
  } catch (error) {
    started = Promise.reject(error);
  }
  loop.drainTicks();
  started.then(runDeclaredTests).then(
    () => hold(),
    (error: unknown) => {
      hold();
      uncaught(error, "uncaughtException");
    },
  );
  loop.start();
}

/** child_process's way to the shell: commands go out with the program's changes, and come back with the child's. */
function childHost(
  host: RuntimeHost,
  files: ReturnType<typeof createProgramFiles>,
  loop: EventLoop,
  write: (stream: "stdout" | "stderr", chunk: Uint8Array) => void,
): ChildHost {
  let nextId = 1;
  const waiting = new Map<number, (result: ChildResult) => void>();
  host.listen((message) => {
    if (message.kind !== "exec-result") return;
    const settle = waiting.get(message.id);
    if (!settle) return;
    waiting.delete(message.id);
    files.absorb(message.changes);
    settle(
      message.notFound
        ? { kind: "not-found" }
        : { kind: "exited", exitCode: message.exitCode, stdout: message.stdout, stderr: message.stderr },
    );
  });
  return {
    start(request) {
      const id = nextId++;
      const done = new Promise<ChildResult>((settle) => waiting.set(id, settle));
      host.post({ kind: "exec", id, ...request, changes: files.settle() });
      return { id, done };
    },
    kill: (id) => host.post({ kind: "exec-kill", id }),
    cwd: () => files.context.pwd,
    env: () => ({ ...nodeProcess.env }),
    hold: () => loop.hold(),
    callback: (run) => loop.callback(run),
    later(run, ms) {
      const timer = hostSetTimeout(run, ms);
      return () => hostClearTimeout(timer);
    },
    write,
    execPath: nodeProcess.execPath,
    runSync(request) {
      if (!canBlock) return undefined;
      const reply = newReplyBuffer();
      host.post({ kind: "exec", id: nextId++, ...request, changes: files.settle(), reply });
      const result = waitForSyncReply(reply);
      if (!result)
        throw nodeError(
          "ENOBUFS",
          `spawnSync ${request.file ?? "/bin/sh"} ENOBUFS: the command's output and changed files are over 512 MB`,
        );
      files.absorb(result.changes);
      return result;
    },
  };
}

function installGlobals(timers: Record<string, unknown>, write: (stream: "stdout" | "stderr", text: string) => void): void {
  const scope = globalThis as Record<string, unknown>;
  // What a browser worker has and Node does not, or that would reach past the workspace.
  for (const name of [
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "EventSource",
    "importScripts",
    "indexedDB",
    "caches",
    "BroadcastChannel",
    "Worker",
    "SharedWorker",
    "close",
    "postMessage",
    "onmessage",
    "name",
    "location",
    "navigator",
  ]) {
    try {
      delete scope[name];
      if (name in scope) scope[name] = undefined;
    } catch {
      // A property the engine will not let go of is left; the sandbox keeps it from reaching anything.
    }
  }
  Object.assign(scope, {
    global: globalThis,
    Buffer,
    console: createConsole(write),
    setTimeout: timers.setTimeout,
    setInterval: timers.setInterval,
    setImmediate: timers.setImmediate,
    clearTimeout: timers.clearTimeout,
    clearInterval: timers.clearInterval,
    clearImmediate: timers.clearImmediate,
    __workbenchAssert: assert,
  });
  Object.defineProperty(scope, "__workbenchAssert", { enumerable: false });
}

function startNodeRuntime(host: RuntimeHost): void {
  let started = false;
  let preloaded: ProgramFiles | undefined;
  host.listen((message) => {
    if (message.kind === "preload" && !started && !preloaded) {
      // Built now, while nothing runs: the run that follows brings only what changed since.
      try {
        preloaded = createProgramFiles(message.snapshot, message.roots);
      } catch {
        // The run then comes with every file (the shell is told nothing here): see run's "full" case.
        preloaded = undefined;
      }
      return;
    }
    if (message.kind !== "run" || started) return;
    started = true;
    try {
      run(host, message.program, preloaded);
    } catch (error) {
      if (error instanceof ExitSignal) return;
      const text = new TextEncoder().encode(
        `node: the runtime failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      host.post({ kind: "output", stream: "stderr", data: text });
      host.post({ kind: "exit", code: 1, changes: { directories: [], files: [], removed: [] } });
    }
  });
}

(globalThis as Record<string, unknown>)[SANDBOX_MAIN] = startNodeRuntime;
void join;
