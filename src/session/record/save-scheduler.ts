/**
 * Saves a session while it changes without writing on every change: a change schedules one save a little
 * later (later changes ride along), `flush` saves now, for the moments that must not be lost (a message's
 * end, the run's end, a call's answer), and `stop` drops a save still due. The store coalesces writes in
 * flight on top of this. The chat saves its session this way as the model streams, and the page's tool
 * host as its calls run.
 */
import { SaveLater } from "../../base/save-later.js";
import type { SessionRecord } from "./session-record.js";
import type { SessionStore } from "./session-store.js";

export class SaveScheduler {
  private readonly later: SaveLater;

  constructor(
    private readonly store: SessionStore | undefined,
    /** The session to save, read when the save happens (a page's record can be replaced meanwhile). */
    private readonly session: () => SessionRecord,
    delayMs = 250,
  ) {
    this.later = new SaveLater(() => void this.saveNow(), delayMs);
  }

  touch(): void {
    if (this.store) this.later.touch();
  }

  async flush(): Promise<void> {
    this.later.stop();
    await this.saveNow();
  }

  stop(): void {
    this.later.stop();
  }

  private async saveNow(): Promise<void> {
    await this.store?.save(this.session()).catch((error: unknown) => console.error("could not save the session:", error));
  }
}
