import { defineCommand, type Command } from "just-bash/browser";
import { join, resolve } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";
import { NpmError, fetchRefused } from "./errors.js";
import { init } from "./init.js";
import { FETCH_PROXY_VARIABLE, fetchWithProxy } from "./page-fetch.js";
import type { ProgressSink } from "./progress.js";
import { cleanInstall, install, uninstall, type InstallContext, type SaveType } from "./install.js";
import { parseLockfile, treeFromLockfile } from "./lockfile.js";
import { listTree } from "./ls.js";
import { satisfies } from "./manifest.js";
import { findProjectDir, readProject } from "./project.js";
import type { NpmFetch } from "./registry-client.js";
import { binPath, listScripts, runScript, shellQuote, type OutputWriter, type ShellExec } from "./scripts.js";
import { LIVE_OUTPUT_VARIABLE, liveStreamsOf, liveWriter, type LiveOutputMark } from "../live-output.js";
import { errorMessage } from "../../../base/error-message.js";

const encoder = new TextEncoder();

/** This npm's own version, so `npm -v` never passes for a real npm release. */
const EMBEDDED_NPM_VERSION = "0.1.0-embedded";

const aliases: Record<string, string> = {
  i: "install",
  in: "install",
  ins: "install",
  inst: "install",
  insta: "install",
  instal: "install",
  isnt: "install",
  isnta: "install",
  isntal: "install",
  isntall: "install",
  add: "install",
  un: "uninstall",
  unlink: "uninstall",
  remove: "uninstall",
  rm: "uninstall",
  r: "uninstall",
  "clean-install": "ci",
  ic: "ci",
  "install-clean": "ci",
  "isntall-clean": "ci",
  list: "ls",
  la: "ls",
  ll: "ls",
  "run-script": "run",
  rum: "run",
  urn: "run",
  t: "test",
  tst: "test",
  x: "exec",
};

const offered = ["init -y", "install", "ci", "uninstall", "ls", "run", "test", "start", "stop", "restart", "exec", "prefix", "root"];

/** Flags that take a value when written apart (`--registry URL`). */
const valued = new Set(["registry", "cache", "omit", "include", "depth", "save-prefix", "prefix", "package", "call", "only"]);
const shortFlags: Record<string, string> = {
  D: "save-dev",
  O: "save-optional",
  E: "save-exact",
  P: "save-prod",
  S: "save",
  s: "silent",
  a: "all",
  y: "yes",
  g: "global",
  c: "call",
  p: "package",
};

interface Parsed {
  positionals: string[];
  flags: Record<string, string | boolean>;
  /** What came after `--`, handed to a script as is. */
  rest: string[];
}

function parseArgs(argv: string[], stopAtFirstPositional = false): Parsed {
  const positionals: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (stopAtFirstPositional && positionals.length > 0) {
      positionals.push(arg);
      continue;
    }
    if (arg === "--") return { positionals, flags, rest: argv.slice(i + 1) };
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      let name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      let value: string | boolean = eq < 0 ? true : arg.slice(eq + 1);
      if (name.startsWith("no-") && eq < 0) {
        name = name.slice(3);
        value = false;
      } else if (eq < 0 && valued.has(name) && i + 1 < argv.length) value = argv[++i]!;
      flags[name] = value;
    } else if (/^-[A-Za-z]+$/.test(arg)) {
      for (const letter of arg.slice(1)) {
        const name = shortFlags[letter] ?? letter;
        flags[name] = valued.has(name) && i + 1 < argv.length ? argv[++i]! : true;
      }
    } else positionals.push(arg);
  }
  return { positionals, flags, rest: [] };
}

/** A fetch that asks `gate` first, about the URL the registry is asked for (before any proxy). */
function gated(fetchImpl: NpmFetch, gate: ((url: string) => Promise<void>) | undefined): NpmFetch {
  if (!gate) return fetchImpl;
  return async (url, init) => {
    try {
      await gate(url);
    } catch (error) {
      throw fetchRefused(url, errorMessage(error));
    }
    return fetchImpl(url, init);
  };
}

function envRecord(env: Map<string, string>): Record<string, string> {
  return Object.fromEntries(env);
}

export interface NpmCommandOptions {
  /** How registries are reached; a plain fetch when absent. $WORKBENCH_FETCH_PROXY, when set, is the fallback. */
  fetch?: NpmFetch;
  /** The shell's live-output mark: a marked npm shows its scripts' output as they run (live-output.ts). */
  live?: LiveOutputMark;
  /** Asked before each fetch with the registry's URL (not the proxy's); a rejection refuses it. */
  gate?: (url: string) => Promise<void>;
}

type Result = { stdout: string; stderr: string; exitCode: number };

function failure(error: unknown): Result {
  if (error instanceof NpmError) return { stdout: "", stderr: error.render(), exitCode: error.exitCode };
  const message = errorMessage(error);
  return { stdout: "", stderr: `npm error ${message}\n`, exitCode: 1 };
}

