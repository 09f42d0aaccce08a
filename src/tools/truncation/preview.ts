/**
 * What a streaming preview keeps while an output flows past: only the lines the final preview can contain.
 * Two strategies, one per direction (head-preview.ts, tail-preview.ts), behind one interface;
 * `createPreview` picks one.
 */

export interface PreviewOutcome {
  /** The kept lines, in output order. */
  lines: string[];
  /** Their UTF-8 size including the "\n" between them (OpenCode's `bytes`). */
  keptBytes: number;
  /** Whether the byte limit (rather than the line limit) ended the preview: it picks the unit. */
  hitBytes: boolean;
}

export interface Preview {
  /**
   * Feeds the next piece of output. A piece never ends between the two halves of a surrogate pair, so
   * counting its bytes on its own adds up to the bytes of the whole.
   */
  push(text: string): void;
  /** The output has ended; `totalLines` is its line count ("\n" count + 1). */
  end(totalLines: number): PreviewOutcome;
}
