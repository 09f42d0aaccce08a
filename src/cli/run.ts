/**
 * `workbench run "message"`: one message to the agent on a folder, like `opencode run`. The same loop the
 * page runs, with the workspace's opencode.json for providers and keys from the environment; the answer
 * on stdout, tool progress on stderr (or JSON events with --format json). Permission requests are
 * rejected unless --yes, and the model is told why. Ctrl-C stops the stream and the tools.
 *
 * Exit codes: 0 the run ended, 1 the provider failed (key, credit, model, network...), 2 the command line
 * or the setup was wrong (no message, unknown model or agent, bad option, no such folder, an opencode.json
 * that does not parse), 130 interrupted.
 */
import { writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Agent } from "../session/agent/types.js";
import { Chat } from "../session/chat/chat.js";
import type { ModelRef } from "../session/record/message.js";
import { keysFromEnv, resolveModel, type KeySource, type ProviderModelResolved } from "../session/provider/factory.js";
import { withoutPersonKeys } from "../session/config/workspace-providers.js";
import type { ProvidersConfig } from "../session/provider/config.js";
import { ProviderSetupError } from "../session/provider/setup-error.js";
import { DOOM_LOOP_PERMISSION, DOOM_LOOP_THRESHOLD } from "../session/loop/doom-loop.js";
import { exportSession } from "../session/record/session-json.js";
import { systemPrompt } from "../session/agent/system-prompt.js";
import type { ToolSession } from "../session/host/tool-session.js";
import { connectMcp, globalConfigDir, openSession, UsageError, type CliIO, type CliSession } from "./cli-session.js";
import { BUILTIN_KEY_VARIABLES, keyVariables } from "./run-env.js";
import { hideVariables, startEnvironment } from "./held-environment.mjs";
import { watchRunEvents } from "./run-events.js";
import { chooseRunModel, loadRunSetup } from "./run-config.js";
import { refuseUnreadEnv } from "./untrusted-env.js";
import { errorText, printer, type RunFormat } from "./run-print.js";
import { terminalSafe } from "./terminal-text.js";
import { errorMessage } from "../base/error-message.js";

const RUN_USAGE = `usage:
  workbench run [--dir D] [--model provider/model] [--agent NAME] [--yes] [--format default|json]
                [--runtime node|embedded] [--trust] [--session-file F] "message"

  Sends the message to the agent working on the folder (default: the current directory) and runs it to
  the end. Piped standard input is appended to the message.
  --model         provider/model; else the agent's model, opencode.json's "model", or the first provider
                  with a key. Providers come from opencode.json (global, then the folder's); keys from the
                  environment ({env:NAME} in options.apiKey, or the provider's usual variable)
  --agent         a primary agent (default: the workspace's default agent, usually build)
  --yes           allow every permission request once; otherwise each is rejected and the model is told so
  --format        default: the answer on stdout, one line per tool call on stderr
                  json: one JSON event per line on stdout (step_start, text, tool_use, step_finish, error)
  --trust         run the workspace's custom tools and plugins
  --session-file  write the session as JSON (export format: import it in the page, or make a script of it)
  Sessions are not saved otherwise. Ctrl-C stops the run.
  Exit codes: 0 done, 1 provider error, 2 usage error, 130 interrupted.`;