async function findBin(files: WorkspaceFs, from: string, name: string): Promise<string | undefined> {
  for (const dir of binPath(from, undefined).split(":")) {
    try {
      await files.stat(join(dir, name));
      return join(dir, name);
    } catch {
      // Not in this folder's node_modules/.bin; try the next one up.
    }
  }
  return undefined;
}

/**
 * `npm` and `npx` for the embedded shell: installs from a registry into node_modules, scripts run
 * by the shell itself, bins through `node_modules/.bin` (which hands them to `node`).
 */
export function createNpmCommands(files: WorkspaceFs, options: NpmCommandOptions = {}): Command[] {
  const fetchImpl: NpmFetch = options.fetch ?? ((url, init) => fetch(url, init));

  async function npx(argv: string[], cwd: string, env: Map<string, string>, exec: ShellExec | undefined): Promise<Result> {
    const parsed = parseArgs(argv, true);
    const call = typeof parsed.flags.call === "string" ? parsed.flags.call : undefined;
    const [name, ...args] = parsed.positionals;
    const projectDir = await findProjectDir(files, cwd);
    const runEnv = { ...envRecord(env), PATH: binPath(projectDir, env.get("PATH")) };
    if (!exec) return failure(new Error("npx needs the shell to run a command"));
    if (call !== undefined) return exec(call, { cwd, env: runEnv });
    if (!name) return failure(new NpmError(undefined, ["npx needs a command to run: npx <bin> [args...]"]));
    const bin = await findBin(files, projectDir, name);
    if (!bin) {
      return failure(
        new NpmError("ENOTINSTALLED", [
          `npx: "${name}" is not installed: no node_modules/.bin/${name} from ${projectDir} up.`,
          `The embedded npx never installs on its own. Install it first with \`npm install ${name}\` (or \`npm install -D ${name}\`), then run npx ${name} again.`,
        ]),
      );
    }
    return exec([bin, ...[...args, ...parsed.rest]].map(shellQuote).join(" "), { cwd, env: runEnv });
  }

  async function npm(
    argv: string[],
    cwd: string,
    env: Map<string, string>,
    exec: ShellExec | undefined,
    signal: AbortSignal | undefined,
    write?: OutputWriter,
    progress?: ProgressSink,
  ): Promise<Result> {
    const first = parseArgs(argv, true);
    if (first.flags.version || first.flags.v) return { stdout: `${EMBEDDED_NPM_VERSION}\n`, stderr: "", exitCode: 0 };
    const [typed, ...after] = first.positionals;
    if (!typed || first.flags.help || first.flags.h) {
      return {
        stdout: `npm <command>\n\nThe embedded shell's npm (${EMBEDDED_NPM_VERSION}) offers: ${offered.join(", ")}.\nInstalls come from the registry in .npmrc (registry=) or npm_config_registry; install scripts are never run.\n`,
        stderr: "",
        exitCode: typed ? 0 : 1,
      };
    }
    const command = aliases[typed] ?? typed;
    // Flags may come after the command too (`npm install -D x`, `npm run x --silent`); a script's own flags come after `--`.
    const rest = parseArgs(after, command === "exec");
    const flags = { ...first.flags, ...rest.flags };
    const projectDir = await findProjectDir(files, cwd);
    const ctx: InstallContext = {
      files,
      projectDir,
      env,
      fetch: gated(fetchWithProxy(fetchImpl, env.get(FETCH_PROXY_VARIABLE) || undefined), options.gate),
      flags,
      signal,
    };
    const saveType: SaveType = flags["save-dev"] ? "devDependencies" : flags["save-optional"] ? "optionalDependencies" : "dependencies";
    const silent = Boolean(flags.silent) || flags.loglevel === "silent";
    if (progress && !silent && flags.progress !== false) ctx.progress = progress;
    try {
      switch (command) {
        case "install": {
          if (flags.global)
            throw new NpmError(undefined, [
              "The embedded npm installs into the project only (no -g): leave out -g and use npx or npm run.",
            ]);
          const out = await install(ctx, rest.positionals, saveType);
          return { ...out, exitCode: 0 };
        }
        case "ci":
          return { ...(await cleanInstall(ctx)), exitCode: 0 };
        case "uninstall":
          if (rest.positionals.length === 0) throw new NpmError("EUSAGE", ["Must provide a package name to remove"]);
          return { ...(await uninstall(ctx, rest.positionals)), exitCode: 0 };
        case "ls":
          return await list(projectDir, flags);
        case "init":
          // npm init works in the current folder, not in a package.json found further up.
          return { stdout: await init(files, cwd, Boolean(flags.yes)), stderr: "", exitCode: 0 };
        case "prefix":
          return { stdout: `${projectDir}\n`, stderr: "", exitCode: 0 };
        case "root":
          return { stdout: `${join(projectDir, "node_modules")}\n`, stderr: "", exitCode: 0 };
        case "exec":
          return await npx([...rest.positionals, ...(rest.rest.length > 0 ? ["--", ...rest.rest] : [])], cwd, env, exec);
        case "run": {
          const project = await readProject(files, projectDir);
          const [name, ...args] = rest.positionals;
          if (!name) return { stdout: silent ? "" : listScripts(project.manifest), stderr: "", exitCode: 0 };
          return await scripts(projectDir, name, [...args, ...rest.rest], env, exec, silent, write);
        }
        case "test":
        case "start":
        case "stop":
        case "restart":
          return await scripts(projectDir, command, [...rest.positionals, ...rest.rest], env, exec, silent, write);
        default:
          throw new NpmError(undefined, [`Unknown command: "${typed}"`, "", `The embedded shell's npm offers: ${offered.join(", ")}.`]);
      }
    } catch (error) {
      return failure(error);
    }
  }

  async function scripts(
    projectDir: string,
    name: string,
    args: string[],
    env: Map<string, string>,
    exec: ShellExec | undefined,
    silent: boolean,
    write: OutputWriter | undefined,
  ): Promise<Result> {
    if (!exec) throw new Error("npm run needs the shell to run a script");
    const project = await readProject(files, projectDir);
    return runScript({ projectDir, manifest: project.manifest, name, args, env: envRecord(env), exec, silent, write });
  }

  async function list(projectDir: string, flags: Record<string, string | boolean>): Promise<Result> {
    const project = await readProject(files, projectDir);
    let lockText: string | undefined;
    try {
      lockText = new TextDecoder().decode(await files.readFile(join(projectDir, "node_modules/.package-lock.json")));
    } catch {
      lockText = undefined;
    }
    const lock = lockText
      ? parseLockfile(lockText, join(projectDir, "node_modules/.package-lock.json"))
      : { lockfileVersion: 3, packages: {} };
    const root = treeFromLockfile(lock, project.manifest);
    const depth = flags.all ? Number.POSITIVE_INFINITY : typeof flags.depth === "string" ? Number(flags.depth) : 0;
    const { text, ok } = listTree(root, projectDir, depth, satisfies);
    return { stdout: text, stderr: ok ? "" : "npm error code ELSPROBLEMS\n", exitCode: ok ? 0 : 1 };
  }

  const shellExecOf = (ctx: {
    exec?: (command: string, options: { cwd: string; env?: Record<string, string> }) => Promise<Result>;
  }): ShellExec | undefined => (ctx.exec ? (command, options) => ctx.exec!(command, { cwd: options.cwd, env: options.env }) : undefined);

  /**
   * The call's environment without the live-output marker (scripts must not inherit it), and for a marked
   * call whose stdout and stderr both reach the terminal: a writer for npm's own lines, and a shell exec
   * whose script streams as a top-level line does, handing on at once what did not stream, so every
   * banner comes before its script's output.
   */
  const callOf = (
    ctx: Parameters<Command["execute"]>[1],
  ): { env: Map<string, string>; exec?: ShellExec; write?: OutputWriter; progress?: ProgressSink } => {
    const env = new Map(ctx.env);
    env.delete(LIVE_OUTPUT_VARIABLE);
    const exec = shellExecOf(ctx);
    const streams = liveStreamsOf(options.live, ctx.env.get(LIVE_OUTPUT_VARIABLE));
    const writeLive = liveWriter(ctx.fs, streams);
    // Progress lines only where stderr reaches the caller as it comes: as npm draws its bar only on a terminal.
    const progress: ProgressSink | undefined = streams.stderr ? (line) => writeLive("stderr", encoder.encode(line)) : undefined;
    const streamNested = options.live?.streamNested;
    if (!exec || !streams.stdout || !streams.stderr || !streamNested) return { env, exec, progress };
    const write: OutputWriter = (stream, text) => {
      if (text.length > 0) writeLive(stream, encoder.encode(text));
    };
    const liveExec: ShellExec = async (command, execOptions) => {
      const disarm = streamNested();
      const result = await exec(command, execOptions).finally(disarm);
      write("stdout", result.stdout);
      write("stderr", result.stderr);
      return { stdout: "", stderr: "", exitCode: result.exitCode };
    };
    return { env, exec: liveExec, write, progress };
  };

  return [
    defineCommand("npm", (argv, ctx) => {
      const call = callOf(ctx);
      return npm(argv, resolve(ctx.cwd), call.env, call.exec, ctx.signal, call.write, call.progress);
    }),
    defineCommand("npx", (argv, ctx) => {
      const call = callOf(ctx);
      return npx(argv, resolve(ctx.cwd), call.env, call.exec).catch(failure);
    }),
  ];
}
