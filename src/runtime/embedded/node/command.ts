/**
 * The embedded shell's `node`: parses Node's command line, hands the program and a snapshot of the files
 * to a fresh sandbox (sandbox/contract.ts), gathers its output, and writes back what it changed.
 * `runNodeProgram` is the entry other commands use (npm runs scripts and bins through it).
 */
import { defineCommand, type Command } from "just-bash/browser";
import { resolve } from "pathe";
import type { Sandbox, SandboxFactory } from "../sandbox/contract.js";
import type { WorkspaceFs } from "../workspace-fs.js";
import { LIVE_OUTPUT_VARIABLE, liveStreamsOf, liveWriter, withoutMarker, type LiveOutputMark } from "../live-output.js";
import type { FromRuntime, NodeProgram, ProgramFiles } from "./protocol.js";
import { NODE_VERSION } from "./version.js";
import { applyChanges, takeSnapshot } from "./snapshot.js";
import { discoverTests } from "./test-files.js";
import { serveChildCommands, type ShellRun } from "./child-commands.js";
import { transferOf, type SnapshotSource, type WarmSandboxes } from "./warm-sandboxes.js";

export interface NodeRun {
  /** Arguments after `node`, as typed. */
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: Uint8Array;
  signal?: AbortSignal;
  /**
   * Called with output as the program writes it; a chunk it answers true for is the caller's alone and is
   * not part of the outcome (a live stream, live-output.ts).
   */
  onOutput?: (stream: "stdout" | "stderr", data: Uint8Array) => boolean | undefined;
  /** The shell the program's child_process commands run in; without it they fail with exit 127. */
  exec?: ShellRun;
}

export interface NodeOutcome {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
}

export interface NodeHost {
  files: WorkspaceFs;
  openSandbox: SandboxFactory;
  /** The workspace root and the scratch folder: what a program sees and may change. */
  roots: string[];
  /** The trees under the roots in one step, where the files are (else read here file by file). */
  snapshot?: SnapshotSource;
  /** Sandboxes started and loaded with the files ahead of the program (else each starts when asked, empty). */
  warm?: WarmSandboxes;
}

/** A sandbox for the program and the files it starts with. */
async function sandboxFor(host: NodeHost): Promise<{ sandbox: Sandbox; files: ProgramFiles }> {
  if (host.warm) return host.warm.take(host.roots);
  const files: ProgramFiles = host.snapshot
    ? (await host.snapshot(host.roots)).files
    : { kind: "full", entries: await takeSnapshot(host.files, host.roots) };
  return { sandbox: await host.openSandbox("node"), files };
}

const USAGE = `Usage: node [options] [ script.js ] [arguments]
       node --test [options] [files...]

Options:
  -e, --eval script          evaluate script
  -p, --print script         evaluate script and print the result
  --input-type=module        treat --eval and stdin as an ES module
  --test                     run tests with node:test (files, folders or globs; default: the usual patterns)
  -v, --version              print the Node.js version
  -                          read the script from stdin

This node runs in the workbench's sandbox: the workspace's files, no network, no native addons.
`;

/** Options Node takes that change nothing here (or only how Node itself logs), with a value after = or not. */
const IGNORED =
  /^--(?:no-)?(?:warnings|deprecation|experimental-[\w-]+|enable-source-maps|trace-[\w-]+|stack-trace-limit|max-old-space-size|unhandled-rejections|harmony[\w-]*|expose-gc|preserve-symlinks|preserve-symlinks-main|test-reporter|test-reporter-destination|test-concurrency|test-timeout|test-name-pattern|test-skip-pattern|test-only|pending-deprecation|throw-deprecation|frozen-intrinsics|disable-warning|title|abort-on-uncaught-exception)(?:=.*)?$/;

type Parsed =
  | { kind: "version" }
  | { kind: "help" }
  | { kind: "error"; message: string; code: number }
  | {
      kind: "run";
      mode: NodeProgram["mode"] | { kind: "pending-test"; paths: string[] } | { kind: "pending-stdin"; module: boolean };
      argv: string[];
      execArgv: string[];
    };

