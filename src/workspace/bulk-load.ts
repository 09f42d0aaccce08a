/**
 * Many files into a workspace at once (share links, embeds, uploads). Every path is checked before anything
 * is written. On the embedded runtime the files go in batches through `writeMany` (one ZenFS burst and one
 * store round trip per batch instead of several per file: 3,000 files in about a second rather than 43),
 * each batch announced as it lands, with the page given a turn between batches so the tree and search
 * follow along. Other runtimes write file by file, each folder made once.
 */
import { dirname, join, normalize } from "pathe";
import type { EmbeddedRuntime } from "../runtime/embedded/index.js";
import type { Runtime } from "../runtime/types.js";

export interface IncomingFile {
  /** Relative to the folder it goes into, with `/` separators (a folder upload keeps its tree). */
  path: string;
  data: Uint8Array;
}

/**
 * Where a relative path lands inside `folder`, or an error when it would land outside: an archive
 * entry or a file name must never climb out of the workspace ("zip slip").
 */
export function landingPath(folder: string, relative: string): string {
  const cleaned = relative.replace(/\\/g, "/");
  if (cleaned.startsWith("/") || /^[a-zA-Z]:/.test(cleaned)) {
    throw new Error(`refused "${relative}": an absolute path cannot be imported; entries must be relative`);
  }
  const target = normalize(join(folder, cleaned));
  if (target !== folder && !target.startsWith(folder.endsWith("/") ? folder : `${folder}/`)) {
    throw new Error(`refused "${relative}": it would be written outside ${folder}`);
  }
  if (target === folder) throw new Error(`refused "${relative}": it names the folder itself, not a file in it`);
  return target;
}

export interface LoadOptions {
  /** Called after each batch with how many files are written so far. */
  onProgress?: (written: number, total: number) => void;
  signal?: AbortSignal;
  /** Milliseconds of writing before the page gets a turn (the embedded runtime writes on the page's thread). */
  sliceMs?: number;
}

const BATCH_FILES = 500;
const BATCH_BYTES = 8 * 1024 * 1024;

function isEmbedded(runtime: Runtime): runtime is EmbeddedRuntime {
  return runtime.kind === "embedded" && typeof (runtime as Partial<EmbeddedRuntime>).writeMany === "function";
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Batches of at most BATCH_FILES files and about BATCH_BYTES bytes. */
function* batches<T extends { data: Uint8Array }>(files: readonly T[]): Generator<T[]> {
  let batch: T[] = [];
  let bytes = 0;
  for (const file of files) {
    if (batch.length > 0 && (batch.length >= BATCH_FILES || bytes + file.data.length > BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(file);
    bytes += file.data.length;
  }
  if (batch.length > 0) yield batch;
}

/**
 * Writes `files` (relative paths) into `folder`; returns the absolute paths written. Throws before writing
 * anything when a path would land outside `folder`; an abort stops between batches (what landed stays).
 */
export async function loadFiles(
  runtime: Runtime,
  folder: string,
  files: readonly IncomingFile[],
  options: LoadOptions = {},
): Promise<string[]> {
  const targets = files.map((file) => ({ path: landingPath(folder, file.path), data: file.data }));
  let written = 0;
  if (isEmbedded(runtime)) {
    const slice = options.sliceMs ?? 50;
    let turnAt = performance.now();
    const all = [...batches(targets)];
    for (const [index, batch] of all.entries()) {
      options.signal?.throwIfAborted();
      // Only the last batch waits for the store: it keeps the batches in order, so that wait covers all.
      await runtime.writeMany(batch, { wait: index === all.length - 1 });
      written += batch.length;
      options.onProgress?.(written, targets.length);
      if (performance.now() - turnAt > slice) {
        await nextTurn();
        turnAt = performance.now();
      }
    }
    return targets.map((target) => target.path);
  }
  const made = new Set<string>();
  for (const target of targets) {
    options.signal?.throwIfAborted();
    const parent = dirname(target.path);
    if (!made.has(parent)) {
      await runtime.fs.mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await runtime.fs.writeFile(target.path, target.data);
    written += 1;
    if (written % BATCH_FILES === 0 || written === targets.length) options.onProgress?.(written, targets.length);
  }
  return targets.map((target) => target.path);
}
