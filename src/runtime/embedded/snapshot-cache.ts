/**
 * The workspace as `node` programs start with it, kept where the files live: read once, then brought up to
 * date with only the paths the file host says changed (every write through it is announced, the shell's,
 * the tools', the editor's, git's, npm's and python's too; a write that reached the backing file system
 * some other way is announced by zenfs-writes.ts). Each change gets a stamp, so a sandbox preloaded with
 * the files at one stamp is sent only what changed since (a delta), not the whole workspace again.
 *
 * Where a writer cannot be heard (a read-only tab, whose files another tab changes), `alwaysRecheck` makes
 * every answer first compare each file's size, mode and time with what it holds, reading again only those
 * that differ.
 */
import { normalize } from "pathe";
import { isRuntimeError } from "../errors.js";
import type { DirEntry } from "../types.js";
import type { WorkspaceFs } from "./workspace-fs.js";

/** The reads the cache makes (the file host's quick ones, zenfs-host.ts). */
type SnapshotReads = Pick<WorkspaceFs, "lstat" | "readdir" | "readFile" | "readlink">;
import type { ProgramFiles, SnapshotEntry, SnapshotVersion } from "./node/protocol.js";

/** Past this many remembered removals the history is dropped: a sandbox preloaded before then gets everything. */
const MAX_REMOVALS = 20_000;

interface SnapshotAnswer {
  version: SnapshotVersion;
  files: ProgramFiles;
}

interface Held {
  entry: SnapshotEntry;
  /** When this entry last changed. */
  stamp: number;
}

