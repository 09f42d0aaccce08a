/**
 * What every `workbench` command shares: its input and output, the usage error (exit 2), where the
 * global config and data folders are, and a tool session on a folder whose permission requests are
 * answered as the flags say.
 */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { LocalTransportFactory } from "../session/host/mcp/manager.js";
import { nodeWebAccess } from "../session/host/node-web.js";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { createEmbeddedRuntime } from "../runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../runtime/embedded/node-worker-factory.js";
import { nodePythonSandboxFactory } from "../runtime/embedded/python/node-sandbox.js";
import { createNodeRuntime } from "../runtime/node/index.js";
import type { Runtime } from "../runtime/types.js";
import { DOOM_LOOP_PERMISSION, DOOM_LOOP_THRESHOLD } from "../session/loop/doom-loop.js";
import { ToolSession } from "../session/host/tool-session.js";
import { builtinTools } from "../tools/builtins.js";
import { inProcessBackend } from "../lsp/in-process.js";
import { WorkspaceLanguageService } from "../workspace/language-service.js";
import { sessionCheckpoints } from "../session/host/session-checkpoints.js";
import { openFolderCheckpoints } from "./checkpoint-folder.js";
import { copyFolder, syncBack } from "./folder-sync.js";
import { askOnTerminal } from "./terminal-questions.js";
import { errorMessage } from "../base/error-message.js";
import { UsageError, type CliIO } from "./cli-io.js";

/** OpenCode's flags are on when set to "true" or "1". */
function flagOn(name: string): boolean {
  const value = process.env[name]?.toLowerCase();
  return value === "true" || value === "1";
}

export { UsageError, type CliIO } from "./cli-io.js";

/** OpenCode's global config folder, whose tool/ and plugin/ folders apply to every workspace. */
export function globalConfigDir(): string {
  return process.env.WORKBENCH_GLOBAL_CONFIG ?? resolve(process.env.XDG_CONFIG_HOME ?? resolve(homedir(), ".config"), "opencode");
}

export function dataDir(): string {
  return process.env.WORKBENCH_DATA_DIR ?? resolve(process.env.XDG_DATA_HOME ?? resolve(homedir(), ".local/share"), "workbench");
}

export interface Common {
  dir: string;
  runtime: "node" | "embedded";
  yes: boolean;
  trust: boolean;
  agent?: string;
  /** Variables the node runtime's commands never see (keys); the caller may add names later. */
  hiddenEnv?: ReadonlySet<string>;
}

export interface CliSession {
  session: ToolSession;
  /** Writes an embedded copy's changes back to the folder and lets the runtime go. */
  finish(): Promise<void>;
}

/**
 * Said to the model (and printed) when a permission request is refused because --yes was not given: which
 * permission and patterns were asked, so the person knows what --yes would allow (or which rule to write).
 */
function rejectedWithoutYes(permission: string, patterns: readonly string[]): string {
  const what = patterns.length > 0 ? `${permission} on ${patterns.join(", ")}` : permission;
  return `the workbench CLI rejects permission requests unless --yes is given (this call asked for ${what}): run it again with --yes to allow them, or allow it in opencode.json's "permission"`;
}

/** Said to the model when it repeated a call: the CLI stops the run rather than let it go round forever. */
const REJECTED_DOOM_LOOP = `the model made the same call ${DOOM_LOOP_THRESHOLD} times in a row; the workbench CLI stops the run (even with --yes)`;

/** OpenCode's switches for websearch and codesearch with providers other than opencode. */
function exaEnabled(env: NodeJS.ProcessEnv): boolean {
  const on = (name: string) => env[name] === "true" || env[name] === "1";
  return on("OPENCODE_ENABLE_EXA") || on("OPENCODE_EXPERIMENTAL") || on("OPENCODE_EXPERIMENTAL_EXA");
}

/**
 * Local MCP servers run in the real folder (also when the tools work on an embedded copy), with the
 * environment minus the variables kept from the tools (provider keys), plus the entry's own.
 */
function localMcp(folder: string, hidden: ReadonlySet<string> | undefined): LocalTransportFactory {
  return (entry) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !hidden?.has(name)) env[name] = value;
    const [command, ...args] = entry.command;
    return new StdioClientTransport({ command: command!, args, cwd: folder, env: { ...env, ...entry.environment }, stderr: "ignore" });
  };
}

/**
 * Connects the workspace's MCP servers and waits for them (the CLI runs one call or one run: it does not
 * start without their tools). Called once the variables to hide are known: a local server inherits the rest.
 */
export async function connectMcp(session: ToolSession, io: CliIO): Promise<void> {
  session.mcp.start();
  await session.mcp.ready();
  for (const server of session.mcp.servers()) {
    if (server.status.state === "failed") io.err(`warning: MCP server ${server.name} is not connected: ${server.status.error}\n`);
    if (server.status.state === "connected")
      for (const note of server.status.left ?? []) io.err(`warning: MCP server ${server.name}: ${note}\n`);
  }
}

