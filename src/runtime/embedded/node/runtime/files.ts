/**
 * The program's file system: ZenFS (a well-kept emulation of Node's fs: sync, callback, promise and stream
 * calls) over memory, filled from the snapshot the shell sent (or preloaded with one while the sandbox
 * waited, then brought up to date with what changed since). At the end, `changes` tells what differs from
 * the files the program started with, which the shell writes back into the workspace.
 */
import { basename, dirname } from "pathe";
import {
  bindContext,
  constants,
  decodeDirListing,
  encodeDirListing,
  InMemory,
  Inode,
  resolveMountConfigSync,
  type BoundContext,
} from "@zenfs/core";
import type { FileChanges, ProgramFiles as SentFiles, SnapshotEntry } from "../protocol.js";
import { watchWrites } from "../zenfs-writes.js";

export interface ProgramFiles {
  context: BoundContext;
  /** Brings the files up to what the shell sent with the run (a delta on top of the preload, or all of them). */
  update(files: SentFiles): ProgramFiles;
  changes(): FileChanges;
  /** The changes so far, after which they count as the starting point (they are in the workspace now). */
  settle(): FileChanges;
  /** Takes in what a child command changed in the workspace, as part of the starting point. */
  absorb(changes: FileChanges): void;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root === "/" ? "/" : `${root}/`));
}

/** What the bulk load reaches inside ZenFS's StoreFS (protected there; the file host's writeMany uses the same). */
interface StoreTransaction {
  getSync(id: number): Uint8Array | undefined;
  setSync(id: number, data: ArrayBufferView): void;
  commitSync(): void;
}
interface StoreInternals {
  transaction(): StoreTransaction;
  findInodeSync(tx: StoreTransaction, path: string): Inode;
  allocNew(path: string): number;
}

/**
 * Puts the snapshot's folders and files into the store in one transaction, each folder's listing written
 * once: ZenFS's own writeFileSync costs a path walk, a handle and several transactions per file (about a
 * millisecond each, seconds for a node_modules), this a few microseconds. Links, and anything the quick
 * way cannot place, go through ZenFS's calls.
 */
function bulkLoad(store: StoreInternals, fs: BoundContext["fs"], snapshot: readonly SnapshotEntry[]): void {
  const tx = store.transaction();
  const folders = new Map<string, { inode: Inode; listing: Record<string, number> }>();
  const folder = (path: string) => {
    let found = folders.get(path);
    if (found) return found;
    try {
      const inode = store.findInodeSync(tx, path);
      if ((inode.mode & constants.S_IFMT) !== constants.S_IFDIR) return undefined;
      const data = tx.getSync(inode.data);
      if (!data) return undefined;
      found = { inode, listing: decodeDirListing(data) as Record<string, number> };
    } catch {
      return undefined;
    }
    folders.set(path, found);
    return found;
  };
  const slow: SnapshotEntry[] = [];
  for (const entry of snapshot) {
    if (entry.kind === "symlink") continue;
    const parent = folder(dirname(entry.path));
    const name = basename(entry.path);
    if (!parent || parent.listing[name] !== undefined) {
      slow.push(entry);
      continue;
    }
    const ino = store.allocNew(entry.path);
    const times = { atimeMs: entry.mtimeMs, mtimeMs: entry.mtimeMs, ctimeMs: entry.mtimeMs, birthtimeMs: entry.mtimeMs };
    if (entry.kind === "directory") {
      const inode = new Inode({ mode: constants.S_IFDIR | entry.mode, uid: 0, gid: 0, ino, data: ino + 1, size: 4096, nlink: 1, ...times });
      tx.setSync(inode.ino, inode);
      folders.set(entry.path, { inode, listing: {} });
    } else {
      const inode = new Inode({
        mode: constants.S_IFREG | entry.mode,
        uid: 0,
        gid: 0,
        ino,
        data: ino + 1,
        size: entry.data.byteLength,
        nlink: 1,
        ...times,
      });
      tx.setSync(inode.ino, inode);
      tx.setSync(inode.data, entry.data);
    }
    parent.listing[name] = ino;
  }
  for (const { inode, listing } of folders.values()) tx.setSync(inode.data, encodeDirListing(listing));
  tx.commitSync();
  for (const entry of slow) put(fs, entry);
}

