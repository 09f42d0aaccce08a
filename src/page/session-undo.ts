/**
 * Undo in the page, over the workspace's checkpoints: "Undo from here" on a user message sets the files
 * back to before it and hands the message's text back for the prompt box. The undo is staged: the next
 * send commits it (the message and what followed leave the transcript), Redo sets the files back to what
 * they were before the undo. "Revert this call" takes one call's changes back alone, or says which later
 * calls (or hand edits) touched the same files and offers to go back to before the call instead.
 * A hand edit that an undo would take back is never lost silently: the outcome asks first.
 */
import type { Checkpoints, LaterChange } from "../workspace/checkpoints/checkpoints.js";
import type { Message } from "../session/record/message.js";

/** What undo needs of the chat: its messages, and dropping them from one on. */
export interface UndoableChat {
  messages(): readonly Message[];
  dropFrom(messageID: string): void;
}

export type UndoOutcome =
  | { status: "done"; note: string }
  /** Hand edits would be taken back: `confirm` does it anyway. */
  | { status: "needs-confirmation"; paths: string[]; confirm(): Promise<UndoOutcome> }
  /** A revert that later changes stand in the way of: `fromHere` goes back to before the call instead. */
  | { status: "conflict"; note: string; fromHere(): Promise<UndoOutcome> }
  | { status: "unavailable"; note: string };

export interface StagedUndo {
  messageID: string;
  text: string;
}

function laterLabel(later: LaterChange): string {
  const cause = later.cause;
  if (cause.kind === "call") return `call ${cause.tool ?? ""} ${cause.callID}`.replace("  ", " ");
  if (cause.kind === "revert") return `the revert of call ${cause.callID}`;
  if (cause.kind === "restore") return "an undo";
  return "an edit made by hand";
}

export class SessionUndo {
  private current: (StagedUndo & { redoTo: number }) | undefined;
  private opened: Checkpoints | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly chat: UndoableChat,
    private readonly checkpoints: Promise<Checkpoints>,
  ) {
    void checkpoints.then(
      (open) => {
        this.opened = open;
        this.changed();
      },
      () => undefined,
    );
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  staged(): StagedUndo | undefined {
    return this.current && { messageID: this.current.messageID, text: this.current.text };
  }

  /** Whether the files before this message were recorded (messages sent before checkpoints existed were not). */
  canUndoFrom(messageID: string): boolean {
    return this.opened?.messageCheckpoint(messageID) !== undefined;
  }

  canRevert(callID: string): boolean {
    const at = this.opened?.callCheckpoint(callID);
    return at !== undefined && at.changes.length > 0;
  }

  async undoFrom(messageID: string, confirm = false): Promise<UndoOutcome> {
    const checkpoints = await this.checkpoints;
    const mark = checkpoints.messageCheckpoint(messageID);
    if (!mark) return { status: "unavailable", note: "The files before this message were not recorded, so it cannot be undone." };
    // Where Redo goes back to: the files as they are now (hand edits included), unless an undo is staged already.
    await checkpoints.record({ kind: "outside" });
    const redoTo = this.current?.redoTo ?? checkpoints.head();
    const result = await checkpoints.restore(mark.seq, { confirm });
    if (result.status === "needs-confirmation") {
      return {
        status: "needs-confirmation",
        paths: result.plan.overwrites.map((change) => change.path),
        confirm: () => this.undoFrom(messageID, true),
      };
    }
    const message = this.chat.messages().find((one) => one.id === messageID);
    const text = (message?.parts ?? []).flatMap((part) => (part.type === "text" && !part.synthetic ? [part.text] : [])).join("\n");
    this.current = { messageID, text, redoTo };
    this.changed();
    const count = result.plan.writes.length;
    return { status: "done", note: `Restored ${count} path${count === 1 ? "" : "s"} to before this message.` };
  }

  async redo(confirm = false): Promise<UndoOutcome> {
    const staged = this.current;
    if (!staged) return { status: "unavailable", note: "There is no undo to redo." };
    const result = await (await this.checkpoints).restore(staged.redoTo, { confirm });
    if (result.status === "needs-confirmation") {
      return { status: "needs-confirmation", paths: result.plan.overwrites.map((change) => change.path), confirm: () => this.redo(true) };
    }
    this.current = undefined;
    this.changed();
    return { status: "done", note: "Redone: the files are back as they were before the undo." };
  }

  /** The next send commits a staged undo: the undone message and everything after it leave the transcript. */
  commit(): void {
    const staged = this.current;
    if (!staged) return;
    this.chat.dropFrom(staged.messageID);
    this.current = undefined;
    this.changed();
  }

  async revertCall(callID: string): Promise<UndoOutcome> {
    const checkpoints = await this.checkpoints;
    if (!checkpoints.callCheckpoint(callID)) return { status: "unavailable", note: "This call's changes were not recorded." };
    const result = await checkpoints.revert(callID);
    if (result.status === "conflict") {
      const labels = [...new Set(result.later.map(laterLabel))];
      const paths = [...new Set(result.later.flatMap((later) => later.paths))];
      return {
        status: "conflict",
        note: `Not reverted: ${paths.join(", ")} ${paths.length === 1 ? "was" : "were"} changed later by ${labels.join(", ")}.`,
        fromHere: () => this.restoreBeforeCall(callID),
      };
    }
    const count = result.writes.length;
    return { status: "done", note: `Reverted this call: ${count} path${count === 1 ? "" : "s"} set back.` };
  }

  private async restoreBeforeCall(callID: string, confirm = false): Promise<UndoOutcome> {
    const checkpoints = await this.checkpoints;
    const before = checkpoints.beforeCall(callID);
    if (before === undefined) return { status: "unavailable", note: "The files before this call were not recorded." };
    const result = await checkpoints.restore(before, { confirm });
    if (result.status === "needs-confirmation") {
      return {
        status: "needs-confirmation",
        paths: result.plan.overwrites.map((change) => change.path),
        confirm: () => this.restoreBeforeCall(callID, true),
      };
    }
    const count = result.plan.writes.length;
    return { status: "done", note: `Reverted from this call on: ${count} path${count === 1 ? "" : "s"} set back.` };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

const undoByChat = new WeakMap<UndoableChat, SessionUndo>();

/** The undo of a chat's session over its workspace's checkpoints (one per chat, kept while the chat is). */
export function sessionUndoFor(chat: UndoableChat, checkpoints: Promise<Checkpoints> | undefined): SessionUndo | undefined {
  if (!checkpoints) return undefined;
  let undo = undoByChat.get(chat);
  if (!undo) undoByChat.set(chat, (undo = new SessionUndo(chat, checkpoints)));
  return undo;
}
