/**
 * How a long match stays stoppable. Matching one buffer is synchronous (a 1 MB line against `a{1000}{1000}`
 * can take minutes), so the engines report the work they do here, and every so much work the search's
 * `check` runs: it throws to end the match (the search's deadline passed, or another thread cancelled it
 * through shared memory).
 */
export class MatchBudget {
  private work = 0;

  constructor(
    private readonly check: () => void,
    /** Work units (NFA states visited) between two checks: about a millisecond of matching. */
    private readonly every = 1 << 16,
  ) {}

  spend(units: number): void {
    this.work += units;
    if (this.work >= this.every) {
      this.work = 0;
      this.check();
    }
  }
}