function parseNodeArgs(args: readonly string[]): Parsed {
  const execArgv: string[] = [];
  let evalCode: string | undefined;
  let print = false;
  let module = false;
  let test = false;
  let at = 0;
  const value = (flag: string): string | undefined => {
    const eq = flag.indexOf("=");
    if (flag.startsWith("--") && eq > 0) return flag.slice(eq + 1);
    at++;
    return args[at];
  };
  for (; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === "--") {
      at++;
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) break;
    execArgv.push(arg);
    if (arg === "-v" || arg === "--version") return { kind: "version" };
    if (arg === "-h" || arg === "--help") return { kind: "help" };
    if (
      arg === "-e" ||
      arg === "--eval" ||
      arg.startsWith("--eval=") ||
      arg === "-p" ||
      arg === "--print" ||
      arg.startsWith("--print=") ||
      arg === "-pe" ||
      arg === "-ep"
    ) {
      if (arg.includes("p"))
        print = print || arg === "-p" || arg === "--print" || arg.startsWith("--print") || arg === "-pe" || arg === "-ep";
      const code = value(arg);
      if (code === undefined) return { kind: "error", message: `node: ${arg.split("=")[0]} requires an argument\n`, code: 9 };
      execArgv.push(code);
      evalCode = code;
      continue;
    }
    if (arg.startsWith("--input-type")) {
      const type = value(arg);
      if (type !== "module" && type !== "commonjs")
        return { kind: "error", message: `node: --input-type must be "module" or "commonjs"\n`, code: 9 };
      module = type === "module";
      continue;
    }
    if (arg === "--test") {
      test = true;
      continue;
    }
    if (
      arg === "-r" ||
      arg === "--require" ||
      arg === "--import" ||
      arg.startsWith("--require=") ||
      arg.startsWith("--import=") ||
      arg === "--loader" ||
      arg.startsWith("--loader=")
    ) {
      return { kind: "error", message: `node: ${arg.split("=")[0]} is not supported by the workbench's node yet\n`, code: 9 };
    }
    if (arg === "--watch" || arg.startsWith("--watch")) {
      return { kind: "error", message: "node: --watch is not supported here (each run ends when the program does)\n", code: 9 };
    }
    if (IGNORED.test(arg)) continue;
    if (
      /^--[\w-]+$/.test(arg) &&
      args[at + 1] !== undefined &&
      /^--(?:stack-trace-limit|max-old-space-size|title|test-reporter|test-concurrency|test-timeout)$/.test(arg)
    ) {
      at++;
      continue;
    }
    return { kind: "error", message: `node: bad option: ${arg}\n`, code: 9 };
  }
  const rest = args.slice(at);
  const node = "/usr/local/bin/node";
  if (test) return { kind: "run", mode: { kind: "pending-test", paths: rest }, argv: [node, ...rest], execArgv };
  if (evalCode !== undefined)
    return { kind: "run", mode: { kind: "eval", code: evalCode, print, module }, argv: [node, ...rest], execArgv };
  if (rest.length === 0 || rest[0] === "-")
    return { kind: "run", mode: { kind: "pending-stdin", module }, argv: [node, ...rest.slice(1)], execArgv };
  return { kind: "run", mode: { kind: "file", path: rest[0]! }, argv: [node, rest[0]!, ...rest.slice(1)], execArgv };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Programs running at once in one shell (a program's children are programs too): past this, `node` refuses
 * to start rather than let a program that spawns itself fill the memory with sandboxes.
 */
const MAX_PROGRAMS = 16;
let runningPrograms = 0;

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Runs `node <args>` against the workspace: the entry for the shell's `node` and for other commands
 * (npm scripts and bins). Resolves when the program has ended and its file changes are written.
 */
export async function runNodeProgram(host: NodeHost, run: NodeRun): Promise<NodeOutcome> {
  const parsed = parseNodeArgs(run.args);
  const text = (stdout: string, stderr = "", exitCode = 0): NodeOutcome => ({
    exitCode,
    stdout: encoder.encode(stdout),
    stderr: encoder.encode(stderr),
  });
  if (parsed.kind === "version") return text(`${NODE_VERSION}\n`);
  if (parsed.kind === "help") return text(USAGE);
  if (parsed.kind === "error") return text("", parsed.message, parsed.code);
  const stdin = run.stdin ?? new Uint8Array(0);
  let mode: NodeProgram["mode"];
  if (parsed.mode.kind === "pending-stdin") mode = { kind: "stdin", code: decoder.decode(stdin), module: parsed.mode.module };
  else if (parsed.mode.kind === "pending-test") {
    const files = await discoverTests(host.files, run.cwd, parsed.mode.paths);
    if (files.length === 0 && parsed.mode.paths.length > 0) {
      return text("", `Could not find '${parsed.mode.paths.map((path) => resolve(run.cwd, path)).join("', '")}'\n`, 1);
    }
    mode = { kind: "test", files };
  } else mode = parsed.mode;

  if (runningPrograms >= MAX_PROGRAMS)
    return text(
      "",
      `node: ${MAX_PROGRAMS} programs are running already in this shell; wait for one to end (a program that spawns itself?)\n`,
      1,
    );
  runningPrograms++;
  try {
    return await runInSandbox(host, run, parsed, mode, stdin);
  } finally {
    runningPrograms--;
  }
}

async function runInSandbox(
  host: NodeHost,
  run: NodeRun,
  parsed: Extract<Parsed, { kind: "run" }>,
  mode: NodeProgram["mode"],
  stdin: Uint8Array,
): Promise<NodeOutcome> {
  const { sandbox, files } = await sandboxFor(host);
  if (run.signal?.aborted) {
    sandbox.terminate();
    host.warm?.refill(host.roots);
    return { exitCode: 130, stdout: new Uint8Array(0), stderr: new Uint8Array(0) };
  }
  const children = serveChildCommands(host, run.exec, (message, transfer) => sandbox.endpoint.post(message, transfer));
  const stdout: Uint8Array[] = [];
  const stderr: Uint8Array[] = [];
  try {
    const exit = await new Promise<{ code: number; message?: string } & Partial<Extract<FromRuntime, { kind: "exit" }>>>((settle) => {
      const onAbort = () => {
        children.stop();
        settle({ code: 130 });
      };
      run.signal?.addEventListener("abort", onAbort, { once: true });
      sandbox.onCrash((message) => settle({ code: 134, message }));
      sandbox.endpoint.listen((data) => {
        const message = data as FromRuntime;
        if (message.kind === "output") {
          if (run.onOutput?.(message.stream, message.data) !== true) (message.stream === "stdout" ? stdout : stderr).push(message.data);
        } else if (message.kind === "exit") {
          run.signal?.removeEventListener("abort", onAbort);
          settle({ ...message, code: message.code });
        } else children.handle(message);
      });
      const program: NodeProgram = {
        argv: parsed.argv,
        execArgv: parsed.execArgv,
        mode,
        cwd: run.cwd,
        env: run.env,
        stdin,
        files,
        roots: host.roots,
      };
      // The snapshot's bytes move to the sandbox rather than being copied.
      sandbox.endpoint.post({ kind: "run", program }, transferOf(files.entries));
    });
    if (exit.message) stderr.push(encoder.encode(`node: ${exit.message}\n`));
    children.stop();
    await children.written();
    if (exit.changes) await applyChanges(host.files, exit.changes, host.roots);
    return { exitCode: exit.code, stdout: concat(stdout), stderr: concat(stderr) };
  } finally {
    children.stop();
    sandbox.terminate();
    // The next program's sandbox gets the files now, with this one's changes in them.
    host.warm?.refill(host.roots);
  }
}

/** Bytes as the shell's byte strings carry them: one character per byte. */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.byteLength; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return text;
}

/** The shell's `node` command; with `live`, a marked call writes its output as the program does. */
export function createNodeCommand(host: NodeHost, live?: LiveOutputMark): Command {
  return defineCommand("node", async (args, ctx) => {
    const stdin = Uint8Array.from(ctx.stdin as unknown as string, (char) => char.charCodeAt(0) & 0xff);
    const marked = Object.fromEntries(ctx.exportedEnv ? Object.entries(ctx.exportedEnv) : [...ctx.env.entries()]);
    const env = withoutMarker(marked);
    const onOutput = liveWriter(ctx.fs, liveStreamsOf(live, marked[LIVE_OUTPUT_VARIABLE]));
    const exec: ShellRun | undefined = ctx.exec
      ? (command, options) =>
          ctx.exec!(command, {
            cwd: options.cwd,
            env: options.env,
            replaceEnv: true,
            stdin: latin1(options.stdin),
            stdinKind: "bytes",
            signal: options.signal,
          })
      : undefined;
    const outcome = await runNodeProgram(host, { args, cwd: ctx.cwd, env, stdin, signal: ctx.signal, onOutput, exec });
    return { exitCode: outcome.exitCode, stdout: decoder.decode(outcome.stdout), stderr: decoder.decode(outcome.stderr) };
  });
}
