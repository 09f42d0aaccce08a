/**
 * What every `workbench` command shares: its input and output, the usage error (exit 2), where the
 * global config and data folders are, and a tool session on a folder whose permission requests are
 * answered as the flags say.
 */
import { homedir } from "node:os";
import { resolve } from "node:path";
import { createEmbeddedRuntime } from "../runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../runtime/node/index.js";
import type { Runtime } from "../runtime/types.js";
import { DOOM_LOOP_PERMISSION, DOOM_LOOP_THRESHOLD } from "../session/doom-loop.js";
import { ToolSession } from "../session/tool-session.js";
import { builtinTools } from "../tools/builtins.js";
import { inProcessBackend } from "../lsp/in-process.js";
import { WorkspaceLanguageService } from "../workspace/language-service.js";
import { copyFolder, syncBack } from "./folder-sync.js";

/** OpenCode's flags are on when set to "true" or "1". */
function flagOn(name: string): boolean {
  const value = process.env[name]?.toLowerCase();
  return value === "true" || value === "1";
}

/** The command line itself was wrong: printed with the usage, exit 2. */
export class UsageError extends Error {}

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  stdin(): Promise<string>;
  /** Standard input is a terminal (then `run` does not wait for piped text). */
  stdinIsTTY?: boolean;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
};

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

/** Said to the model (and printed) when a permission request is refused because --yes was not given. */
export const REJECTED_WITHOUT_YES = "the workbench CLI rejects permission requests unless --yes is given: run it again with --yes to allow them";

/** Said to the model when it repeated a call: the CLI stops the run rather than let it go round forever. */
export const REJECTED_DOOM_LOOP = `the model made the same call ${DOOM_LOOP_THRESHOLD} times in a row; the workbench CLI stops the run (even with --yes)`;

/** A session on the folder, with permission requests answered as the flags say. */
export async function openSession(common: Common, io: CliIO): Promise<CliSession> {
  const folder = createNodeRuntime({ root: common.dir, ...(common.hiddenEnv ? { hiddenEnv: common.hiddenEnv } : {}) });
  const stat = await folder.fs.stat(common.dir).catch(() => undefined);
  if (stat?.type !== "directory") throw new UsageError(`--dir ${common.dir} is not a folder`);
  let runtime: Runtime = folder;
  let embedded: Awaited<ReturnType<typeof createEmbeddedRuntime>> | undefined;
  if (common.runtime === "embedded") {
    embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, root: "/workspace" });
    const { skipped } = await copyFolder(folder, embedded);
    if (skipped.length > 0) {
      io.err(`note: ${skipped.length} special file(s) not copied into the embedded runtime (no content to copy): ${skipped.join(", ")}\n`);
    }
    runtime = embedded;
  }
  // TypeScript runs in this process, loaded when a covered file is first touched.
  const languageService = new WorkspaceLanguageService(runtime, inProcessBackend);
  const session = await ToolSession.open({
    runtime,
    languageService,
    dataDir: common.runtime === "embedded" ? "/data" : dataDir(),
    home: homedir(),
    builtins: builtinTools,
    trusted: common.trust,
    // The embedded copy holds only the folder; the global folder is reachable on the real disk only.
    globalConfigDir: common.runtime === "node" ? globalConfigDir() : undefined,
    agent: common.agent,
    flags: { client: "cli", experimentalLsp: flagOn("OPENCODE_EXPERIMENTAL_LSP_TOOL") || flagOn("OPENCODE_EXPERIMENTAL") },
  });
  for (const problem of session.problems) io.err(`warning: ${problem.file} did not load: ${problem.error}\n`);
  const held = session.agent.ignoredRules ?? [];
  if (held.length > 0) {
    const list = held.map((rule) => `${rule.permission} ${JSON.stringify(rule.pattern)}: ${JSON.stringify(rule.action)}`).join(", ");
    io.err(`note: ${held.length} permission rule(s) of the workspace would loosen protection and are ignored until you trust this workspace (--trust): ${list}\n`);
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
      else session.permissions.reply(request.id, "reject", REJECTED_WITHOUT_YES);
    });
  });
  return {
    session,
    async finish() {
      languageService.dispose();
      if (embedded) {
        await syncBack(embedded, folder);
        await embedded.dispose();
      }
    },
  };
}
