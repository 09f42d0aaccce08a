/**
 * The `workbench` command line: run the agent on a folder (run.ts), run tools against a folder, replay a
 * list of calls, check a permission.
 * Exit codes: 0 done, 1 a tool call failed, 2 the command line itself was wrong.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ListedCall } from "../session/record/call-list.js";
import type { ToolCall } from "../session/record/session-record.js";
import { printableIO } from "./printable-io.js";
import type { Common } from "./cli-session.js";
import { processIO, UsageError, type CliIO } from "./cli-io.js";
import { errorMessage } from "../base/error-message.js";

const USAGE = `usage:
  workbench run [--dir D] [--model provider/model] [--agent NAME] [--yes] [--format default|json] "message"
                                  (the agent on a folder, like opencode run; workbench run --help for more)
  workbench tool <id> --dir <folder> [--args '<json>'] [--runtime node|embedded] [--yes] [--trust] [--agent NAME] [--json]
  workbench calls <file.json | -> --dir <folder> [--runtime node|embedded] [--yes] [--trust] [--agent NAME]
  workbench permission check <permission> <pattern> --dir <folder> [--agent NAME]
  workbench share --dir <folder> [--session FILE] [--base URL] [--name NAME] [--file OUT.workbench.json]
                                  (a share link to the folder's files and a session, printed; or a file)
  workbench open <link | file.workbench.json> --dir <folder> [--session OUT] [--force]
                                  (a share's files written back out byte for byte)
  workbench undo --dir D [--session-file F] [--to CALL_ID] [--redo] [--list] [--yes]
                                  (the folder's files as before the last message, or a call; from the
                                  checkpoints workbench run keeps in its data folder)

  --yes     allow every permission request once (otherwise they are rejected); opencode.json rules apply first
  --trust   run the workspace's custom tools and plugins (.opencode/tool, .opencode/plugin)
  --json    print the whole call record instead of the output`;

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${errorMessage(error)}`);
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
  if (values.runtime !== "node" && values.runtime !== "embedded")
    throw new UsageError(`--runtime must be node or embedded, got ${values.runtime}`);
  return { dir: resolve(values.dir), runtime: values.runtime, yes: values.yes ?? false, trust: values.trust ?? false, agent: values.agent };
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  if (argv[0] === "run") {
    const { runMain } = await import("./run.js");
    return runMain(argv.slice(1), io);
  }
  if (argv[0] === "share" || argv[0] === "open") {
    const { shareMain, openMain } = await import("./share.js");
    // Their messages quote links and shared names: every one goes out printable, errors included.
    io = printableIO(io);
    try {
      return await (argv[0] === "share" ? shareMain : openMain)(argv.slice(1), io);
    } catch (error) {
      if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
        io.err(`workbench: ${(error as Error).message}\n${USAGE}\n`);
        return 2;
      }
      io.err(`workbench: ${errorMessage(error)}\n`);
      return 1;
    }
  }
  if (argv[0] === "undo") {
    const { undoMain, UNDO_USAGE } = await import("./undo.js");
    try {
      return await undoMain(argv.slice(1), io);
    } catch (error) {
      if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
        io.err(`workbench: ${(error as Error).message}\n${UNDO_USAGE}\n`);
        return 2;
      }
      io.err(`workbench: ${errorMessage(error)}\n`);
      return 1;
    }
  }
  if (argv[0] === "rg") {
    const { rgMain } = await import("./rg.js");
    const { createNodeRuntime } = await import("../runtime/node/index.js");
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
      const { openSession, connectMcp } = await import("./cli-session.js");
      const { session, finish } = await openSession(common(values), io);
      await connectMcp(session, io);
      if (!session.registry.get(id) || id === "invalid") {
        const available = session.registry.ids().filter((t) => t !== "invalid");
        await finish();
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
      const text =
        file === "-"
          ? await io.stdin()
          : await readFile(file, "utf8").catch((error: unknown) => {
              throw new UsageError(`cannot read ${file}: ${errorMessage(error)}`);
            });
      const { CallListError, parseCallList } = await import("../session/record/call-list.js");
      let calls: ListedCall[];
      try {
        calls = parseCallList(text, file === "-" ? "standard input" : file);
      } catch (error) {
        if (error instanceof CallListError) throw new UsageError(error.message);
        throw error;
      }
      const { openSession } = await import("./cli-session.js");
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
      const { openSession } = await import("./cli-session.js");
      const { session, finish } = await openSession(common(values), io);
      const explanation = session.explain(permission, pattern);
      await finish();
      io.out(`${explanation.known ? "unknown" : explanation.action}\n${explanation.sentence}\n`);
      return 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`workbench: ${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    io.err(`workbench: ${errorMessage(error)}\n`);
    return 1;
  }
}
