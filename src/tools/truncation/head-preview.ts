/**
 * The head preview, streaming. OpenCode keeps line i while i < maxLines and the bytes so far, plus the
 * line and its joining "\n", fit in maxBytes; the first line that fails ends the preview for good. So the
 * preview is decided as soon as that line is known, and from then on nothing more needs to be kept: the
 * sink only counts. A line still arriving is given up as soon as it cannot fit any more.
 */
import { LineBuffer } from "./line-buffer.js";
import type { Preview, PreviewOutcome } from "./preview.js";

export class HeadPreview implements Preview {
  private readonly kept: string[] = [];
  private keptBytes = 0;
  /** Set once the preview is decided: which limit decided it. */
  private stoppedBy: "lines" | "bytes" | undefined;
  private readonly current: LineBuffer;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {
    // OpenCode's loop tests `i < maxLines` first: with no lines allowed the first line already stops it.
    if (maxLines === 0) this.stoppedBy = "lines";
    this.current = new LineBuffer(maxBytes);
  }

  push(text: string): void {
    let start = 0;
    while (this.stoppedBy === undefined) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.current.add(start === 0 ? text : text.slice(start));
        this.stopIfTooLong();
        return;
      }
      this.current.add(text.slice(start, newline));
      this.completeLine();
      // A "\n" means another line follows: if the line limit is reached, that next line is the one cut.
      if (this.stoppedBy === undefined && this.kept.length === this.maxLines) this.stoppedBy = "lines";
      start = newline + 1;
    }
  }

  end(): PreviewOutcome {
    if (this.stoppedBy === undefined) this.completeLine(); // the last line, which has no "\n" after it
    return { lines: this.kept, keptBytes: this.keptBytes, hitBytes: this.stoppedBy === "bytes" };
  }

  /** The room a line has: what is left of maxBytes after the kept lines and the "\n" before this one. */
  private room(): number {
    return this.maxBytes - this.keptBytes - (this.kept.length > 0 ? 1 : 0);
  }

  private stopIfTooLong(): void {
    if (this.current.bytes > this.room()) {
      this.stoppedBy = "bytes";
      this.current.take(); // free it: nothing of it will be shown
    }
  }

  private completeLine(): void {
    this.stopIfTooLong();
    if (this.stoppedBy !== undefined) return;
    const size = this.current.bytes + (this.kept.length > 0 ? 1 : 0);
    this.kept.push(this.current.take());
    this.keptBytes += size;
    this.current.setCap(this.room());
  }
}
