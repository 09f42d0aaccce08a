/**
 * One writer at a time against many: ordinary changes run side by side ("shared"), and an exclusive
 * section (a checked write's check-then-write) runs with none of them in flight and none starting. In the
 * page every change to the files passes through one host, so this makes a checked write one step there.
 */
export class ExclusiveGate {
  private running = 0;
  private drained: (() => void) | undefined;
  private held: Promise<void> | undefined;

  async shared<T>(run: () => Promise<T>): Promise<T> {
    while (this.held) await this.held;
    this.running++;
    try {
      return await run();
    } finally {
      if (--this.running === 0) this.drained?.();
    }
  }

  async exclusive<T>(run: () => Promise<T>): Promise<T> {
    while (this.held) await this.held;
    let open!: () => void;
    this.held = new Promise<void>((resolve) => (open = resolve));
    try {
      if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await run();
    } finally {
      this.held = undefined;
      open();
    }
  }
}
