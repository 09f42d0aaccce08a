/**
 * The line being received: pieces of text that arrived in different chunks, with their byte count. It
 * stops keeping text once the line is too long to be kept (`cap`), since a single line can be hundreds of
 * megabytes (minified files, progress bars without "\n") and would otherwise all sit in memory.
 */
import { utf8Length } from "./utf8.js";

export class LineBuffer {
  private pieces: string[] = [];
  /** UTF-8 bytes of the line so far, counted even after its text was dropped. */
  bytes = 0;
  /** The text was dropped because the line outgrew the cap. */
  dropped = false;

  constructor(private cap: number) {}

  add(piece: string): void {
    this.bytes += utf8Length(piece);
    if (this.dropped) return;
    if (this.bytes > this.cap) {
      this.dropped = true;
      this.pieces = [];
      return;
    }
    if (piece.length > 0) this.pieces.push(piece);
  }

  /** The line's text (meaningful only when not dropped), and a reset for the next line. */
  take(): string {
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
    this.pieces = [];
    this.bytes = 0;
    this.dropped = false;
    return text;
  }

  /** Lowers the cap (the head preview has less room left as it fills); drops the text if already over. */
  setCap(cap: number): void {
    this.cap = cap;
    if (!this.dropped && this.bytes > cap) {
      this.dropped = true;
      this.pieces = [];
    }
  }
}
