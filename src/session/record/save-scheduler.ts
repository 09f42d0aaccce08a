/**
 * Saves a session while it streams without writing on every delta: a change schedules one save a little
 * later (later changes ride along), and `flush` saves now, for the moments that must not be lost (a
 * message's end, the run's end). The store coalesces writes in flight on top of this.
 */
import type { SessionRecord } from "./session-record.js";
import type { SessionStore } from "./session-store.js";

export class SaveScheduler {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: SessionStore | undefined,
    private readonly session: SessionRecord,
    private readonly delayMs = 250,
  ) {}

  touch(): void {
    if (!this.store || this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.store?.save(this.session).catch((error: unknown) => console.error("could not save the session:", error));
  }
}
