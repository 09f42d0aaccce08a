import { InMemory, resolveMountConfig, type FileSystem } from "@zenfs/core";
import { ChangeListeners, OutputCollector, StopControl } from "../output.js";
import type { Capabilities, ExecOptions, ExecResult, Runtime } from "../types.js";
import type { Endpoint } from "./endpoint.js";
import { serveFs } from "./fs-rpc.js";
import { createWorkerSearchService } from "./search-client.js";
import { ShellPool, type ShellWorkerFactory } from "./shell-pool.js";
import type { ShellLimits } from "./shell-protocol.js";
import type { WorkspaceFs } from "./workspace-fs.js";
import { createZenFsHost, type BulkFile, type BulkOptions } from "./zenfs-host.js";
import { PythonBridge } from "./python/bridge.js";
import type { PythonSandboxFactory } from "./python/sandbox.js";
import { FETCH_PROXY_VARIABLE } from "./npm/page-fetch.js";
import { SnapshotCache } from "./snapshot-cache.js";
import { watchWrites } from "./node/zenfs-writes.js";

export interface EmbeddedRuntimeOptions {
  /** How shell workers are started: Web Workers in the browser, worker_threads in node. */
  workerFactory: ShellWorkerFactory;
  /** The ZenFS file system that holds the files (IndexedDB in the browser); in memory when absent. */
  backing?: FileSystem;
  root?: string;
  /** Refuse every change (a second tab on the same workspace). */
  readOnly?: boolean;
  limits?: ShellLimits;
  env?: Record<string, string>;
  /**
   * Search workers a grep is split among (each reads and caches only its share of the files). Default:
   * one per core, at most 4.
   */
  searchWorkers?: number;
  /** Where `python3` runs (python/sandbox.ts); without one, python3 says it is not available here. */
  python?: PythonSandboxFactory;
}

function defaultSearchWorkers(): number {
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
  return Math.min(4, Math.max(1, cores));
}

const capabilities: Capabilities = {
  // Not live, but per command: top-level ones and those inside top-level loops and conditionals (statement-stream.ts).
  streaming: false,
  realProcesses: false,
  symlinks: true,
  modes: false,
  separateStderr: true,
  shellState: true,
};

/**
 * What runs in a sandbox here (Runtime.sandboxedCommands): node and what runs through it (npm's scripts
 * and bins) in every shell worker, python3 and its kin when the runtime has a sandbox for them.
 */
function sandboxedCommands(python: boolean): readonly string[] {
  return ["node", "npm", "npx", ...(python ? ["python3", "python", "pip", "pip3"] : [])];
}

export interface EmbeddedRuntime extends Runtime {
  readonly kind: "embedded";
  readonly fs: WorkspaceFs;
  readonly readOnly: boolean;
  /** Starts a shell worker now, so the first command does not wait for one. */
  warm(): Promise<void>;
  /** Many files written in one step (see HostFs.writeMany); src/workspace/bulk-load.ts is the way to call it. */
  writeMany(files: readonly BulkFile[], options?: BulkOptions): Promise<void>;
  /** The shell's execution limits for commands started from now on (shell-limits.ts has the defaults). */
  setLimits(limits: ShellLimits): void;
  /**
   * Where the shell's npm finds the page's fetch proxy (a URL template, npm/page-fetch.ts), asked as each
   * command starts so a changed setting counts from the next one: it is handed in as
   * $WORKBENCH_FETCH_PROXY, replacing any value a terminal carried over, and removed when there is none.
   */
  setFetchProxy(source: () => string | undefined): void;
}

