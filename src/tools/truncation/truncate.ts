/**
 * Whole-text truncation: OpenCode's algorithm on a string that is already in memory. The streaming sink
 * (sink.ts) must give the same text for the same output; this file is the reference it is tested against,
 * so it stays a plain transcription of the rules rather than sharing code with the sink.
 */
import { formatTruncated } from "./notice.js";
import { resolveLimits, type TruncationHint, type TruncationOptions } from "./options.js";
import type { OutputStore } from "./store.js";
import { utf8Length } from "./utf8.js";

/** Untouched outputs carry no `outputPath` key at all, as in OpenCode (metadata is built from it). */
export type TruncationResult = { content: string; truncated: false } | { content: string; truncated: true; outputPath: string };

export async function truncateOutput(
  text: string,
  options: TruncationOptions,
  store: OutputStore,
  hint: TruncationHint,
): Promise<TruncationResult> {
  const { maxLines, maxBytes, direction } = resolveLimits(options);
  // A trailing "\n" makes a last, empty line: that is how OpenCode counts, and so the sink counts too.
  const lines = text.split("\n");
  const totalBytes = utf8Length(text);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return { content: text, truncated: false };

  const kept: string[] = [];
  let keptBytes = 0;
  let hitBytes = false;
  if (direction === "head") {
    for (let i = 0; i < lines.length && i < maxLines; i++) {
      const line = lines[i]!;
      const size = utf8Length(line) + (i > 0 ? 1 : 0); // the "\n" joining it to the line before
      if (keptBytes + size > maxBytes) {
        hitBytes = true;
        break;
      }
      kept.push(line);
      keptBytes += size;
    }
  } else {
    const reversed: string[] = [];
    for (let i = lines.length - 1; i >= 0 && reversed.length < maxLines; i--) {
      const line = lines[i]!;
      const size = utf8Length(line) + (reversed.length > 0 ? 1 : 0);
      if (keptBytes + size > maxBytes) {
        hitBytes = true;
        break;
      }
      reversed.push(line);
      keptBytes += size;
    }
    for (let i = reversed.length - 1; i >= 0; i--) kept.push(reversed[i]!);
  }

  // Whichever limit stopped the preview names the unit: a byte cut is reported in bytes, a line cut in lines.
  const removed = hitBytes ? totalBytes - keptBytes : lines.length - kept.length;
  const outputPath = await store.save(text);
  const content = formatTruncated({
    preview: kept.join("\n"),
    removed,
    unit: hitBytes ? "bytes" : "lines",
    direction,
    outputPath,
    hint,
  });
  return { content, truncated: true, outputPath };
}
