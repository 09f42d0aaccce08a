/**
 * One file's history in the page, read from the workspace's checkpoints: its versions by call (or by hand,
 * or by an undo), the text of each, a diff from a version to the file as it is now, and restoring one.
 * Restoring is the person's own edit: it writes through the checked write (no link on the way, and only
 * if the file is still what the diff was made against), and the next checkpoint records it as by hand.
 */
import { createTwoFilesPatch } from "diff";
import { errorMessage } from "../base/error-message.js";
import { fingerprint } from "../runtime/fingerprint.js";
import type { Runtime } from "../runtime/types.js";
import type { Checkpoints, FileVersion } from "../workspace/checkpoints/checkpoints.js";
import { isByHand } from "../workspace/checkpoints/types.js";

export interface FileHistoryVersion {
  /** The checkpoint that made this version. */
  seq: number;
  time: number;
  /** Who made it, in words: "write call call_1", "an edit by hand", "an undo". */
  by: string;
  byHand: boolean;
  /** What the version is: the file's content (its hash), a deletion, or something that is not a file. */
  state: { kind: "file"; hash: string; size: number } | { kind: "deleted" } | { kind: "other"; what: string };
}

export type RestoreOutcome = { status: "restored" } | { status: "refused"; message: string };

const decoder = new TextDecoder("utf-8", { fatal: true });

function byWhom(version: FileVersion): string {
  const cause = version.cause;
  switch (cause.kind) {
    case "call":
      return `${cause.tool ?? "tool"} call ${cause.callID}`;
    case "baseline":
      return "the workspace as first seen";
    case "restore":
      return "an undo or redo";
    case "revert":
      return `the revert of call ${cause.callID}`;
    default:
      return "an edit by hand";
  }
}

function stateOf(version: FileVersion): FileHistoryVersion["state"] {
  const after = version.after;
  if (after === null) return { kind: "deleted" };
  if (after.type === "file") return { kind: "file", hash: after.hash, size: after.size };
  return { kind: "other", what: after.type === "directory" ? "a folder" : `a link to ${after.target}` };
}

/** Text of some bytes, or undefined when they are not UTF-8 text (a binary file has no diff to show). */
function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

export class FileHistory {
  constructor(
    private readonly runtime: Runtime,
    private readonly checkpoints: Checkpoints,
    /** The file's absolute path in the runtime. */
    private readonly path: string,
  ) {}

  private relative(): string | undefined {
    const root = this.runtime.root;
    return this.path.startsWith(`${root}/`) ? this.path.slice(root.length + 1) : undefined;
  }

  /** Newest first: every recorded state of the file. A file outside the workspace has none. */
  versions(): FileHistoryVersion[] {
    const relative = this.relative();
    if (relative === undefined) return [];
    return this.checkpoints
      .history(relative)
      .map((version) => ({
        seq: version.seq,
        time: version.time,
        by: byWhom(version),
        byHand: isByHand(version.cause),
        state: stateOf(version),
      }))
      .reverse();
  }

  /** The file as it is now: its bytes, or undefined when it is absent. */
  private async current(): Promise<Uint8Array | undefined> {
    try {
      return await this.runtime.fs.readFile(this.path, { noFollow: true });
    } catch {
      return undefined;
    }
  }

  /**
   * A unified diff from the version to the file as it is now ("" when they are the same), or a sentence
   * saying why there is none (a deletion, a binary content); `now` is what the diff was made against,
   * for `restore` to insist on.
   */
  async compare(version: FileHistoryVersion): Promise<{ diff?: string; note?: string; now: Uint8Array | undefined }> {
    const now = await this.current();
    if (version.state.kind !== "file")
      return {
        now,
        note: version.state.kind === "deleted" ? "This version is the file deleted." : `This version is ${version.state.what}.`,
      };
    const old = textOf(await this.checkpoints.read(version.state.hash));
    const nowText = now === undefined ? "" : textOf(now);
    if (old === undefined || nowText === undefined) return { now, note: "Binary content: no diff to show." };
    const name = this.relative() ?? this.path;
    const diff = createTwoFilesPatch(`${name} (version)`, `${name} (now)`, old, nowText, undefined, undefined, { context: 3 });
    // The header alone means no difference; the "=====" rule above it says nothing to a person.
    return { now, diff: diff.split("\n").some((line) => line.startsWith("@@")) ? diff.slice(diff.indexOf("--- ")) : "" };
  }

  /**
   * Writes the version's content back, only if the file is still as it was when `seenNow` was taken
   * (so an edit made meanwhile by a tool or the terminal is not overwritten unseen).
   */
  async restore(version: FileHistoryVersion, seenNow: Uint8Array | undefined): Promise<RestoreOutcome> {
    if (version.state.kind !== "file") return { status: "refused", message: "Only a version that is a file can be restored." };
    const bytes = await this.checkpoints.read(version.state.hash);
    try {
      await this.runtime.fs.writeFileAtomic(this.path, bytes, {
        expect: seenNow === undefined ? "absent" : fingerprint(seenNow),
        makeParents: true,
      });
      return { status: "restored" };
    } catch (error) {
      return { status: "refused", message: `Not restored: ${errorMessage(error)}` };
    }
  }
}
