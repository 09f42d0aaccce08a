import { dirname } from "pathe";
import type { Endpoint } from "../endpoint.js";
import type { WorkspaceFs } from "../workspace-fs.js";
import { isToBridge, type FromBridge, type FromSandbox, type PythonRunRequest, type SandboxChanges } from "./protocol.js";
import type { PythonSandbox, PythonSandboxFactory } from "./sandbox.js";
import { isInside, WorkspaceMirror, type MirrorLimits } from "./workspace-mirror.js";
import { errorMessage } from "../../../base/error-message.js";

/** A program printing more than this is stopped (the shell would hold it all in memory). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** A sandbox whose memory grew past this is not kept warm (wasm memory is never given back). */
const MAX_WARM_HEAP_BYTES = 1024 * 1024 * 1024;

export interface PythonBridgeOptions {
  fs: WorkspaceFs;
  root: string;
  factory: PythonSandboxFactory;
  mirror?: Partial<MirrorLimits>;
  /** Told when the interpreter starts loading and when it is ready (the page shows it). */
  onStatus?: (status: "loading" | "ready" | "failed") => void;
}

const encoder = new TextEncoder();

function runId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * python3's side beside the files: takes command lines from the shell workers' `python3` command, keeps one
 * warm sandbox (started on the first run), brings its copy of the workspace up to date, runs, hands the
 * output on, and writes what the program changed back into the workspace. One run at a time; a stopped run
 * (Stop, the call's timeout, the shell worker terminated) kills the sandbox, and the next run starts a new
 * one. Nothing from the sandbox is trusted: only paths inside the workspace root are written, and only the
 * run in progress may send output.
 */
export class PythonBridge {
  private sandbox: Promise<PythonSandbox> | undefined;
  private readonly mirror: WorkspaceMirror;
  private queue: Promise<void> = Promise.resolve();
  /** The run in progress: how to end it from outside. */
  private current: { endpoint: Endpoint; id: number; kill(reason: string): void } | undefined;
  private disposed = false;

  constructor(private readonly options: PythonBridgeOptions) {
    this.mirror = new WorkspaceMirror(options.fs, options.root, options.mirror);
  }

  /** The file host's change announcements, so the next run sends only what changed. */
  markChanged(paths: string[] | "unknown"): void {
    this.mirror.markChanged(paths);
  }

  /** Answers python3 requests from one shell worker; the returned function is called when it is terminated. */
  serve(endpoint: Endpoint): () => void {
    const unlisten = endpoint.listen((message) => {
      if (!isToBridge(message)) return;
      if (message.kind === "python-run") this.enqueue(endpoint, message);
      else if (this.current?.endpoint === endpoint && this.current.id === message.id) this.current.kill("stopped");
    });
    return () => {
      unlisten();
      if (this.current?.endpoint === endpoint) this.current.kill("stopped");
    };
  }

  dispose(): void {
    this.disposed = true;
    this.current?.kill("disposed");
    void this.sandbox?.then((sandbox) => sandbox.kill()).catch(() => {});
    this.sandbox = undefined;
  }

  private enqueue(endpoint: Endpoint, request: PythonRunRequest): void {
    this.queue = this.queue.then(() =>
      this.run(endpoint, request).catch((error: unknown) => {
        const text = `python3: ${errorMessage(error)}\n`;
        endpoint.post({ kind: "python-output", id: request.id, stream: "stderr", data: encoder.encode(text) } satisfies FromBridge);
        endpoint.post({ kind: "python-done", id: request.id, exitCode: 1 } satisfies FromBridge);
      }),
    );
  }

  private start(): Promise<PythonSandbox> {
    if (this.sandbox) return this.sandbox;
    this.options.onStatus?.("loading");
    const started = this.options.factory().then(
      (sandbox) => {
        this.options.onStatus?.("ready");
        return sandbox;
      },
      (error: unknown) => {
        this.options.onStatus?.("failed");
        if (this.sandbox === started) this.sandbox = undefined;
        throw error;
      },
    );
    this.sandbox = started;
    // A new sandbox holds no files yet.
    this.mirror.reset();
    return started;
  }

  /** Throws the sandbox away: the next run starts a new one. */
  private discard(sandbox: PythonSandbox): void {
    sandbox.kill();
    this.sandbox = undefined;
    this.mirror.reset();
  }

  private async run(endpoint: Endpoint, request: PythonRunRequest): Promise<void> {
    if (this.disposed) throw new Error("the runtime was closed");
    const out = (stream: "stdout" | "stderr", data: Uint8Array) =>
      endpoint.post({ kind: "python-output", id: request.id, stream, data } satisfies FromBridge);
    const done = (exitCode: number) => endpoint.post({ kind: "python-done", id: request.id, exitCode } satisfies FromBridge);
    let stoppedEarly: string | undefined;
    this.current = { endpoint, id: request.id, kill: (reason) => (stoppedEarly = reason) };
    if (!this.sandbox) endpoint.post({ kind: "python-loading", id: request.id } satisfies FromBridge);
    const sandbox = await this.start();
    if (stoppedEarly) return done(130);
    const { sync, note } = await this.mirror.sync();
    if (stoppedEarly) return done(130);
    if (note) out("stderr", encoder.encode(note));
    const id = runId();
    const { root } = this.options;
    let recycle = false;
    const outcome = await new Promise<{ code: number; changes?: SandboxChanges }>((resolve) => {
      let printed = 0;
      const finish = (result: { code: number; changes?: SandboxChanges }) => {
        stop();
        sandbox.onExit(() => {});
        resolve(result);
      };
      const end = (reason: string, code: number) => {
        this.discard(sandbox);
        if (reason !== "stopped" && reason !== "disposed") out("stderr", encoder.encode(`python3: ${reason}\n`));
        finish({ code });
      };
      this.current = { endpoint, id: request.id, kill: (reason) => end(reason, 130) };
      sandbox.onExit((reason) => end(reason, 1));
      const stop = sandbox.listen((message: FromSandbox) => {
        if (message.kind === "output" && message.id === id && message.data instanceof Uint8Array) {
          printed += message.data.byteLength;
          if (printed > MAX_OUTPUT_BYTES)
            return end(`the program printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB; it was stopped`, 1);
          out(message.stream === "stderr" ? "stderr" : "stdout", message.data);
        } else if (message.kind === "exit" && message.id === id) {
          if (message.resync === true) this.mirror.reset();
          recycle = typeof message.heapBytes === "number" && message.heapBytes > MAX_WARM_HEAP_BYTES;
          finish({ code: typeof message.code === "number" ? message.code : 1, changes: message.changes });
        }
      });
      sandbox.post({
        kind: "run",
        id,
        root,
        argv: request.argv,
        cwd: request.cwd,
        env: request.env,
        stdin: request.stdin,
        extraPath: [],
        sync,
      });
    });
    this.current = undefined;
    if (outcome.changes) {
      const problems = await this.writeBack(outcome.changes);
      for (const problem of problems) out("stderr", encoder.encode(`python3: ${problem}\n`));
    }
    if (recycle) this.discard(sandbox);
    done(outcome.code);
  }

  /** Writes what the program changed into the workspace; returns what could not be written. */
  private async writeBack(untrusted: SandboxChanges): Promise<string[]> {
    const { fs, root } = this.options;
    const problems: string[] = [];
    const changes: SandboxChanges = {
      removes: (Array.isArray(untrusted?.removes) ? untrusted.removes : []).filter((path) => isInside(root, path)),
      dirs: (Array.isArray(untrusted?.dirs) ? untrusted.dirs : []).filter((path) => isInside(root, path)),
      writes: (Array.isArray(untrusted?.writes) ? untrusted.writes : []).filter(
        (file) => isInside(root, file?.path) && file.data instanceof Uint8Array,
      ),
    };
    const attempt = async (what: string, path: string, action: () => Promise<void>) => {
      try {
        await action();
      } catch (error) {
        problems.push(`could not ${what} ${path} in the workspace: ${errorMessage(error)}`);
      }
    };
    for (const path of changes.removes) await attempt("remove", path, () => fs.rm(path, { recursive: true, force: true }));
    for (const dir of changes.dirs) await attempt("make the folder", dir, () => fs.mkdir(dir, { recursive: true }));
    for (const file of changes.writes) {
      await attempt("write", file.path, async () => {
        await fs.mkdir(dirname(file.path), { recursive: true });
        await fs.writeFile(file.path, file.data);
      });
    }
    await this.mirror.recordChanges(changes);
    return problems;
  }
}
