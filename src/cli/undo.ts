/**
 * `workbench undo --dir D [--session-file F] [--to CALL_ID] [--redo] [--list] [--yes]`: the folder's files
 * set back to a checkpoint recorded by `workbench run` (kept in the workbench's data folder, never in the
 * folder itself). Without --to: to before the last message (of the session in F, if given). Changes made by
 * hand since are listed and kept unless --yes.
 * Exit codes: 0 restored (or nothing to do), 1 not restored (hand edits, unknown call), 2 bad command line.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { SessionFile } from "../session/record/session-json.js";
import type { Checkpoints, PlannedWrite } from "../workspace/checkpoints/checkpoints.js";
import type { Cause, Checkpoint } from "../workspace/checkpoints/types.js";
import { openFolderCheckpoints } from "./checkpoint-folder.js";
import { dataDir, UsageError, type CliIO } from "./cli-session.js";
import { errorMessage } from "../base/error-message.js";

export const UNDO_USAGE = `usage: workbench undo --dir D [--session-file F] [--to CALL_ID] [--redo] [--list] [--yes]
  (no --to)        the files as they were before the last message (of the session in F, when given)
  --to CALL_ID     the files as they were before that call
  --redo           the files as they were before the last undo
  --list           the checkpoints, oldest first; nothing is changed
  --yes            also take back changes made by hand since (otherwise they are listed and kept)`;

function describe(cause: Cause): string {
  switch (cause.kind) {
    case "baseline":
      return "the files as first seen";
    case "outside":
      return "changes made outside the agent";
    case "message":
      return `before message ${cause.messageID} (session ${cause.sessionID})`;
    case "call-start":
    case "call":
      return `call ${cause.callID}${"tool" in cause && cause.tool ? ` (${cause.tool})` : ""}`;
    case "restore":
      return `undo to checkpoint ${cause.to}`;
    case "revert":
      return `revert of call ${cause.callID}`;
  }
}

function writeLine(write: PlannedWrite): string {
  const sign = write.to === null ? "-" : write.from === null ? "+" : "~";
  return `  ${sign} ${write.path}`;
}

async function sessionOf(file: string): Promise<{ id: string; calls: Set<string> }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--session-file ${file} could not be read as JSON: ${errorMessage(error)}`);
  }
  const parsed = SessionFile.safeParse(data);
  if (!parsed.success) throw new UsageError(`--session-file ${file} is not a session file written by workbench run --session-file`);
  const calls = new Set<string>();
  const collect = (body: { calls: Array<{ id: string }>; children?: unknown[] }) => {
    for (const call of body.calls) calls.add(call.id);
    for (const child of body.children ?? []) collect(child as typeof body);
  };
  collect(parsed.data.session);
  return { id: parsed.data.session.id, calls };
}

function pickTarget(
  checkpoints: Checkpoints,
  args: { to?: string; redo: boolean },
  session?: { id: string; calls: Set<string> },
): Checkpoint {
  const list = checkpoints.list();
  if (args.to !== undefined) {
    if (session && !session.calls.has(args.to)) throw new UsageError(`call ${args.to} is not in the session file`);
    const before = checkpoints.beforeCall(args.to);
    if (before === undefined) throw new UsageError(`no checkpoint of call ${args.to} for this folder (was it run here by workbench run?)`);
    return list.find((checkpoint) => checkpoint.seq === before)!;
  }
  if (args.redo) {
    const undo = list.findLast((checkpoint) => checkpoint.cause.kind === "restore");
    if (!undo) throw new UsageError("nothing to redo: no undo was made in this folder");
    return list.filter((checkpoint) => checkpoint.seq < undo.seq).at(-1)!;
  }
  const message = list.findLast(
    (checkpoint) => checkpoint.cause.kind === "message" && (!session || checkpoint.cause.sessionID === session.id),
  );
  if (!message)
    throw new UsageError(
      session ? "no message of that session was recorded for this folder" : "no message was recorded for this folder yet",
    );
  return message;
}

export async function undoMain(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dir: { type: "string" },
      "session-file": { type: "string" },
      to: { type: "string" },
      redo: { type: "boolean", default: false },
      list: { type: "boolean", default: false },
      yes: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(`${UNDO_USAGE}\n`);
    return 0;
  }
  if (!values.dir) throw new UsageError("--dir <folder> is required");
  if (values.to !== undefined && values.redo) throw new UsageError("--to and --redo go different ways: give one");
  const dir = resolve(values.dir);
  const session = values["session-file"] ? await sessionOf(resolve(values["session-file"])) : undefined;
  const checkpoints = await openFolderCheckpoints(dir, dataDir());
  if (values.list) {
    for (const checkpoint of checkpoints.list()) {
      io.out(
        `${checkpoint.seq}\t${new Date(checkpoint.time).toISOString()}\t${describe(checkpoint.cause)}\t${checkpoint.changes.length} change(s)\n`,
      );
    }
    return 0;
  }
  const target = pickTarget(checkpoints, { to: values.to, redo: values.redo }, session);
  const result = await checkpoints.restore(target.seq, { confirm: values.yes });
  if (result.status === "needs-confirmation") {
    io.err(`workbench: not undone: these files were changed by hand since, and undoing would take that back:\n`);
    for (const change of result.plan.overwrites) io.err(`  ${change.path}\n`);
    io.err(`run again with --yes to undo anyway\n`);
    return 1;
  }
  if (result.plan.writes.length === 0) {
    io.out(`nothing to undo: the files are already as they were ${describe(target.cause)}\n`);
    return 0;
  }
  io.out(`restored ${result.plan.writes.length} path(s) to checkpoint ${target.seq} (${describe(target.cause)}):\n`);
  for (const write of result.plan.writes) io.out(`${writeLine(write)}\n`);
  return 0;
}
