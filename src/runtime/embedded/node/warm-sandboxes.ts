/**
 * Keeps one node sandbox ready ahead of the next program, with the workspace's files already loaded into
 * it: the sandbox starts as soon as a program takes the previous one (a thread, the runtime's script
 * evaluated), and is sent the files once that program is over and its changes are written, while nothing
 * runs. The next program then sends only what changed since (the file host's snapshot cache counts
 * versions), so a short program costs a few messages, not a copy of the workspace. Each sandbox still
 * serves one program only: a fresh realm per program, with nothing of the one before.
 */
import type { Sandbox, SandboxFactory } from "../sandbox/contract.js";
import type { SnapshotReply } from "../fs-rpc.js";
import type { ProgramFiles, SnapshotEntry, SnapshotVersion, ToRuntime } from "./protocol.js";

export type SnapshotSource = (roots: string[], since?: SnapshotVersion) => Promise<SnapshotReply>;

interface Spare {
  sandbox: Sandbox;
  /** The files it was preloaded with, when it was. */
  version?: SnapshotVersion;
  /** Set when it died while waiting (out of memory loading a large workspace): a program must not be given it. */
  crashed: { value: boolean };
}

/** The buffers of the entries' bytes, to move them rather than copy them (each snapshot's are its own). */
export function transferOf(entries: readonly SnapshotEntry[]): ArrayBuffer[] {
  const buffers = entries.flatMap((entry) =>
    entry.kind === "file" && entry.data.byteOffset === 0 && entry.data.byteLength === entry.data.buffer.byteLength
      ? [entry.data.buffer as ArrayBuffer]
      : [],
  );
  return [...new Set(buffers)];
}

export class WarmSandboxes {
  private spare: Promise<Spare> | undefined;

  constructor(
    private readonly open: SandboxFactory,
    private readonly source: SnapshotSource,
  ) {}

  /** A sandbox for a program, and the files to send it with the run. */
  async take(roots: string[]): Promise<{ sandbox: Sandbox; files: ProgramFiles }> {
    const ready = this.spare;
    // The next one starts now; it is given the files once this program is done (refill).
    this.spare = this.start();
    let spare = await ready?.catch(() => undefined);
    if (spare?.crashed.value) {
      spare.sandbox.terminate();
      spare = undefined;
    }
    spare ??= { sandbox: await this.open("node"), crashed: { value: false } };
    try {
      const reply = await this.source(roots, spare.version);
      return { sandbox: spare.sandbox, files: reply.files };
    } catch (error) {
      spare.sandbox.terminate();
      throw error;
    }
  }

  /** After a program (its changes written): the waiting sandbox is loaded with the files as they are now. */
  refill(roots: string[]): void {
    const waiting = this.spare;
    if (!waiting) return;
    const filled = waiting.then(async (spare) => {
      if (spare.version) return spare;
      try {
        const reply = await this.source(roots);
        // A source without versions cannot say what changed later: such a sandbox stays empty.
        if (!reply.version || reply.files.kind !== "full") return spare;
        const entries = reply.files.entries;
        spare.sandbox.endpoint.post({ kind: "preload", snapshot: entries, roots } satisfies ToRuntime, transferOf(entries));
        return { ...spare, version: reply.version };
      } catch {
        return spare;
      }
    });
    this.spare = filled;
    // A failed start is forgotten; the next program starts its own.
    filled.catch(() => {
      if (this.spare === filled) this.spare = undefined;
    });
  }

  private start(): Promise<Spare> {
    const started = this.open("node").then((raw) => {
      const crashed = { value: false };
      // A crash after a program took it but before the program listens is kept for the program's handler.
      let message: string | undefined;
      let handler: ((message: string) => void) | undefined;
      raw.onCrash((why) => {
        crashed.value = true;
        message = why;
        handler?.(why);
      });
      const sandbox: Sandbox = {
        endpoint: raw.endpoint,
        terminate: () => raw.terminate(),
        onCrash(next) {
          handler = next;
          if (message !== undefined) next(message);
        },
      };
      return { sandbox, crashed };
    });
    started.catch(() => {
      if (this.spare === started) this.spare = undefined;
    });
    return started;
  }
}
