/**
 * The tail preview, streaming. OpenCode walks back from the last line, keeping lines while fewer than
 * maxLines are kept and the bytes (with their joining "\n") fit in maxBytes. Both limits only grow with
 * each extra line, so the result is the longest suffix of lines that satisfies them, and the longest
 * valid suffix after one more line is always a suffix of the previous one plus that line. Hence a rolling
 * window: append each complete line, then drop lines from the front until the limits hold again.
 */
import { LineBuffer } from "./line-buffer.js";
import type { Preview, PreviewOutcome } from "./preview.js";

export class TailPreview implements Preview {
  // A queue as two arrays and a start index: shift() on a long array is linear, this is constant.
  private lines: string[] = [];
  private sizes: number[] = [];
  private start = 0;
  /** Bytes of the lines in the window, without the "\n" between them. */
  private windowBytes = 0;
  private readonly current: LineBuffer;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {
    // A line over maxBytes can never be shown, nor anything before it, so its text need not be kept.
    this.current = new LineBuffer(maxBytes);
  }

  push(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.current.add(start === 0 ? text : text.slice(start));
        if (this.current.dropped) this.clearWindow(); // everything before an oversized line is cut too
        return;
      }
      this.current.add(text.slice(start, newline));
      this.completeLine();
      start = newline + 1;
    }
  }

  end(totalLines: number): PreviewOutcome {
    this.completeLine(); // the last line, which has no "\n" after it
    const count = this.count();
    // OpenCode stops for bytes only if neither the lines ran out nor maxLines lines were kept.
    const hitBytes = count < totalLines && count < this.maxLines;
    const keptBytes = this.windowBytes + Math.max(0, count - 1);
    return { lines: this.lines.slice(this.start), keptBytes, hitBytes };
  }

  private count(): number {
    return this.lines.length - this.start;
  }

  private completeLine(): void {
    const dropped = this.current.dropped;
    const bytes = this.current.bytes;
    const text = this.current.take();
    if (dropped) {
      this.clearWindow();
      return;
    }
    this.lines.push(text);
    this.sizes.push(bytes);
    this.windowBytes += bytes;
    while (this.count() > 0 && (this.count() > this.maxLines || this.windowBytes + this.count() - 1 > this.maxBytes)) {
      this.windowBytes -= this.sizes[this.start]!;
      this.start++;
    }
    // Reclaim the dropped front once it is most of the arrays, so memory follows the window, not the output.
    if (this.start > 1024 && this.start * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.start);
      this.sizes = this.sizes.slice(this.start);
      this.start = 0;
    }
  }

  private clearWindow(): void {
    if (this.count() === 0) return;
    this.lines = [];
    this.sizes = [];
    this.start = 0;
    this.windowBytes = 0;
  }
}
