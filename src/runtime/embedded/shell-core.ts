import { Bash, getCommandNames } from "just-bash/browser";
import { createBashFs } from "./bash-fs.js";
import { commandHinter } from "./command-hint.js";
import type { Endpoint } from "./endpoint.js";
import { createFsClient, createSnapshotClient } from "./fs-rpc.js";
import { createGitCommand } from "./git/command.js";
import { createPythonCommands } from "./python/command.js";
import { createNpmCommands } from "./npm/command.js";
import { createPipCommands } from "./pip/command.js";
import type { FromShell, ShellInit, ToShell } from "./shell-protocol.js";
import { adviseLimits, executionLimits } from "./shell-limits.js";
import { statementStreamPlugin } from "./statement-stream.js";
import { newLiveOutputMark } from "./live-output.js";
import { withShellDevices } from "./shell-devices.js";
import { createNodeCommand, type NodeHost } from "./node/command.js";
import type { SandboxFactory } from "./sandbox/contract.js";
import { WarmSandboxes } from "./node/warm-sandboxes.js";
import type { OutputStream } from "../types.js";
import { errorMessage } from "../../base/error-message.js";

/** Output goes to the main side in pieces of at most this many characters, so no message is huge. */
const OUTPUT_PIECE = 64 * 1024;

/** Variables the shell keeps for itself; handing them back in as environment would confuse it. */
const shellInternal = new Set(["?", "SHELLOPTS", "BASHOPTS", "OPTIND", "PPID", "OLDPWD_INTERNAL"]);

export interface ShellOptions {
  /** Commands just-bash registers that cannot work where this worker runs (gzip in the browser). */
  unavailable?: readonly string[];
  /** Where programs run (`node`); without it the shell has no `node`. */
  openSandbox?: SandboxFactory;
}

/**
 * The shell worker's body: just-bash over the workspace files, which it reaches through `fsEndpoint`
 * (the files live outside this worker and survive its termination).
 */
export function runShell(control: Endpoint, fsEndpoint: Endpoint, options: ShellOptions = {}): void {
  const files = createFsClient(fsEndpoint);
  // Programs that write while they run, when nothing of the user's sends their output elsewhere; a marked
  // npm's scripts stream too (the nested line is armed as a top-level one).
  const live = newLiveOutputMark(["node", "python3", "python", "pip", "pip3", "npm", "npx"], () => {
    armed = true;
    return () => {
      armed = false;
    };
  });
  // npm asks the caller of the running command before each fetch (ExecOptions.fetchGate).
  const fetchChecks = new Map<number, (refused: string | undefined) => void>();
  let nextCheck = 1;
  const gate = (url: string) =>
    new Promise<void>((allow, refuse) => {
      if (streamingId === undefined) return allow();
      const check = nextCheck++;
      fetchChecks.set(check, (refused) => (refused === undefined ? allow() : refuse(new Error(refused))));
      send({ kind: "fetch-check", id: streamingId, check, url });
    });
  const customCommands = [createGitCommand(files), ...createNpmCommands(files, { live, gate })];
  // The roots are known once the shell is set up (start below).
  const nodeHost: NodeHost | undefined = options.openSandbox
    ? {
        files,
        openSandbox: options.openSandbox,
        roots: [],
        warm: new WarmSandboxes(options.openSandbox, createSnapshotClient(fsEndpoint)),
      }
    : undefined;
  if (nodeHost) customCommands.push(createNodeCommand(nodeHost, live));
  // What `new Bash` registers without `commands`, network, python or javascript options, plus ours (python3
  // and its kin join at init, when the runtime has a sandbox for them).
  const registered = [...getCommandNames(), ...customCommands.map((command) => command.name)];
  let available: string[] = [];
  let bash: Bash | undefined;
  /** The loop limit in force, which tells which of its two limits stopped a seq. */
  let loopLimit = Number.POSITIVE_INFINITY;
  const running = new Map<number, AbortController>();
  const send = (message: FromShell) => control.post(message);
  /** The command whose statements stream now (one command runs per worker at a time). */
  let streamingId: number | undefined;
  /** Set when a command line starts: only its own script is transformed, not nested ones. */
  let armed = false;
  /** The running line's stderr filter (the hint after its first "command not found"). */
  let hintStderr: (text: string) => string = (text) => text;
  const emit = (stream: OutputStream, raw: string) => {
    if (streamingId === undefined) return;
    const text = stream === "stderr" ? adviseLimits(hintStderr(raw), loopLimit) : raw;
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + OUTPUT_PIECE);
      // Never part a surrogate pair: each piece must stand on its own as text.
      if (end < text.length && text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff) end--;
      send({ kind: "output", id: streamingId, stream, text: text.slice(at, end) });
      at = end;
    }
  };
  // Every registered command gets its file on PATH (for `which`), the unavailable ones too: they still run,
  // to say why they cannot work here, and `command -v` reports them as well.
  let fs: ReturnType<typeof withShellDevices> | undefined;

  function start(init: ShellInit): void {
    if (init.python) {
      const pip = createPipCommands(files, { root: init.root, gate });
      const python = [...createPythonCommands(fsEndpoint, live, pip[0]), ...pip];
      customCommands.push(...python);
      registered.push(...python.map((command) => command.name));
    }
    available = registered.filter((name, index, all) => all.indexOf(name) === index && !options.unavailable?.includes(name));
    fs = withShellDevices(createBashFs(files), emit, registered);
    const limits = executionLimits(init.limits);
    loopLimit = limits.maxLoopIterations;
    if (nodeHost) nodeHost.roots = [init.root, "/tmp"].filter((root, index, all) => all.indexOf(root) === index);
    bash = new Bash({
      fs,
      customCommands,
      cwd: init.root,
      env: init.env,
      executionLimits: limits,
    });
    bash.registerTransformPlugin(
      statementStreamPlugin(() => {
        const now = armed;
        armed = false;
        return now;
      }, live),
    );
    send({ kind: "ready" });
  }

  async function exec(message: Extract<ToShell, { kind: "exec" }>): Promise<void> {
    if (!bash) return send({ kind: "failed", id: message.id, message: "the shell was not initialised" });
    const controller = new AbortController();
    running.set(message.id, controller);
    streamingId = message.id;
    hintStderr = commandHinter(available);
    armed = true;
    try {
      const result = await bash.exec(message.command, {
        cwd: message.cwd,
        env: message.env,
        signal: controller.signal,
      });
      const { PWD, ...all } = result.env;
      const env = Object.fromEntries(Object.entries(all).filter(([name]) => !shellInternal.has(name)));
      send({
        kind: "done",
        id: message.id,
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: adviseLimits(hintStderr(result.stderr), loopLimit),
        state: { cwd: PWD ?? message.cwd, env: { ...env, PWD: PWD ?? message.cwd } },
      });
    } catch (error) {
      send({ kind: "failed", id: message.id, message: errorMessage(error) });
    } finally {
      armed = false;
      streamingId = undefined;
      running.delete(message.id);
    }
  }

  control.listen((data) => {
    const message = data as ToShell;
    if (message.kind === "init") start(message);
    else if (message.kind === "exec") void exec(message);
    else if (message.kind === "abort") running.get(message.id)?.abort();
    else if (message.kind === "fetch-verdict") {
      fetchChecks.get(message.check)?.(message.refused);
      fetchChecks.delete(message.check);
    }
  });
}
