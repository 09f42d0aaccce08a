/**
 * Saving a session while its calls run. The runner saves each call as it starts and as it ends; these
 * saves in between keep streamed output and answered prompts over a reload.
 */
import type { SessionRecord } from "../session/record/session-record.js";
import type { SessionStore } from "../session/record/session-store.js";

/** How often a session with a running call is saved, at most. */
export const LIVE_SAVE_INTERVAL_MS = 1000;

export class LiveSave {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: SessionStore | undefined,
    private readonly record: () => SessionRecord,
  ) {}

  /** A save within the interval, unless one is already due. */
  schedule(): void {
    if (this.timer !== undefined || !this.store) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.now();
    }, LIVE_SAVE_INTERVAL_MS);
  }

  now(): Promise<void> {
    return (
      this.store?.save(this.record()).catch((error: unknown) => console.error("could not save the session:", error)) ?? Promise.resolve()
    );
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
