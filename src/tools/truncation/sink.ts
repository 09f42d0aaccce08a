/**
 * Streaming truncation: a producer (a bash command printing hundreds of megabytes) writes its output in
 * chunks; every byte goes through to the saved file, while memory holds only what the preview can show
 * plus counters. finish() returns exactly what truncateOutput would return for the concatenated chunks
 * (only the saved file's name differs), and leaves no file when the output fit within the limits.
 */
import { cutMark, MAX_SAVED_BYTES } from "./constants.js";
import { formatTruncated } from "./notice.js";
import { resolveLimits, type TruncationHint, type TruncationLimits, type TruncationOptions } from "./options.js";
import { createPreview } from "./create-preview.js";
import type { Preview } from "./preview.js";
import type { OpenOptions, OutputStore } from "./store.js";
import type { TruncationResult } from "./truncate.js";
import { countNewlines, isHighSurrogate, utf8Length } from "./utf8.js";
import type { OutputWriter } from "./writer.js";

export interface TruncationSinkOptions extends TruncationOptions, OpenOptions {
  /** The most bytes saved to the file; the rest is counted but not saved (default MAX_SAVED_BYTES). */
  maxSavedBytes?: number;
}

const encoder = new TextEncoder();

export class TruncationSink {
  private readonly limits: TruncationLimits;
  private readonly preview: Preview;
  private readonly writer: OutputWriter;
  private newlines = 0;
  /**
   * A high surrogate that ended the last chunk, held until the next chunk: its low half may start that
   * chunk, and the pair must be counted (4 bytes) and encoded together, not as two U+FFFD (3 + 3).
   */
  private carry = "";
  private finished = false;
  /** UTF-8 bytes accepted, saved or not. */
  private accepted = 0;
  private readonly maxSaved: number;

  constructor(
    store: OutputStore,
    options: TruncationSinkOptions,
    private readonly hint: TruncationHint,
  ) {
    this.limits = resolveLimits(options);
    this.preview = createPreview(this.limits);
    this.writer = store.open({ batchBytes: options.batchBytes });
    this.maxSaved = options.maxSavedBytes ?? MAX_SAVED_BYTES;
  }

  /** Where the full output is (or would be) saved. */
  get outputPath(): string {
    return this.writer.path;
  }

  /** Lines seen so far, counted as truncation counts them ("\n" + 1). */
  get lines(): number {
    return this.newlines + 1;
  }

  /** UTF-8 bytes accepted so far, whether saved or past the cap. */
  get bytes(): number {
    return this.accepted;
  }

  /** Whether the saved copy stops short of the output (it passed the cap). */
  get cut(): boolean {
    return this.accepted > this.maxSaved;
  }

  /**
   * Adds a chunk. Await it to keep memory bounded: it resolves once the chunk is buffered, waiting while
   * a batch is being written. Rejects if saving the output failed (the runtime's error, e.g. ENOSPC).
   */
  write(chunk: string): Promise<void> {
    if (this.finished) return Promise.reject(new Error("the truncation sink is already finished"));
    let text = this.carry.length > 0 ? this.carry + chunk : chunk;
    this.carry = "";
    if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text.length === 0) return Promise.resolve();
    const saved = this.accepted;
    this.accept(text);
    return this.save(text, saved);
  }

  /** Saves what still fits under the cap; `saved` is how many bytes were accepted before `text`. */
  private save(text: string, saved: number): Promise<void> {
    const room = this.maxSaved - saved;
    if (room <= 0) return Promise.resolve();
    if (this.accepted <= this.maxSaved) return this.writer.write(text);
    // encodeInto stops before a character that would not fit whole, so the saved part stays valid UTF-8.
    const { read } = encoder.encodeInto(text, new Uint8Array(room));
    return this.writer.write(text.slice(0, read));
  }

  /** The output has ended: the model's view of it, and the saved file when it was truncated. */
  async finish(): Promise<TruncationResult> {
    if (this.finished) throw new Error("the truncation sink is already finished");
    if (this.carry.length > 0) {
      // A high surrogate that ends the output is a lone one: U+FFFD, as when the whole text is encoded.
      const saved = this.accepted;
      this.accept(this.carry);
      void this.save(this.carry, saved);
      this.carry = "";
    }
    this.finished = true;
    const outcome = this.preview.end(this.lines);
    try {
      await this.writer.settle();
    } catch (error) {
      await this.writer.discard().catch(() => undefined);
      throw error;
    }
    const totalBytes = this.accepted;
    const totalLines = this.lines;
    const { maxLines, maxBytes, direction } = this.limits;
    if (totalLines <= maxLines && totalBytes <= maxBytes) {
      // Within the limits the preview is the whole output, and a saved copy would only be litter.
      await this.writer.discard();
      return { content: outcome.lines.join("\n"), truncated: false };
    }
    const savedBytes = this.cut ? this.writer.bytes : undefined;
    try {
      if (savedBytes !== undefined) await this.writer.write(cutMark(savedBytes, totalBytes));
      await this.writer.close();
    } catch (error) {
      // A partly written copy would pass for the full output later: remove it and report the failure.
      await this.writer.discard().catch(() => undefined);
      throw error;
    }
    const removed = outcome.hitBytes ? totalBytes - outcome.keptBytes : totalLines - outcome.lines.length;
    const outputPath = this.writer.path;
    const content = formatTruncated({
      preview: outcome.lines.join("\n"),
      removed,
      unit: outcome.hitBytes ? "bytes" : "lines",
      direction,
      outputPath,
      hint: this.hint,
      savedBytes,
    });
    return { content, truncated: true, outputPath };
  }

  /** Gives up on the output (the call failed or was thrown away): removes the file if it was started. */
  async discard(): Promise<void> {
    this.finished = true;
    this.carry = "";
    await this.writer.discard();
  }

  private accept(text: string): void {
    this.accepted += utf8Length(text);
    this.newlines += countNewlines(text);
    this.preview.push(text);
  }
}