function byPath(a: SnapshotEntry, b: SnapshotEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function sameEntry(a: SnapshotEntry, b: SnapshotEntry): boolean {
  if (a.kind === "symlink" || b.kind === "symlink") return a.kind === "symlink" && b.kind === "symlink" && a.target === b.target;
  if (a.kind !== b.kind || a.mode !== b.mode || a.mtimeMs !== b.mtimeMs) return false;
  if (a.kind === "directory" || b.kind === "directory") return true;
  if (a.data.byteLength !== b.data.byteLength) return false;
  for (let i = 0; i < a.data.byteLength; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}

export class SnapshotCache {
  private readonly epoch = Math.random().toString(36).slice(2);
  private readonly held = new Map<string, Held>();
  private readonly removals = new Map<string, number>();
  private stamp = 0;
  /** Stamps below this have no history left (removals were dropped). */
  private floor = 0;
  private dirty: Set<string> | "all" = "all";
  private roots: string[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly fs: SnapshotReads,
    private readonly options: { alwaysRecheck?: boolean } = {},
  ) {}

  /** Paths the file host changed (a folder stands for everything beneath it). */
  markChanged(paths: readonly string[] | "unknown"): void {
    if (paths === "unknown") this.dirty = "all";
    if (this.dirty === "all") return;
    for (const path of paths) this.dirty.add(normalize(path));
  }

  /**
   * The files under `roots`: everything, or (given the version a sandbox was preloaded with, and while
   * this cache still has the history) only what changed since.
   */
  read(roots: readonly string[], since?: SnapshotVersion): Promise<SnapshotAnswer> {
    const next = this.queue.then(() => this.answer(roots, since));
    this.queue = next.catch(() => {});
    return next;
  }

  private async answer(roots: readonly string[], since: SnapshotVersion | undefined): Promise<SnapshotAnswer> {
    if (roots.join("\0") !== this.roots.join("\0")) {
      this.roots = [...roots];
      this.held.clear();
      this.removals.clear();
      this.floor = ++this.stamp;
      this.dirty = "all";
    }
    if (this.options.alwaysRecheck) this.dirty = "all";
    const todo = this.dirty;
    this.dirty = new Set();
    const stamp = ++this.stamp;
    try {
      if (todo === "all") for (const root of this.roots) await this.refreshFolder(root, stamp);
      // Parents first, so a folder's walk covers the paths beneath it once.
      else for (const path of [...todo].sort()) await this.refresh(path, stamp);
    } catch (error) {
      // Half brought up to date: the next answer starts over.
      this.dirty = "all";
      throw error;
    }
    if (this.removals.size > MAX_REMOVALS) {
      this.removals.clear();
      this.floor = stamp;
    }
    const version = { epoch: this.epoch, stamp };
    if (since && since.epoch === this.epoch && since.stamp >= this.floor && since.stamp <= stamp) {
      const entries = [...this.held.values()].filter((held) => held.stamp > since.stamp).map((held) => held.entry);
      const removed = [...this.removals].filter(([, at]) => at > since.stamp).map(([path]) => path);
      return {
        version,
        files: { kind: "delta", entries: entries.sort(byPath), removed: removed.sort((a, b) => b.length - a.length) },
      };
    }
    return { version, files: { kind: "full", entries: [...this.held.values()].map((held) => held.entry).sort(byPath) } };
  }

  private rootOf(path: string): string | undefined {
    return this.roots.find((root) => path.startsWith(root === "/" ? "/" : `${root}/`));
  }

  /** A path the host said changed: read again, with what is beneath it, and its folder's time. */
  private async refresh(path: string, stamp: number): Promise<void> {
    if (this.roots.includes(path)) return this.refreshFolder(path, stamp);
    const root = this.rootOf(path);
    if (!root) {
      // Above a root (its parent removed or moved): the roots beneath it are read again.
      for (const inner of this.roots) if (path === "/" || inner.startsWith(`${path}/`)) await this.refreshFolder(inner, stamp);
      return;
    }
    // Through a link: the file host names the path it was given, the backing file system (zenfs-writes.ts)
    // the real one, which is the one held.
    const parts = path.slice(root.length + 1).split("/");
    for (let i = 1; i < parts.length; i++) {
      if (this.held.get(`${root}/${parts.slice(0, i).join("/")}`)?.entry.kind === "symlink") return;
    }
    const stat = await this.fs.lstat(path).catch((error: unknown) => {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
      throw error;
    });
    if (!stat) return this.drop(path, stamp);
    // Folders made on the way (mkdir -p announces only the last) and the parent's new time.
    for (let i = 1; i < parts.length; i++) {
      const folder = `${root}/${parts.slice(0, i).join("/")}`;
      if (i === parts.length - 1 || this.held.get(folder)?.entry.kind !== "directory") await this.refreshOne(folder, stamp, false);
    }
    await this.refreshOne(path, stamp, false, true);
  }

  /**
   * Reads one path into the cache. `trustStat`: a file whose size, mode and time match what is held is not
   * read again (used for what a walk meets, not for a path the host named). `deep`: a folder's contents are
   * walked too.
   */
  private async refreshOne(path: string, stamp: number, trustStat: boolean, deep = false): Promise<void> {
    let stat;
    try {
      stat = await this.fs.lstat(path);
    } catch (error) {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return this.drop(path, stamp);
      throw error;
    }
    let entry: SnapshotEntry;
    if (stat.type === "symlink") entry = { path, kind: "symlink", target: await this.fs.readlink(path) };
    else if (stat.type === "directory") entry = { path, kind: "directory", mode: stat.mode, mtimeMs: stat.mtimeMs };
    else {
      const old = this.held.get(path)?.entry;
      if (trustStat && old?.kind === "file" && old.data.byteLength === stat.size && old.mode === stat.mode && old.mtimeMs === stat.mtimeMs)
        return;
      entry = { path, kind: "file", data: await this.fs.readFile(path), mode: stat.mode, mtimeMs: stat.mtimeMs };
    }
    this.hold(entry, stamp);
    if (entry.kind === "directory" && deep) await this.refreshFolder(path, stamp);
  }

  /**
   * Walks a folder: each entry checked by its stat (read again when that differs; a changed file is also
   * announced by itself), what is held beneath it and gone dropped.
   */
  private async refreshFolder(folder: string, stamp: number): Promise<void> {
    let children: DirEntry[];
    try {
      children = await this.fs.readdir(folder);
    } catch (error) {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) children = [];
      else throw error;
    }
    const prefix = folder === "/" ? "/" : `${folder}/`;
    const present = new Set(children.map((child) => `${prefix}${child.name}`));
    for (const path of [...this.held.keys()]) {
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes("/") && !present.has(path)) this.drop(path, stamp);
    }
    // Reads go out together: the file host answers them without waiting for each.
    await Promise.all([...present].map((path) => this.refreshOne(path, stamp, true, true)));
  }

  private hold(entry: SnapshotEntry, stamp: number): void {
    const old = this.held.get(entry.path);
    if (old && sameEntry(old.entry, entry)) return;
    if (old && old.entry.kind === "directory" && entry.kind !== "directory") this.dropBeneath(entry.path, stamp);
    this.held.set(entry.path, { entry, stamp });
    this.removals.delete(entry.path);
  }

  private drop(path: string, stamp: number): void {
    if (this.held.delete(path)) this.removals.set(path, stamp);
    this.dropBeneath(path, stamp);
  }

  private dropBeneath(path: string, stamp: number): void {
    const prefix = `${path}/`;
    for (const name of [...this.held.keys()]) {
      if (name.startsWith(prefix)) {
        this.held.delete(name);
        this.removals.set(name, stamp);
      }
    }
  }
}