const options = {
  dir: { type: "string" },
  model: { type: "string", short: "m" },
  agent: { type: "string" },
  yes: { type: "boolean", default: false },
  format: { type: "string", default: "default" },
  runtime: { type: "string", default: "node" },
  trust: { type: "boolean", default: false },
  "session-file": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

interface RunArgs {
  dir: string;
  model?: string;
  agent?: string;
  yes: boolean;
  format: RunFormat;
  runtime: "node" | "embedded";
  trust: boolean;
  sessionFile?: string;
  words: string[];
  help: boolean;
}

function parseRunArgs(argv: string[], cwd = process.cwd()): RunArgs {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  if (values.format !== "default" && values.format !== "json")
    throw new UsageError(`--format must be default or json, got "${values.format}"`);
  if (values.runtime !== "node" && values.runtime !== "embedded")
    throw new UsageError(`--runtime must be node or embedded, got "${values.runtime}"`);
  return {
    dir: resolve(cwd, values.dir ?? "."),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
    yes: values.yes,
    format: values.format,
    runtime: values.runtime,
    trust: values.trust,
    ...(values["session-file"] !== undefined ? { sessionFile: resolve(cwd, values["session-file"]) } : {}),
    words: positionals,
    help: values.help,
  };
}

/** The arguments joined with spaces, then piped input, as `opencode run` builds its message. */
async function messageOf(args: RunArgs, io: CliIO): Promise<string> {
  let message = args.words.join(" ");
  if (io.stdinIsTTY === false) {
    const piped = await io.stdin();
    if (piped.trim() !== "") message = message ? `${message}\n${piped}` : piped;
  }
  if (message.trim() === "") throw new UsageError('no message: write it after "run" (in quotes) or pipe it in');
  return message;
}

function pickAgent(session: ToolSession, name: string | undefined): Agent {
  if (name === undefined) return session.agent;
  const primary = session.agents.filter((agent) => agent.mode !== "subagent" && !agent.hidden);
  const found = session.agents.find((agent) => agent.name === name);
  if (!found) throw new UsageError(`unknown agent "${name}": use one of ${primary.map((agent) => agent.name).join(", ")}`);
  if (!primary.includes(found))
    throw new UsageError(`"${name}" is a subagent (the task tool starts it); run one of ${primary.map((agent) => agent.name).join(", ")}`);
  return found;
}

/** A setup problem found before any request: a missing key is the provider's (1), the rest are usage (2). */
function setupFailure(error: ProviderSetupError, io: CliIO): number {
  io.err(`workbench: ${error.message}\n${error.hint}\n`);
  return error.kind === "auth" || error.kind === "security" ? 1 : 2;
}

/** Stops the run on Ctrl-C; a second Ctrl-C leaves at once. Returns whether it was pressed, and a cleanup. */
function onInterrupt(stop: () => void): { interrupted(): boolean; dispose(): void } {
  let pressed = false;
  const handler = () => {
    if (pressed) process.exit(130);
    pressed = true;
    stop();
  };
  process.on("SIGINT", handler);
  return { interrupted: () => pressed, dispose: () => process.off("SIGINT", handler) };
}

/** Why a run ended on a rejected permission: the model repeating itself, or a request without --yes. */
function blockedLine(session: ToolSession): string {
  const repeated = session.session.calls.findLast((call) =>
    call.permissions.some((permission) => permission.permission === DOOM_LOOP_PERMISSION && permission.answer === "reject"),
  );
  if (repeated) {
    return `stopped: the model repeated the same call ${DOOM_LOOP_THRESHOLD} times (${repeated.tool} with the same arguments); try again with a clearer message or another model\n`;
  }
  return "stopped: a permission request was rejected; pass --yes to allow them\n";
}

export async function runMain(argv: string[], given: CliIO): Promise<number> {
  // Notes and errors quote workspace files and provider answers: no terminal escapes reach the screen.
  const io: CliIO = { ...given, err: (text) => given.err(terminalSafe(text)) };
  let args: RunArgs;
  let message: string;
  try {
    args = parseRunArgs(argv);
    if (args.help) {
      io.out(`${RUN_USAGE}\n`);
      return 0;
    }
    message = await messageOf(args, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`workbench: ${(error as Error).message}\n${RUN_USAGE}\n`);
      return 2;
    }
    throw error;
  }

  // The environment the bin started with: its keys are no longer in process.env (held-environment.ts).
  const env = startEnvironment();
  // Filled once the providers are read, before any command runs: the tool shell never sees the keys.
  const hiddenEnv = new Set(BUILTIN_KEY_VARIABLES);
  let opened: CliSession;
  try {
    opened = await openSession({ dir: args.dir, runtime: args.runtime, yes: args.yes, trust: args.trust, hiddenEnv }, io);
  } catch (error) {
    // Not a folder, or an opencode.json that does not parse: nothing the provider did.
    io.err(`workbench: ${errorMessage(error)}\n`);
    return 2;
  }
  const { session, finish } = opened;
  try {
    let agent: Agent;
    let config: ProvidersConfig;
    let ref: ModelRef | undefined;
    let model: ProviderModelResolved;
    let keys: KeySource;
    const global = args.runtime === "node" ? globalConfigDir() : undefined;
    try {
      agent = pickAgent(session, args.agent);
      session.session.agent = agent.name;
      const setup = await loadRunSetup({
        runtime: session.runtime,
        configPath: session.configPath,
        globalConfigDir: global,
        env,
        home: homedir(),
        trusted: args.trust,
      });
      for (const notice of setup.notices) io.err(`note: ${notice}\n`);
      config = setup.config;
      for (const name of keyVariables(config, env)) hiddenEnv.add(name);
      for (const problem of hideVariables(hiddenEnv))
        io.err(`note: commands may read the keys in /proc/${process.pid}/environ: ${problem}\n`);
      // Only now: a local MCP server started before this line would have inherited the keys.
      await connectMcp(session, io);
      keys = withoutPersonKeys(keysFromEnv(env), setup.keyless);
      ref = chooseRunModel(args.model, agent, config, env);
      if (!ref) {
        throw new UsageError(
          'no model: pass --model provider/model, set "model" in opencode.json, or set a provider\'s key (for example ANTHROPIC_API_KEY)',
        );
      }
      if (session.configPath) await refuseUnreadEnv(ref.providerID, setup.unreadEnv, config, keys, session.configPath);
      model = await resolveModel(ref, { config, keys, env });
    } catch (error) {
      if (error instanceof ProviderSetupError) return setupFailure(error, io);
      if (error instanceof UsageError) {
        io.err(`workbench: ${error.message}\n`);
        return 2;
      }
      throw error;
    }

    const chat = new Chat({
      tools: session,
      agents: session.agents,
      resolveModel: async () => model,
      system: (which, info) =>
        systemPrompt({
          agent: which,
          model: info,
          runtime: session.runtime,
          config: session.config,
          now: new Date(),
          home: homedir(),
          trusted: args.trust,
          ...(global ? { globalConfigDir: global } : {}),
          onNote: (note) => io.err(`note: ${note}\n`),
        }),
      model: ref,
      agent: agent.name,
    });
    const watcher = watchRunEvents(chat, printer(args.format, io, session.runtime.root));
    const interrupt = onInterrupt(() => chat.stop());
    try {
      await chat.send({ text: message });
    } finally {
      interrupt.dispose();
      watcher.flush();
      watcher.stop();
      chat.dispose();
    }
    if (args.sessionFile) await writeFile(args.sessionFile, exportSession(session.session));
    if (interrupt.interrupted()) {
      if (args.format === "default") io.err("interrupted\n");
      return 130;
    }
    if (chat.lastEnd === "blocked" && args.format === "default") io.err(blockedLine(session));
    return chat.lastEnd === "error" ? 1 : 0;
  } catch (error) {
    io.err(errorText({ message: errorMessage(error) }));
    return 1;
  } finally {
    await finish();
  }
}
