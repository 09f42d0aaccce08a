import type { RuntimeFs } from "../../runtime/types.js";

export interface LineWindow {
  /** The lines asked for (each cut to maxLineLength), as many as the byte budget allowed. */
  lines: string[];
  /** Lines in the whole file; undefined when the byte budget stopped the scan early. */
  totalLines: number | undefined;
  cappedByBytes: boolean;
}

export interface LineWindowOptions {
  offset: number;
  limit: number;
  maxBytes: number;
  maxLineLength: number;
  lineSuffix: string;
  /** Bytes per ranged read. */
  chunkBytes?: number;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

/**
 * Lines `offset..offset+limit` of a file, read in ranged chunks so a window near the end of a 200 MB
 * file never holds the file in memory: bytes are scanned for newlines, and only lines in the window
 * are decoded (a very long line only up to what will be shown).
 */
export async function readLineWindow(
  fs: Pick<RuntimeFs, "read">,
  path: string,
  size: number,
  options: LineWindowOptions,
): Promise<LineWindow> {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const keepBytes = options.maxLineLength * 4 + 4; // enough for maxLineLength characters of UTF-8
  const lines: string[] = [];
  let index = 0; // the line being scanned
  let pending: Uint8Array[] = []; // bytes of the current line, if it is in the window
  let pendingLength = 0;
  let usedBytes = 0;
  let cappedByBytes = false;
  let lastByteWasNewline = true;
  const end = options.offset + options.limit;

  const finishLine = (): boolean => {
    if (index >= options.offset && index < end) {
      const bytes = new Uint8Array(pendingLength);
      let at = 0;
      for (const part of pending) {
        bytes.set(part, at);
        at += part.length;
      }
      let line = decoder.decode(bytes);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line.length > options.maxLineLength) line = line.slice(0, options.maxLineLength) + options.lineSuffix;
      const cost = new TextEncoder().encode(line).length + (lines.length > 0 ? 1 : 0);
      if (usedBytes + cost > options.maxBytes) {
        cappedByBytes = true;
        return false;
      }
      usedBytes += cost;
      lines.push(line);
    }
    pending = [];
    pendingLength = 0;
    index++;
    return true;
  };

  for (let position = 0; position < size; position += chunkBytes) {
    const chunk = await fs.read(path, { position, length: Math.min(chunkBytes, size - position) });
    if (chunk.length === 0) break;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const stop = newline === -1 ? chunk.length : newline;
      if (index >= options.offset && index < end && pendingLength < keepBytes) {
        const part = chunk.subarray(start, Math.min(stop, start + (keepBytes - pendingLength)));
        pending.push(part.slice());
        pendingLength += part.length;
      }
      if (newline === -1) break;
      if (!finishLine()) return { lines, totalLines: undefined, cappedByBytes };
      start = newline + 1;
    }
    lastByteWasNewline = chunk[chunk.length - 1] === NEWLINE;
    if (chunk.length < Math.min(chunkBytes, size - position)) break;
  }
  // A last line without a final newline is still a line; a final newline does not start one.
  if (size > 0 && !lastByteWasNewline && !finishLine()) return { lines, totalLines: undefined, cappedByBytes };
  return { lines, totalLines: index, cappedByBytes };
}
