/** Starting calls by hand and aborting them: one AbortController per running call. */
import type { ToolCall } from "../session/record/session-record.js";
import type { ToolSession } from "../session/host/tool-session.js";

export class CallControl {
  /** Calls the user aborted, so a call that still completed (bash keeps its output) reads as aborted. */
  private readonly abortedIDs = new Set<string>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly running = new Set<Promise<ToolCall>>();

  constructor(
    private readonly session: ToolSession,
    /** Why no call may start now (the session was closed), or undefined when one may. */
    private readonly refusal: () => string | undefined,
  ) {}

  /**
   * Starts a call and returns its record at once (the runner adds it to the session before its first
   * await), plus the promise of its end. The record is updated in place.
   */
  start(tool: string, args: Record<string, unknown>): { call: ToolCall; done: Promise<ToolCall> } {
    const refused = this.refusal();
    if (refused) throw new Error(refused);
    const controller = new AbortController();
    const calls = this.session.session.calls;
    const before = calls.length;
    const done = this.session.run(tool, args, { signal: controller.signal });
    const call = calls[before];
    if (!call) throw new Error("the session did not record the call");
    this.controllers.set(call.id, controller);
    this.running.add(done);
    void done.finally(() => {
      this.controllers.delete(call.id);
      this.running.delete(done);
    });
    return { call, done };
  }

  abort(callID: string): boolean {
    const controller = this.controllers.get(callID);
    if (!controller) return false;
    this.abortedIDs.add(callID);
    controller.abort(new Error("aborted by the user"));
    return true;
  }

  wasAborted(callID: string): boolean {
    return this.abortedIDs.has(callID);
  }

  /** A reopened session's calls keep reading as aborted where they were. */
  carryAbortedFrom(other: CallControl): void {
    for (const id of other.abortedIDs) this.abortedIDs.add(id);
  }

  /** Aborts every running call; resolves once they have all ended. */
  async abortAll(): Promise<void> {
    const running = [...this.running];
    for (const id of [...this.controllers.keys()]) this.abort(id);
    await Promise.allSettled(running);
  }
}
