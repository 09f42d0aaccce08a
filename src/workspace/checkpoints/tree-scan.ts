import type { BlobStore } from "./blob-store.js";
import type { TreeFs } from "./tree-fs.js";
import type { Entry } from "./types.js";

type ScannedEntry = Entry;

/**
 * Files changed less than this before a scan may change again within the same clock tick without their
 * mtime moving, so a full scan reads them again rather than trusting size and mtime (git's "racy" files).
 */
const RACY_MS = 2000;

export interface ScanContext {
  fs: TreeFs;
  root: string;
  blobs: BlobStore;
  ignore: (relative: string) => boolean;
  /** The state last recorded, by relative path. */
  known: ReadonlyMap<string, ScannedEntry>;
  /** Trust a file whose size and mtime match what was recorded (full scans of a real folder). */
  trustUnchanged: boolean;
  startedAt: number;
  /**
   * Paths that could not be read (no permission): left as last recorded, neither changed nor deleted, so an
   * undo never removes a file only because it could not be read (and the files under an unreadable folder).
   */
  unreadable: Set<string>;
}

function deniedAccess(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "EACCES" || code === "EPERM";
}

export function absolute(root: string, relative: string): string {
  if (relative === "") return root;
  return root === "/" ? `/${relative}` : `${root}/${relative}`;
}

/** The entry at one path (not following a link there); null when nothing is there. */
export async function scanOne(ctx: ScanContext, relative: string): Promise<ScannedEntry | null> {
  const path = absolute(ctx.root, relative);
  const stats = await ctx.fs.lstat(path).catch((error: { code?: string }) => {
    if (error?.code === "ENOENT" || error?.code === "ENOTDIR") return null;
    throw error;
  });
  if (!stats) return null;
  const mode = stats.mode === undefined ? {} : { mode: stats.mode & 0o7777 };
  if (stats.type === "directory") return { type: "directory", ...mode };
  if (stats.type === "symlink") return { type: "symlink", target: await ctx.fs.readlink(path) };
  // A FIFO, socket or device has no content to keep: it is left as it is.
  if (stats.type !== "file") return null;
  const before = ctx.known.get(relative);
  const seen = { size: stats.size, mtimeMs: stats.mtimeMs };
  if (
    ctx.trustUnchanged &&
    before?.type === "file" &&
    before.seen?.size === stats.size &&
    before.seen.mtimeMs === stats.mtimeMs &&
    stats.mtimeMs < ctx.startedAt - RACY_MS &&
    before.mode === mode.mode
  ) {
    return before;
  }
  let bytes: Uint8Array;
  try {
    bytes = await ctx.fs.readFile(path, { noFollow: true });
  } catch (error) {
    if (!deniedAccess(error)) throw error;
    ctx.unreadable.add(relative);
    return before ?? null;
  }
  const hash = await ctx.blobs.put(bytes, before?.type === "file" ? before.hash : undefined);
  return { type: "file", hash, size: bytes.byteLength, ...mode, seen };
}

/** Everything at and below `relative` ("" for the whole workspace), into `into`. */
export async function scanTree(ctx: ScanContext, relative: string, into: Map<string, ScannedEntry>): Promise<void> {
  const entry = relative === "" ? ({ type: "directory" } as const) : await scanOne(ctx, relative);
  if (!entry) return;
  if (relative !== "") into.set(relative, entry);
  if (entry.type !== "directory") return;
  let listing: Awaited<ReturnType<ScanContext["fs"]["readdir"]>>;
  try {
    listing = await ctx.fs.readdir(absolute(ctx.root, relative));
  } catch (error) {
    if (!deniedAccess(error)) throw error;
    ctx.unreadable.add(relative);
    return;
  }
  for (const child of listing) {
    const path = relative === "" ? child.name : `${relative}/${child.name}`;
    if (ctx.ignore(path)) continue;
    await scanTree(ctx, path, into);
  }
}