export async function createEmbeddedRuntime(options: EmbeddedRuntimeOptions): Promise<EmbeddedRuntime> {
  const root = options.root ?? "/workspace";
  const changes = new ChangeListeners();
  const backing = options.backing ?? (await resolveMountConfig({ backend: InMemory }));
  // A read does not write the file's access time back (ZenFS's default: a store write per read), so a
  // write the snapshot cache hears of below is a real one.
  backing.attributes.set("no_atime", true);
  const fs = createZenFsHost(backing, {
    readOnly: options.readOnly,
    onChange: (paths) => {
      snapshots.markChanged(paths);
      search.invalidate(paths);
      python?.markChanged(paths);
      changes.emit(paths);
    },
  });
  // Every change to the files passes through the host above (the shell reaches them through it too),
  // which is what lets the search worker keep what it has read.
  const search = createWorkerSearchService(
    () => options.workerFactory("search"),
    (endpoint) => serveFs(fs, endpoint),
    { workers: options.searchWorkers ?? defaultSearchWorkers() },
  );
  // What `node` programs start with. A read-only tab cannot hear the other tab's writes, and ZenFS's copy
  // in memory (the quick reads) does not have them: it checks each time, asking the store.
  const snapshots = options.readOnly ? new SnapshotCache(fs, { alwaysRecheck: true }) : new SnapshotCache(fs.quickReads);
  // Writes that reach the files without the host (ZenFS opened on the same store directly) count too.
  const unwatch = watchWrites(backing, (path) => snapshots.markChanged([path]));
  const python = options.python ? new PythonBridge({ fs, root, factory: options.python }) : undefined;
  if (!options.readOnly) {
    await fs.mkdir(root, { recursive: true });
    await fs.mkdir("/tmp", { recursive: true });
  }
  const env = { HOME: root, USER: "user", SHELL: "/bin/bash", TERM: "xterm-256color", TMPDIR: "/tmp", ...options.env };
  const serve = (endpoint: Endpoint) => {
    const unserveFs = serveFs(fs, endpoint, snapshots);
    const unservePython = python?.serve(endpoint) ?? (() => {});
    return () => {
      unserveFs();
      unservePython();
    };
  };
  const pool = new ShellPool(options.workerFactory, serve, {
    root,
    env,
    limits: options.limits ?? {},
    python: python !== undefined,
  });

  let fetchProxy: (() => string | undefined) | undefined;
  const envFor = (given: Record<string, string>): Record<string, string> => {
    if (!fetchProxy) return given;
    const { [FETCH_PROXY_VARIABLE]: _carried, ...rest } = given;
    const template = fetchProxy();
    return template ? { ...rest, [FETCH_PROXY_VARIABLE]: template } : rest;
  };

  async function exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const collector = new OutputCollector(opts);
    const stop = new StopControl(opts);
    const cwd = opts.cwd ?? root;
    try {
      if (stop.reason) return { exitCode: null, ...collector.result(), ...stop.flags() };
      const outcome = await pool.run(
        { command, cwd, env: envFor(opts.env ?? {}) },
        (kill) => stop.onStop(kill),
        (stream, text) => collector.push(stream, text),
        opts.fetchGate,
      );
      if (outcome.kind === "killed") return { exitCode: null, ...collector.result(), ...stop.flags() };
      collector.push("stdout", outcome.stdout);
      // Our own abort is reported by the flags; just-bash's note of it would only repeat that.
      collector.push("stderr", stop.reason ? outcome.stderr.replace(/bash: execution aborted\n?$/, "") : outcome.stderr);
      return {
        exitCode: stop.reason ? null : outcome.exitCode,
        ...collector.result(),
        ...stop.flags(),
        ...(opts.captureState ? { state: outcome.state } : {}),
      };
    } finally {
      stop.dispose();
    }
  }

  return {
    kind: "embedded",
    root,
    fs,
    capabilities,
    sandboxedCommands: sandboxedCommands(python !== undefined),
    readOnly: options.readOnly ?? false,
    exec,
    search,
    warm: () => pool.warm(),
    writeMany: (files, bulk) => fs.writeMany(files, bulk),
    setLimits: (limits) => pool.setLimits({ ...limits }),
    setFetchProxy: (source) => {
      fetchProxy = source;
    },
    onChange: (listener) => changes.add(listener),
    dispose: async () => {
      search.dispose();
      pool.dispose();
      unwatch();
      python?.dispose();
    },
  };
}
