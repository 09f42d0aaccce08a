/**
 * Replays a saved list of calls into a session, one at a time: each call starts only once the one
 * before it has ended, so a call that asks for permission holds the rest until it is answered.
 */
import type { ListedCall } from "../session/record/call-list.js";
import type { ToolCall } from "../session/record/session-record.js";

/** The part of PageTools a replay drives. */
export interface CallStarter {
  start(tool: string, args: Record<string, unknown>): { call: ToolCall; done: Promise<ToolCall> };
  abort(callID: string): boolean;
}

export interface ReplayProgress {
  /** 1-based position of the call running now (or of the last one run, once over). */
  position: number;
  total: number;
}

export interface ReplayOutcome {
  calls: ToolCall[];
  /** Stopped before the end of the list. */
  stopped: boolean;
}

export async function replayCalls(
  target: CallStarter,
  list: readonly ListedCall[],
  options: { signal?: AbortSignal; onProgress?: (progress: ReplayProgress) => void } = {},
): Promise<ReplayOutcome> {
  const { signal, onProgress } = options;
  const calls: ToolCall[] = [];
  for (const [index, entry] of list.entries()) {
    if (signal?.aborted) return { calls, stopped: true };
    onProgress?.({ position: index + 1, total: list.length });
    const { call, done } = target.start(entry.tool, entry.args);
    calls.push(call);
    // Stopping the replay stops the call under way too, and its prompt with it.
    const stop = () => target.abort(call.id);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      await done;
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  }
  return { calls, stopped: signal?.aborted === true };
}
