import { spawn } from "node:child_process";
import { constants as fsConstants, promises as fsp } from "node:fs";
import { availableParallelism } from "node:os";
import { RuntimeError, isWriteConflict, toRuntimeError } from "../errors.js";
import { ChangeListeners, OutputCollector, StopControl } from "../output.js";
import type { Capabilities, DirEntry, ExecOptions, ExecResult, Runtime, RuntimeFs, ShellState, Stat } from "../types.js";
import { writeFileAtomicNode } from "./atomic-write.js";
import { endGroup, newCallGroup, spawnInGroup } from "./call-cgroup.js";
import { CALL_MARKER, callStarted, endCall, newCallId, type LiveCall } from "./call-sweep.js";
import { createNodeSearchService } from "./parallel-search.js";
import { entryTypeOf, openRegular } from "./regular-file.js";
import { createNodeSearchFs } from "./search-fs.js";
import { SearchPool } from "./search-pool.js";

async function guard<T>(syscall: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isWriteConflict(error)) throw error;
    throw toRuntimeError(error, syscall, path);
  }
}

function toStat(stats: import("node:fs").Stats): Stat {
  return { type: entryTypeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
}

/** O_NONBLOCK too: a FIFO at the path is refused, not waited on. */
async function readNoFollow(path: string): Promise<Uint8Array> {
  const handle = await fsp.open(path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new RuntimeError("EISDIR", "read", path);
    if (!stats.isFile()) throw new RuntimeError("EINVAL", "read", path, "not a regular file (a FIFO, socket or device)");
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

function createNodeFs(changes: ChangeListeners): RuntimeFs {
  const changed = (...paths: string[]) => changes.emit(paths);
  return {
    // Reads open only regular files (regular-file.ts): a FIFO, socket or device is refused, not waited on.
    readFile: (path, options) =>
      guard("open", path, async () => {
        if (options?.noFollow) return readNoFollow(path);
        const handle = await openRegular(path);
        try {
          const data = await handle.readFile();
          // A small buffer may be a slice of node's shared pool: copy that one.
          if (data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength) return new Uint8Array(data);
          return new Uint8Array(data.buffer, 0, data.byteLength);
        } finally {
          await handle.close();
        }
      }),
    read: (path, { position, length }) =>
      guard("read", path, async () => {
        const handle = await openRegular(path);
        try {
          const buffer = new Uint8Array(length);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      }),
    writeFile: (path, data) =>
      guard("open", path, async () => {
        await fsp.writeFile(path, data);
        changed(path);
      }),
    writeFileAtomic: (path, data, options) =>
      guard("open", path, async () => {
        const written = await writeFileAtomicNode(path, data, options);
        changed(...(written === path ? [path] : [path, written]));
      }),
    appendFile: (path, data) =>
      guard("open", path, async () => {
        await fsp.appendFile(path, data);
        changed(path);
      }),
    stat: (path) => guard("stat", path, async () => toStat(await fsp.stat(path))),
    lstat: (path) => guard("lstat", path, async () => toStat(await fsp.lstat(path))),
    readdir: (path) =>
      guard("scandir", path, async () => {
        const entries = await fsp.readdir(path, { withFileTypes: true });
        return entries.map((entry): DirEntry => ({ name: entry.name, type: entryTypeOf(entry) }));
      }),
    mkdir: (path, options) =>
      guard("mkdir", path, async () => {
        await fsp.mkdir(path, { recursive: options?.recursive ?? false });
        changed(path);
      }),
    rm: (path, options) =>
      guard("rm", path, async () => {
        await fsp.rm(path, { recursive: options?.recursive ?? false, force: options?.force ?? false });
        changed(path);
      }),
    rename: (from, to) =>
      guard("rename", from, async () => {
        await fsp.rename(from, to);
        changed(from, to);
      }),
    realpath: (path) => guard("realpath", path, () => fsp.realpath(path)),
    readlink: (path) => guard("readlink", path, () => fsp.readlink(path)),
    symlink: (target, path) =>
      guard("symlink", path, async () => {
        await fsp.symlink(target, path);
        changed(path);
      }),
  };
}

const capabilities: Capabilities = {
  streaming: true,
  realProcesses: true,
  symlinks: true,
  modes: true,
  separateStderr: true,
  shellState: true,
};

/** Reads `pwd` and `env -0` written by the wrapper on fd 3 after the user's command. */
function parseState(raw: string): ShellState | undefined {
  const newline = raw.indexOf("\n");
  if (newline < 0) return undefined;
  const env: Record<string, string> = {};
  for (const entry of raw.slice(newline + 1).split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  // The marker names one call only; the next call gets its own.
  delete env[CALL_MARKER];
  return { cwd: raw.slice(0, newline), env };
}

/**
 * Runs the user's command in bash, then (when asked) reports where it ended on fd 3. The command
 * is passed as $1 and eval'd so its own quoting never interacts with the wrapper.
 */
const stateWrapper = 'eval "$1"; __wb_status=$?; { pwd; env -0; } >&3; exit $__wb_status';

export interface NodeRuntimeOptions {
  root: string;
  /** Environment every command starts from (defaults to this process's). */
  env?: Record<string, string>;
  /**
   * Variables never passed to a command, whatever `env` and the command's own options say (keys the
   * caller holds, which a command's output must not show). Read at every command, so the caller may add
   * names after creating the runtime.
   */
  hiddenEnv?: ReadonlySet<string>;
  /**
   * Threads a search reads and matches files on (started by the first big search, ended by dispose).
   * Default: one per core, up to 4, none on a single core. 0: every search stays in this thread.
   */
  searchThreads?: number;
  /** Files a search handles in this thread before handing the rest to the threads (default 200). */
  searchHandOffAfter?: number;
}

/** Below this many files a search is over before handing off would pay (bench/search.ts measures it). */
const HAND_OFF_AFTER = 200;

function defaultSearchThreads(): number {
  const cores = availableParallelism();
  return cores < 2 ? 0 : Math.min(cores, 4);
}

function commandEnv(env: Record<string, string>, hidden: ReadonlySet<string> | undefined): Record<string, string> {
  if (!hidden || hidden.size === 0) return env;
  for (const name of hidden) delete env[name];
  return env;
}

export function createNodeRuntime(options: NodeRuntimeOptions): Runtime {
  const changes = new ChangeListeners();
  const threads = options.searchThreads ?? defaultSearchThreads();
  const pool = threads > 0 ? new SearchPool({ threads }) : undefined;
  const baseEnv = options.env ?? (process.env as Record<string, string>);

  async function exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const collector = new OutputCollector(opts);
    const stop = new StopControl(opts);
    const capture = opts.captureState === true;
    const args = capture ? ["-c", stateWrapper, "bash", command] : ["-c", command];
    let stateText = "";
    let live: LiveCall | undefined;
    let ending: Promise<void> | undefined;
    const end = () => {
      if (live) {
        ending = endCall(live);
        live = undefined;
      }
      return ending;
    };
    try {
      if (stop.reason) return { exitCode: null, ...collector.result(), ...stop.flags() };
      const callId = newCallId();
      const group = newCallGroup();
      const start = spawnInGroup(group, "bash", args);
      const child = spawn(start.file, start.args, {
        cwd: opts.cwd ?? options.root,
        env: { ...commandEnv({ ...baseEnv, ...opts.env }, options.hiddenEnv), [CALL_MARKER]: callId },
        // Its own session and process group, so one kill reaches most descendants (a `sleep 100 &`
        // included); the sweep (call-sweep.ts) catches those that left.
        detached: true,
        stdio: ["ignore", "pipe", "pipe", capture ? "pipe" : "ignore"],
      });
      if (child.pid !== undefined) {
        live = { pid: child.pid, id: callId, ...(group ? { group } : {}) };
        callStarted(live);
      } else if (group) {
        void endGroup(group);
      }
      // While the caller is busy with earlier output, the pipes are paused: the command then blocks on a
      // full pipe instead of piling its output up in memory here.
      let waiting = 0;
      const deliver = (stream: "stdout" | "stderr", text: string) => {
        const pending = collector.push(stream, text);
        if (!pending) return;
        if (waiting++ === 0) {
          child.stdout!.pause();
          child.stderr!.pause();
        }
        const done = () => {
          if (--waiting > 0) return;
          child.stdout!.resume();
          child.stderr!.resume();
        };
        pending.then(done, done);
      };
      child.stdout!.setEncoding("utf8").on("data", (text: string) => deliver("stdout", text));
      child.stderr!.setEncoding("utf8").on("data", (text: string) => deliver("stderr", text));
      if (capture) (child.stdio[3] as NodeJS.ReadableStream).setEncoding("utf8").on("data", (t: string) => (stateText += t));
      stop.onStop(end);
      const exitCode = await new Promise<number | null>((resolve, reject) => {
        child.once("error", reject);
        // "close" waits for the pipes, so no output is lost. A background child (`cmd &`) would hold
        // them open after bash exits: give it a moment to flush, then end the group, so a call
        // never hangs on, nor leaves behind, a process nobody can reach.
        child.once("exit", (code) => {
          const grace = setTimeout(() => {
            end();
            child.stdout!.destroy();
            child.stderr!.destroy();
            resolve(code);
          }, 250);
          child.once("close", () => {
            clearTimeout(grace);
            resolve(code);
          });
        });
      });
      const state = capture && !stop.reason ? parseState(stateText) : undefined;
      return {
        exitCode: stop.reason ? null : exitCode,
        ...collector.result(),
        ...stop.flags(),
        ...(state ? { state } : {}),
      };
    } finally {
      // Whatever the call started ends with it: background jobs, `nohup`, `setsid`, double forks.
      await end();
      stop.dispose();
      changes.emit("unknown");
    }
  }

  return {
    kind: "node",
    root: options.root,
    fs: createNodeFs(changes),
    capabilities,
    search: createNodeSearchService(createNodeSearchFs(), pool, threads, { handOffAfter: options.searchHandOffAfter ?? HAND_OFF_AFTER }),
    exec,
    onChange: (listener) => changes.add(listener),
    dispose: async () => {
      await pool?.dispose();
    },
  };
}