/** One entry written through ZenFS's calls, replacing whatever is at its path. */
function put(fs: BoundContext["fs"], entry: SnapshotEntry): void {
  const current = fs.existsSync(entry.path) || isLink(fs, entry.path) ? fs.lstatSync(entry.path) : undefined;
  if (entry.kind === "directory") {
    if (current && !current.isDirectory()) fs.rmSync(entry.path, { force: true });
    // ZenFS changes a folder's mode and times only through a handle it will not open on a folder: a folder
    // already there keeps them.
    if (!current?.isDirectory()) fs.mkdirSync(entry.path, { recursive: true, mode: entry.mode });
    return;
  } else {
    // Written anew, as the snapshot was: ZenFS refuses to reopen some files its own way (an executable's mode).
    if (current) fs.rmSync(entry.path, { recursive: true, force: true });
    if (entry.kind === "symlink") {
      fs.symlinkSync(entry.target, entry.path);
      return;
    }
    fs.writeFileSync(entry.path, entry.data, { mode: entry.mode });
    fs.chmodSync(entry.path, entry.mode);
  }
  const time = new Date(entry.mtimeMs);
  fs.utimesSync(entry.path, time, time);
}

function isLink(fs: BoundContext["fs"], path: string): boolean {
  try {
    return fs.lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Past this many entries, a delta is applied by loading every file anew (bulkLoad) rather than one by one. */
const LARGE_DELTA = 64;

/** The files of one program: `snapshot` is what the shell sent (with the preload, or with the run). */
export function createProgramFiles(snapshot: readonly SnapshotEntry[], roots: readonly string[]): ProgramFiles {
  const memory = resolveMountConfigSync({ backend: InMemory });
  const context = bindContext({ pwd: "/", mounts: { "/": memory } });
  const fs = context.fs;
  const before = new Map<string, SnapshotEntry>();
  for (const root of roots) fs.mkdirSync(root, { recursive: true });
  // Parents come before children in a snapshot; links last, so their targets exist.
  for (const entry of snapshot) before.set(entry.path, entry);
  bulkLoad(memory as unknown as StoreInternals, fs, snapshot);
  for (const entry of snapshot) if (entry.kind === "symlink") fs.symlinkSync(entry.target, entry.path);

  /** Paths written since the files were as `before` says; `true` where everything beneath may differ too. */
  let written = new Map<string, boolean>();
  /** A hard link shares bytes between paths: a write to one changes the other unseen, so all is looked at. */
  let linked = false;
  watchWrites(memory, (path, subtree) => {
    if (path.length === 0) return;
    if (subtree || !written.has(path)) written.set(path, subtree || (written.get(path) ?? false));
  });
  const linkOf = memory as unknown as Record<string, unknown>;
  for (const name of ["link", "linkSync"]) {
    const original = linkOf[name] as (...args: unknown[]) => unknown;
    linkOf[name] = function (this: unknown, ...args: unknown[]) {
      linked = true;
      return original.apply(this, args);
    };
  }

  function read(path: string): SnapshotEntry | undefined {
    let stat;
    try {
      stat = fs.lstatSync(path);
    } catch {
      return undefined;
    }
    if (stat.isSymbolicLink()) return { path, kind: "symlink", target: String(fs.readlinkSync(path)) };
    if (stat.isDirectory()) return { path, kind: "directory", mode: stat.mode & 0o7777, mtimeMs: stat.mtimeMs };
    // A file whose size, mode and time are as loaded was not written: its bytes need not be read back.
    const old = before.get(path);
    const mode = stat.mode & 0o7777;
    const untouched = old?.kind === "file" && old.mtimeMs === stat.mtimeMs && old.data.byteLength === stat.size && old.mode === mode;
    const data = untouched ? old.data : (fs.readFileSync(path) as unknown as Uint8Array);
    return { path, kind: "file", data, mode, mtimeMs: stat.mtimeMs };
  }

  function walk(dir: string, out: Map<string, SnapshotEntry>): void {
    for (const name of fs.readdirSync(dir)) {
      const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
      const entry = read(path);
      if (!entry) continue;
      out.set(path, entry);
      if (entry.kind === "directory") walk(path, out);
    }
  }

  /**
   * The files now and as they were, limited to what may have changed: every path written (and what is
   * beneath a folder made or moved), or the whole tree after a hard link.
   */
  function compared(): { after: Map<string, SnapshotEntry>; old: Map<string, SnapshotEntry> } {
    const after = new Map<string, SnapshotEntry>();
    if (linked) {
      for (const root of roots) if (fs.existsSync(root)) walk(root, after);
      return { after, old: before };
    }
    const old = new Map<string, SnapshotEntry>();
    const beneath = [...written].filter(([, subtree]) => subtree).map(([path]) => path);
    for (const [path] of written) {
      const entry = read(path);
      if (entry) {
        after.set(path, entry);
        // A folder made or moved here brings what is in it.
        if (entry.kind === "directory" && (written.get(path) || !before.has(path))) walk(path, after);
      }
      const was = before.get(path);
      if (was) old.set(path, was);
    }
    if (beneath.length > 0) {
      for (const [path, entry] of before) {
        if (beneath.some((top) => path.startsWith(`${top}/`))) old.set(path, entry);
      }
    }
    return { after, old };
  }

  function changes(seen = compared()): FileChanges {
    const { after, old: previous } = seen;
    const result: FileChanges = { directories: [], files: [], removed: [] };
    for (const [path, entry] of after) {
      if (!inside(path, roots)) continue;
      const old = before.get(path);
      if (entry.kind === "directory") {
        if (old?.kind !== "directory") {
          if (old) result.removed.push(path);
          result.directories.push(path);
        }
      } else if (entry.kind === "symlink") {
        if (old?.kind !== "symlink" || old.target !== entry.target) {
          if (old) result.removed.push(path);
          result.files.push(entry);
        }
      } else if (old?.kind !== "file" || !sameBytes(old.data, entry.data) || old.mode !== entry.mode) {
        if (old && old.kind !== "file") result.removed.push(path);
        result.files.push(entry);
      }
    }
    for (const path of previous.keys())
      if (!after.has(path) && inside(path, roots) && !fs.existsSync(path) && !isLink(fs, path)) result.removed.push(path);
    // Children before parents for removals; parents before children for new directories.
    result.removed.sort((a, b) => b.length - a.length);
    result.directories.sort((a, b) => a.length - b.length);
    return result;
  }

  function settle(): FileChanges {
    const seen = compared();
    const result = changes(seen);
    for (const path of seen.old.keys()) if (!seen.after.has(path)) before.delete(path);
    for (const [path, entry] of seen.after) if (inside(path, roots)) before.set(path, entry);
    written = new Map();
    linked = false;
    return result;
  }

  function absorb(theirs: FileChanges): void {
    for (const path of theirs.removed) {
      if (!inside(path, roots)) continue;
      fs.rmSync(path, { recursive: true, force: true });
      for (const known of [...before.keys()]) if (known === path || known.startsWith(`${path}/`)) before.delete(known);
    }
    for (const path of theirs.directories) {
      if (!inside(path, roots)) continue;
      fs.mkdirSync(path, { recursive: true });
      const stat = fs.lstatSync(path);
      if (stat.isDirectory()) before.set(path, { path, kind: "directory", mode: stat.mode & 0o7777, mtimeMs: stat.mtimeMs });
    }
    for (const entry of theirs.files) {
      if (!inside(entry.path, roots)) continue;
      fs.rmSync(entry.path, { force: true });
      if (entry.kind === "symlink") {
        fs.symlinkSync(entry.target, entry.path);
        before.set(entry.path, entry);
      } else if (entry.kind === "file") {
        fs.writeFileSync(entry.path, entry.data, { mode: entry.mode });
        fs.chmodSync(entry.path, entry.mode);
        before.set(entry.path, { ...entry, mtimeMs: fs.statSync(entry.path).mtimeMs });
      }
    }
  }

  const files: ProgramFiles = {
    context,
    update(sent) {
      if (sent.kind === "full") return createProgramFiles(sent.entries, roots);
      if (sent.entries.length > LARGE_DELTA) {
        // Many files at once (an upload, an install): loading all of them anew the quick way beats
        // writing each through ZenFS's calls.
        const now = new Map(before);
        for (const path of sent.removed) {
          if (now.get(path)?.kind === "directory") for (const name of [...now.keys()]) if (name.startsWith(`${path}/`)) now.delete(name);
          now.delete(path);
        }
        for (const entry of sent.entries) {
          if (entry.kind !== "directory" && now.get(entry.path)?.kind === "directory")
            for (const name of [...now.keys()]) if (name.startsWith(`${entry.path}/`)) now.delete(name);
          now.set(entry.path, entry);
        }
        const entries = [...now.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        return createProgramFiles(entries, roots);
      }
      for (const path of sent.removed) {
        fs.rmSync(path, { recursive: true, force: true });
        for (const name of [...before.keys()]) if (name === path || name.startsWith(`${path}/`)) before.delete(name);
      }
      for (const entry of sent.entries) {
        put(fs, entry);
        // Beneath a path that is no longer a folder, nothing the preload held is left.
        if (entry.kind !== "directory" && before.get(entry.path)?.kind === "directory")
          for (const name of [...before.keys()]) if (name.startsWith(`${entry.path}/`)) before.delete(name);
        before.set(entry.path, entry);
      }
      // The program's own writes are what counts from here.
      written = new Map();
      linked = false;
      return files;
    },
    changes: () => changes(),
    settle,
    absorb,
  };
  return files;
}
