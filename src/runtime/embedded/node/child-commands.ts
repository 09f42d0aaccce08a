/**
 * The shell's side of a program's child_process: each `exec` request writes the program's changes into the
 * workspace, runs the command line in the same embedded shell (the child reaches what any command there
 * reaches, under the same limits), and answers with the child's exit, output and the files it changed, so
 * the program sees them. Ending the program (its exit, Stop, the call's timeout) ends its children.
 */
import type { FileChanges, FromRuntime, SnapshotEntry, ToRuntime } from "./protocol.js";
import type { WorkspaceFs } from "../workspace-fs.js";
import { applyChanges, takeSnapshot } from "./snapshot.js";
import type { SnapshotSource } from "./warm-sandboxes.js";
import { withoutMarker } from "../live-output.js";
import { writeSyncReply } from "./sync-reply.js";

/** Runs a command line in the embedded shell: the shell's own exec, as `npm run` uses it. */
export type ShellRun = (
  command: string,
  options: { cwd: string; env: Record<string, string>; stdin: Uint8Array; signal: AbortSignal },
) => Promise<{ exitCode: number; stdout: string; stderr: string }>;

/** Where the children's files are: the part of the node command's host they need. */
export interface ChildFiles {
  files: WorkspaceFs;
  roots: string[];
  snapshot?: SnapshotSource;
}

/** At most this many children of one program run at once; the others wait their turn. */
const CONCURRENT_CHILDREN = 4;

const encoder = new TextEncoder();
const NO_CHANGES: FileChanges = { directories: [], files: [], removed: [] };

function sameEntry(a: SnapshotEntry, b: SnapshotEntry): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "symlink") return a.target === (b as typeof a).target;
  if (a.kind === "directory") return true;
  const other = b as typeof a;
  if (a.mode !== other.mode || a.data.byteLength !== other.data.byteLength) return false;
  for (let i = 0; i < a.data.byteLength; i++) if (a.data[i] !== other.data[i]) return false;
  return true;
}

/** What turned `before` into `after`: new directories parents first, removals children first. */
function diffSnapshots(before: readonly SnapshotEntry[], after: readonly SnapshotEntry[]): FileChanges {
  const old = new Map(before.map((entry) => [entry.path, entry]));
  const now = new Map(after.map((entry) => [entry.path, entry]));
  const changes: FileChanges = { directories: [], files: [], removed: [] };
  for (const [path, entry] of now) {
    const was = old.get(path);
    if (was && sameEntry(was, entry)) continue;
    if (was && was.kind !== entry.kind) changes.removed.push(path);
    if (entry.kind === "directory") changes.directories.push(path);
    else changes.files.push(entry);
  }
  for (const path of old.keys()) if (!now.has(path)) changes.removed.push(path);
  changes.removed.sort((a, b) => b.length - a.length);
  changes.directories.sort((a, b) => a.length - b.length);
  return changes;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface ChildCommands {
  handle(message: FromRuntime): boolean;
  /** Settles once the program's changes sent with its commands so far are in the workspace. */
  written(): Promise<void>;
  /** Ends every child still running (the program is over). */
  stop(): void;
}

/** Serves one program's child_process requests; `post` answers the program. */
export function serveChildCommands(
  host: ChildFiles,
  shell: ShellRun | undefined,
  post: (message: ToRuntime, transfer?: Transferable[]) => void,
): ChildCommands {
  const running = new Map<number, AbortController>();
  let active = 0;
  const queue: Array<() => void> = [];
  let stopped = false;
  // The whole tree before and after a child (the file host's cache answers without reading it again).
  const snapshot = async (roots: string[]): Promise<SnapshotEntry[]> => {
    const reply = host.snapshot ? await host.snapshot(roots) : undefined;
    return reply?.files.kind === "full" ? reply.files.entries : takeSnapshot(host.files, roots);
  };

  // The program's changes go into the workspace in the order it sent them, whether or not its child waits.
  let writes: Promise<void> = Promise.resolve();

  async function run(message: Extract<FromRuntime, { kind: "exec" }>, control: AbortController, written: Promise<void>): Promise<void> {
    let timedOut = false;
    const answer = (result: Omit<Extract<ToRuntime, { kind: "exec-result" }>, "kind" | "id">) => {
      if (stopped) return;
      if (message.reply) return writeSyncReply(message.reply, { ...result, timedOut });
      const transfer = result.changes.files.flatMap((entry) => (entry.kind === "file" ? [entry.data.buffer as ArrayBuffer] : []));
      post({ kind: "exec-result", id: message.id, ...result }, [...new Set(transfer)]);
    };
    const failed = (text: string, exitCode: number) =>
      answer({ exitCode, stdout: new Uint8Array(0), stderr: encoder.encode(text), changes: NO_CHANGES });
    await written;
    if (!shell) return failed("node: child_process needs the embedded shell, which this program was not started from\n", 127);
    // A child cannot take over the caller's live output: the marker stays the shell's.
    const env = withoutMarker(message.env);
    const options = { cwd: message.cwd, env, stdin: message.stdin, signal: control.signal };
    if (message.file !== undefined) {
      const found = await shell(`command -v ${quote(message.file)}`, { ...options, stdin: new Uint8Array(0) });
      if (found.exitCode !== 0)
        return answer({ exitCode: -2, stdout: new Uint8Array(0), stderr: new Uint8Array(0), notFound: true, changes: NO_CHANGES });
    }
    const before = await snapshot(host.roots);
    const timer = message.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          control.abort();
        }, message.timeoutMs)
      : undefined;
    const result = await shell(message.command, options).finally(() => clearTimeout(timer));
    const after = await snapshot(host.roots);
    answer({
      exitCode: control.signal.aborted ? 143 : result.exitCode,
      stdout: encoder.encode(result.stdout),
      stderr: encoder.encode(result.stderr),
      changes: diffSnapshots(before, after),
    });
  }

  function next(): void {
    while (active < CONCURRENT_CHILDREN && queue.length > 0) queue.shift()!();
  }

  return {
    handle(message) {
      if (message.kind === "exec-kill") {
        running.get(message.id)?.abort();
        return true;
      }
      if (message.kind !== "exec") return false;
      const control = new AbortController();
      running.set(message.id, control);
      const written = writes.then(() => applyChanges(host.files, message.changes, host.roots));
      writes = written.catch(() => {});
      queue.push(() => {
        active++;
        run(message, control, written)
          .catch((error: unknown) => {
            const text = `node: the child command failed: ${error instanceof Error ? error.message : String(error)}\n`;
            const failure = { exitCode: 1, stdout: new Uint8Array(0), stderr: encoder.encode(text), changes: NO_CHANGES };
            if (stopped) return;
            if (message.reply) writeSyncReply(message.reply, failure);
            else post({ kind: "exec-result", id: message.id, ...failure });
          })
          .finally(() => {
            active--;
            running.delete(message.id);
            next();
          });
      });
      next();
      return true;
    },
    written: () => writes,
    stop() {
      stopped = true;
      queue.length = 0;
      for (const control of running.values()) control.abort();
    },
  };
}
