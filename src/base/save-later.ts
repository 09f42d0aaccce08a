/**
 * Saves a little after the first change rather than on every change: later changes ride along with the
 * save already due, `flush` saves now (a page going away, a message's end), `stop` drops a save still due.
 * What is saved is read when the save runs, so the last state is the one written.
 */
export class SaveLater {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly save: () => void,
    private readonly delayMs: number,
  ) {}

  touch(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    this.stop();
    this.save();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
