/**
 * The `workbench` command line: run tools against a folder, replay a list of calls, check a permission.
 * Exit codes: 0 done, 1 a tool call failed, 2 the command line itself was wrong.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createEmbeddedRuntime } from "../runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../runtime/node/index.js";
import type { Runtime } from "../runtime/types.js";
import { CallListError, parseCallList, type ListedCall } from "../session/call-list.js";
import type { ToolCall } from "../session/calls.js";
import { ToolSession } from "../session/tool-session.js";
import { builtinTools } from "../tools/builtins.js";
import { copyFolder, syncBack } from "./folder-sync.js";

const USAGE = `usage:
  workbench tool <id> --dir <folder> [--args '<json>'] [--runtime node|embedded] [--yes] [--trust] [--agent NAME] [--json]
  workbench calls <file.json | -> --dir <folder> [--runtime node|embedded] [--yes] [--trust] [--agent NAME]
  workbench permission check <permission> <pattern> --dir <folder> [--agent NAME]

  --yes     allow every permission request once (otherwise they are rejected); opencode.json rules apply first
  --trust   run the workspace's custom tools and plugins (.opencode/tool, .opencode/plugin)
  --json    print the whole call record instead of the output`;

class UsageError extends Error {}

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  stdin(): Promise<string>;
}

const processIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

/** OpenCode's global config folder, whose tool/ and plugin/ folders apply to every workspace. */
function globalConfigDir(): string {
  return process.env.WORKBENCH_GLOBAL_CONFIG ?? resolve(process.env.XDG_CONFIG_HOME ?? resolve(homedir(), ".config"), "opencode");
}

function dataDir(): string {
  return process.env.WORKBENCH_DATA_DIR ?? resolve(process.env.XDG_DATA_HOME ?? resolve(homedir(), ".local/share"), "workbench");
}

interface Common {
  dir: string;
  runtime: "node" | "embedded";
  yes: boolean;
  trust: boolean;
  agent?: string;
}

/** A session on the folder, with permission requests answered as the flags say. */
async function openSession(common: Common, io: CliIO): Promise<{ session: ToolSession; finish(): Promise<void> }> {
  const folder = createNodeRuntime({ root: common.dir });
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
  const session = await ToolSession.open({
    runtime,
    dataDir: common.runtime === "embedded" ? "/data" : dataDir(),
    home: homedir(),
    builtins: builtinTools,
    trusted: common.trust,
    // The embedded copy holds only the folder; the global folder is reachable on the real disk only.
    globalConfigDir: common.runtime === "node" ? globalConfigDir() : undefined,
    agent: common.agent,
    flags: { client: "cli" },
  });
  for (const problem of session.problems) io.err(`warning: ${problem.file} did not load: ${problem.error}\n`);
  if (session.untrustedFiles.length > 0) {
    io.err(`note: ${session.untrustedFiles.length} custom tool or plugin file(s) not loaded; pass --trust to run the workspace's code\n`);
  }
  session.bus.subscribe("permission.asked", (request) => {
    // Answered on the next tick, after the caller has started waiting for it.
    queueMicrotask(() => {
      if (common.yes) session.permissions.reply(request.id, "once");
      else session.permissions.reply(request.id, "reject", "the workbench CLI rejects permission requests unless --yes is given");
    });
  });
  return {
    session,
    async finish() {
      if (embedded) {
        await syncBack(embedded, folder);
        await embedded.dispose();
      }
    },
  };
}

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function callLine(call: ToolCall): string {
  return JSON.stringify({
    tool: call.tool,
    state: call.status,
    title: call.title,
    output: call.output ?? null,
    metadata: call.metadata,
    error: call.error ?? null,
    permissions: call.permissions,
  });
}

const commonOptions = {
  dir: { type: "string" },
  runtime: { type: "string", default: "node" },
  yes: { type: "boolean", default: false },
  trust: { type: "boolean", default: false },
  agent: { type: "string" },
  json: { type: "boolean", default: false },
  args: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

function common(values: { dir?: string; runtime?: string; yes?: boolean; trust?: boolean; agent?: string }): Common {
  if (!values.dir) throw new UsageError("--dir <folder> is required");
  if (values.runtime !== "node" && values.runtime !== "embedded") throw new UsageError(`--runtime must be node or embedded, got ${values.runtime}`);
  return { dir: resolve(values.dir), runtime: values.runtime, yes: values.yes ?? false, trust: values.trust ?? false, agent: values.agent };
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  if (argv[0] === "rg") {
    const { rgMain } = await import("./rg.js");
    const runtime = createNodeRuntime({ root: process.cwd() });
    return rgMain(argv.slice(1), io, { search: runtime.search, fs: runtime.fs, cwd: process.cwd() });
  }
  try {
    const { values, positionals } = parseArgs({ args: argv, options: commonOptions, allowPositionals: true, strict: true });
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === "help") {
      io.out(`${USAGE}\n`);
      return command === undefined && !values.help ? 2 : 0;
    }
    if (command === "tool") {
      const [id, extra] = rest;
      if (!id || extra !== undefined) throw new UsageError("workbench tool takes exactly one tool id");
      const args = parseJsonObject(values.args ?? "{}", "--args");
      const { session, finish } = await openSession(common(values), io);
      if (!session.registry.get(id) || id === "invalid") {
        await finish();
        const available = session.registry.ids().filter((t) => t !== "invalid");
        throw new UsageError(`no tool "${id}" here; available: ${available.join(", ") || "(none)"}`);
      }
      const call = await session.run(id, args);
      await finish();
      if (values.json) io.out(`${JSON.stringify(call, null, 2)}\n`);
      else if (call.status === "completed") io.out(call.output?.endsWith("\n") ? call.output : `${call.output ?? ""}\n`);
      if (call.status !== "completed") io.err(`${call.error ?? "the call did not complete"}\n`);
      return call.status === "completed" ? 0 : 1;
    }
    if (command === "calls") {
      const [file, extra] = rest;
      if (!file || extra !== undefined) throw new UsageError("workbench calls takes one file (or - for standard input)");
      const text = file === "-" ? await io.stdin() : await readFile(file, "utf8").catch((error: unknown) => {
        throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      });
      let calls: ListedCall[];
      try {
        calls = parseCallList(text, file === "-" ? "standard input" : file);
      } catch (error) {
        if (error instanceof CallListError) throw new UsageError(error.message);
        throw error;
      }
      const { session, finish } = await openSession(common(values), io);
      let failed = false;
      for (const { tool, args } of calls) {
        const call = await session.run(tool, args);
        failed ||= call.status !== "completed";
        io.out(`${callLine(call)}\n`);
      }
      await finish();
      return failed ? 1 : 0;
    }
    if (command === "permission") {
      const [sub, permission, pattern, extra] = rest;
      if (sub !== "check" || !permission || pattern === undefined || extra !== undefined) {
        throw new UsageError("workbench permission check <permission> <pattern> --dir <folder>");
      }
      const { session, finish } = await openSession(common(values), io);
      const explanation = session.explain(permission, pattern);
      await finish();
      io.out(`${explanation.action}\n${explanation.sentence}\n`);
      return 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`workbench: ${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    io.err(`workbench: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