/** A session on the folder, with permission requests answered as the flags say. */
export async function openSession(common: Common, io: CliIO): Promise<CliSession> {
  const folder = createNodeRuntime({ root: common.dir, ...(common.hiddenEnv ? { hiddenEnv: common.hiddenEnv } : {}) });
  const stat = await folder.fs.stat(common.dir).catch(() => undefined);
  if (stat?.type !== "directory") throw new UsageError(`--dir ${common.dir} is not a folder`);
  let runtime: Runtime = folder;
  let embedded: Awaited<ReturnType<typeof createEmbeddedRuntime>> | undefined;
  if (common.runtime === "embedded") {
    embedded = await createEmbeddedRuntime({
      workerFactory: nodeShellWorkerFactory,
      root: "/workspace",
      python: nodePythonSandboxFactory,
    });
    const { skipped } = await copyFolder(folder, embedded);
    if (skipped.length > 0) {
      io.err(`note: ${skipped.length} special file(s) not copied into the embedded runtime (no content to copy): ${skipped.join(", ")}\n`);
    }
    runtime = embedded;
  }
  // TypeScript runs in this process, loaded when a covered file is first touched.
  const languageService = new WorkspaceLanguageService(runtime, inProcessBackend);
  // Checkpoints of the real folder, so `workbench undo` can take a run back (not of the embedded copy,
  // which is written back over the folder at the end and recorded there by the next run's first look).
  const recorded =
    common.runtime === "node" && process.env.WORKBENCH_CHECKPOINTS !== "0"
      ? await openFolderCheckpoints(common.dir, dataDir()).catch((error: unknown) => {
          io.err(`warning: no checkpoints for this run (workbench undo cannot take it back): ${errorMessage(error)}\n`);
          return undefined;
        })
      : undefined;
  const checkpoints =
    recorded &&
    sessionCheckpoints(recorded, (error) =>
      io.err(`warning: a checkpoint was not recorded (undo cannot go back past it): ${errorMessage(error)}\n`),
    );
  const detachCheckpoints = recorded?.attach(folder);
  const session = await ToolSession.open({
    runtime,
    languageService,
    ...(checkpoints ? { checkpoints } : {}),
    dataDir: common.runtime === "embedded" ? "/data" : dataDir(),
    home: homedir(),
    builtins: builtinTools,
    trusted: common.trust,
    // The embedded copy holds only the folder; the global folder is reachable on the real disk only.
    globalConfigDir: common.runtime === "node" ? globalConfigDir() : undefined,
    agent: common.agent,
    // The question tool needs someone to answer: offered only when standard input is a terminal.
    flags: {
      client: io.stdinIsTTY === true ? "cli" : "server",
      enableExa: exaEnabled(process.env),
      ...(["true", "1"].includes(process.env.OPENCODE_EXPERIMENTAL_PLAN_MODE ?? "") ? { planMode: true } : {}),
      experimentalLsp: flagOn("OPENCODE_EXPERIMENTAL_LSP_TOOL") || flagOn("OPENCODE_EXPERIMENTAL"),
      // V2's Code Mode flag; the workspace's `workbench.experimentalCodeMode` turns it on too.
      ...(flagOn("OPENCODE_EXPERIMENTAL_CODE_MODE") ? { codeMode: true } : {}),
    },
    web: nodeWebAccess(process.env.WORKBENCH_EXA_URL ? { exaUrl: process.env.WORKBENCH_EXA_URL } : {}),
    mcpLocal: localMcp(common.dir, common.hiddenEnv),
    mcpDeferred: true,
  });
  if (io.stdinIsTTY === true) askOnTerminal(session.questions);
  for (const problem of session.problems) io.err(`warning: ${problem.file} did not load: ${problem.error}\n`);
  const held = session.agent.ignoredRules ?? [];
  if (held.length > 0) {
    const list = held.map((rule) => `${rule.permission} ${JSON.stringify(rule.pattern)}: ${JSON.stringify(rule.action)}`).join(", ");
    io.err(
      `note: ${held.length} permission rule(s) of the workspace would loosen protection and are ignored until you trust this workspace (--trust): ${list}\n`,
    );
  }
  if (session.untrustedFiles.length > 0) {
    io.err(`note: ${session.untrustedFiles.length} custom tool or plugin file(s) not loaded; pass --trust to run the workspace's code\n`);
  }
  session.bus.subscribe("permission.asked", (request) => {
    // Answered on the next tick, after the caller has started waiting for it.
    queueMicrotask(() => {
      // Nobody is watching a CLI run: a repeating model is stopped, never waved through by --yes.
      if (request.permission === DOOM_LOOP_PERMISSION) session.permissions.reply(request.id, "reject", REJECTED_DOOM_LOOP);
      else if (common.yes) session.permissions.reply(request.id, "once");
      else session.permissions.reply(request.id, "reject", rejectedWithoutYes(request.permission, request.patterns));
    });
  });
  return {
    session,
    async finish() {
      // Background jobs end with the session, before its files are synced back.
      await session.jobs?.stopAll();
      detachCheckpoints?.();
      await session.mcp.close();
      languageService.dispose();
      if (embedded) {
        await syncBack(embedded, folder);
        await embedded.dispose();
      }
    },
  };
}
