/**
 * What a large install says while it runs: lines on stderr, at most about twenty for any size of tree, so
 * the card, the terminal and the model see it moving without the output filling up with a bar's frames.
 * Real npm draws a progress bar on a terminal and nothing when stderr goes elsewhere; this npm writes lines
 * only when its stderr reaches the caller live (live-output.ts), for the same reason.
 */

/** Where a progress line goes (already ending in a newline). */
export type ProgressSink = (line: string) => void;

/** A line every this many packuments read while the tree is worked out (its size is not known yet). */
const RESOLVE_STEP = 25;
/** Fetch and unpack counts are told at each tenth of the way. */
const STEPS = 10;
/** Below this many packages an install ends before a line would tell anyone anything. */
const MIN_PACKAGES = 20;

/** Counts one phase (fetched or unpacked) and says so at each tenth of its total. */
interface PhaseCounter {
  done(): void;
}

export class InstallProgress {
  private resolved = 0;

  constructor(private readonly sink: ProgressSink | undefined) {}

  /** A packument was read (from the registry or the cache) while resolving. */
  packumentRead(): void {
    if (!this.sink) return;
    this.resolved++;
    if (this.resolved % RESOLVE_STEP === 0) this.sink(`npm progress: resolved ${this.resolved} packages\n`);
  }

  /** A counter for `total` packages going through `verb` ("fetched", "unpacked"); silent for a small install. */
  phase(verb: string, total: number): PhaseCounter {
    const sink = this.sink;
    if (!sink || total < MIN_PACKAGES) return { done() {} };
    let count = 0;
    let told = 0;
    return {
      done() {
        count++;
        const step = Math.floor((count * STEPS) / total);
        if (step > told) {
          told = step;
          sink(`npm progress: ${verb} ${count} of ${total} packages\n`);
        }
      },
    };
  }
}
