/**
 * A workspace file as a person edits it in the page: what opening it gives (text, or why not), and a
 * save that notices when the file changed or vanished on disk since it was opened, so a hand edit
 * never silently overwrites a tool's.
 *
 * A save writes through the runtime's fs like any other write, so its new mtime is what FileTime
 * compares against a tool's last read: a tool that read the file before the save must read it again.
 */
import { isRuntimeError } from "../runtime/errors.js";
import { hasBinaryExtension, looksBinary } from "../runtime/file-kind.js";
import type { Runtime } from "../runtime/types.js";

/** Larger files are not loaded into the editor (a 50 MB log would freeze the tab); they can be downloaded. */
const EDITOR_MAX_BYTES = 2 * 1024 * 1024;

/** How much of the start of a file decides whether it is binary (the read tool samples as much). */
const SAMPLE_BYTES = 4096;

export type OpenedDocument =
  | { kind: "text"; path: string; text: string; mtimeMs: number; size: number; lineSeparator: "\n" | "\r\n" | undefined }
  | { kind: "binary"; path: string; size: number; reason: string }
  | { kind: "too-large"; path: string; size: number; limit: number }
  | { kind: "missing"; path: string }
  | { kind: "not-a-file"; path: string };

/**
 * The line ending to keep on save: CRLF when every line ends so, LF when none does; undefined for a
 * mix (the editor then writes LF).
 */
export function lineSeparatorOf(text: string): "\n" | "\r\n" | undefined {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1;
  if (crlf === 0) return lf === 0 ? undefined : "\n";
  return crlf === lf ? "\r\n" : undefined;
}

async function statOrMissing(runtime: Runtime, path: string) {
  try {
    return await runtime.fs.stat(path);
  } catch (error) {
    if (isRuntimeError(error, "ENOENT") || isRuntimeError(error, "ENOTDIR")) return undefined;
    throw error;
  }
}

export async function openDocument(runtime: Runtime, path: string, limit = EDITOR_MAX_BYTES): Promise<OpenedDocument> {
  const stat = await statOrMissing(runtime, path);
  if (!stat) return { kind: "missing", path };
  if (stat.type !== "file") return { kind: "not-a-file", path };
  if (stat.size > limit) return { kind: "too-large", path, size: stat.size, limit };
  const sample = await runtime.fs.read(path, { position: 0, length: SAMPLE_BYTES });
  if (hasBinaryExtension(path) || looksBinary(sample)) return { kind: "binary", path, size: stat.size, reason: "it looks binary" };
  const bytes = await runtime.fs.readFile(path);
  let text: string;
  try {
    // ignoreBOM keeps a byte order mark in the text, so saving writes it back.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: "binary", path, size: stat.size, reason: "it is not UTF-8 text" };
  }
  return { kind: "text", path, text, mtimeMs: stat.mtimeMs, size: bytes.length, lineSeparator: lineSeparatorOf(text) };
}

/** Why a save did not write: the file on disk is not the one the editor opened. */
export class SaveConflict extends Error {
  constructor(
    readonly path: string,
    readonly reason: "changed" | "deleted",
  ) {
    super(
      reason === "changed"
        ? `${path} changed on disk since you opened it. Reload it to see the change, or overwrite it with your text.`
        : `${path} was deleted since you opened it. Save again to create it anew, or close it.`,
    );
    this.name = "SaveConflict";
  }
}

/**
 * Writes `text` to `path`. With `expectedMtimeMs` (the mtime the editor loaded or last saved), it
 * refuses with a SaveConflict when the file changed or was deleted meanwhile; without it, it writes
 * regardless. Returns the file's mtime after the write.
 */
export async function saveDocument(
  runtime: Runtime,
  path: string,
  text: string,
  options: { expectedMtimeMs?: number } = {},
): Promise<number> {
  if (options.expectedMtimeMs !== undefined) {
    const stat = await statOrMissing(runtime, path);
    if (!stat) throw new SaveConflict(path, "deleted");
    if (stat.mtimeMs !== options.expectedMtimeMs) throw new SaveConflict(path, "changed");
  }
  await runtime.fs.writeFile(path, text);
  return (await runtime.fs.stat(path)).mtimeMs;
}

/** The file's mtime now, or undefined when it is gone: what an open editor compares to notice outside changes. */
export async function currentMtime(runtime: Runtime, path: string): Promise<number | undefined> {
  return (await statOrMissing(runtime, path))?.mtimeMs;
}
