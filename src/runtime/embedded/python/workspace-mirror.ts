import { normalize } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";
import type { SandboxChanges, SandboxSync } from "./protocol.js";

/** Folders never copied into the sandbox: large, and no Python program needs them. */
const SKIPPED_DIRS = new Set([".git", "node_modules"]);

export interface MirrorLimits {
  /** The most bytes of files the sandbox holds (default 64 MiB). */
  maxBytes: number;
  /** The most files it holds (default 20 000). */
  maxFiles: number;
}

const DEFAULT_LIMITS: MirrorLimits = { maxBytes: 64 * 1024 * 1024, maxFiles: 20_000 };

interface Sent {
  mtimeMs: number;
  size: number;
}

export function isInside(root: string, path: unknown): path is string {
  return typeof path === "string" && !path.includes("\0") && normalize(path) === path && path.startsWith(`${root}/`);
}

function skipped(root: string, path: string): boolean {
  return path
    .slice(root.length + 1)
    .split("/")
    .some((part) => SKIPPED_DIRS.has(part));
}

/**
 * What the sandbox's copy of the workspace holds, kept up to date at the start of each run with as little
 * as possible: the first run copies the whole workspace (bar `.git` and `node_modules`), later ones only
 * what changed since, as the file host announced it (every change passes through the host, the shell's and
 * the tools' too). A file is sent again when its size or mtime differ from what was sent. The copy is
 * bounded (MirrorLimits): past them, further files are left out and the run's stderr says so.
 *
 * Symbolic links are not copied (the program sees neither the link nor its target through it).
 */
export class WorkspaceMirror {
  private readonly sent = new Map<string, Sent>();
  private readonly sentDirs = new Set<string>();
  private dirty: Set<string> | "all" = "all";
  private bytes = 0;
  private leftOut = 0;
  private readonly limits: MirrorLimits;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly root: string,
    limits: Partial<MirrorLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Paths the file host says changed. */
  markChanged(paths: string[] | "unknown"): void {
    if (paths === "unknown" || this.dirty === "all") {
      this.dirty = "all";
      return;
    }
    for (const path of paths) this.dirty.add(normalize(path));
  }

  /** The sandbox was replaced: its copy is empty, so everything goes again. */
  reset(): void {
    this.sent.clear();
    this.sentDirs.clear();
    this.bytes = 0;
    this.dirty = "all";
  }

  /** What to send before the next run, and a note when files had to be left out. */
  async sync(): Promise<{ sync: SandboxSync; note?: string }> {
    const sync: SandboxSync = { writes: [], removes: [], dirs: [] };
    const dirty = this.dirty;
    this.dirty = new Set();
    this.leftOut = 0;
    if (dirty === "all") await this.walk(this.root, sync);
    else {
      // A folder's path first, so a file beneath a new folder is not looked at twice.
      for (const path of [...dirty].sort()) {
        if (path !== this.root && !isInside(this.root, path)) continue;
        if (skipped(this.root, path)) continue;
        await this.refresh(path, sync);
      }
    }
    const note =
      this.leftOut > 0
        ? `python3: ${this.leftOut} workspace file(s) were left out of Python's copy of the workspace (it holds at most ${this.limits.maxFiles} files and ${this.limits.maxBytes / 1024 / 1024} MiB, without .git and node_modules)\n`
        : undefined;
    return { sync, note };
  }

  /** After the program's changes were written to the workspace: the sandbox holds them already. */
  async recordChanges(changes: SandboxChanges): Promise<void> {
    for (const path of changes.removes) this.forget(path);
    for (const dir of changes.dirs) this.sentDirs.add(dir);
    for (const file of changes.writes) {
      const stat = await this.fs.stat(file.path).catch(() => undefined);
      if (!stat) continue;
      this.bytes += stat.size - (this.sent.get(file.path)?.size ?? 0);
      this.sent.set(file.path, { mtimeMs: stat.mtimeMs, size: stat.size });
    }
  }

  private forget(path: string, sync?: SandboxSync): void {
    let gone = false;
    for (const [name, sent] of this.sent) {
      if (name === path || name.startsWith(`${path}/`)) {
        this.sent.delete(name);
        this.bytes -= sent.size;
        gone = true;
      }
    }
    for (const dir of this.sentDirs) {
      if (dir === path || dir.startsWith(`${path}/`)) {
        this.sentDirs.delete(dir);
        gone = true;
      }
    }
    if (gone) sync?.removes.push(path);
  }

  private async refresh(path: string, sync: SandboxSync): Promise<void> {
    const stat = await this.fs.lstat(path).catch(() => undefined);
    if (!stat || stat.type === "symlink") return this.forget(path, sync);
    if (stat.type === "directory") return this.walk(path, sync);
    if (this.sentDirs.has(path)) this.forget(path, sync);
    // The host said this file changed: send it even if size and mtime look the same (two writes in one ms).
    await this.offer(path, stat, sync, true);
  }

  /** Sends what changed under `dir`, and removes what the sandbox holds there that is gone. */
  private async walk(dir: string, sync: SandboxSync): Promise<void> {
    const seen = new Set<string>();
    const visit = async (folder: string) => {
      // In name order, so which files a full copy leaves out does not depend on the storage's order.
      const entries = (await this.fs.readdir(folder).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      seen.add(folder);
      if (folder !== this.root && !this.sentDirs.has(folder)) {
        // A file of the same name the sandbox held goes first.
        if (this.sent.has(folder)) this.forget(folder, sync);
        sync.dirs.push(folder);
        this.sentDirs.add(folder);
      }
      for (const entry of entries) {
        const path = folder === "/" ? `/${entry.name}` : `${folder}/${entry.name}`;
        if (entry.type === "directory") {
          if (!SKIPPED_DIRS.has(entry.name)) await visit(path);
        } else if (entry.type === "file") {
          seen.add(path);
          const stat = await this.fs.stat(path).catch(() => undefined);
          if (stat?.type === "file") {
            if (this.sentDirs.has(path)) this.forget(path, sync);
            await this.offer(path, stat, sync);
          }
        }
      }
    };
    await visit(dir);
    const inside = (name: string) => name === dir || name.startsWith(dir === "/" ? "/" : `${dir}/`);
    const gone = [...this.sent.keys(), ...this.sentDirs].filter((name) => inside(name) && !seen.has(name));
    for (const name of gone) this.forget(name, sync);
  }

  private async offer(path: string, stat: { size: number; mtimeMs: number }, sync: SandboxSync, changed = false): Promise<void> {
    const before = this.sent.get(path);
    if (!changed && before && before.size === stat.size && before.mtimeMs === stat.mtimeMs) return;
    const bytesAfter = this.bytes - (before?.size ?? 0) + stat.size;
    if (bytesAfter > this.limits.maxBytes || (!before && this.sent.size >= this.limits.maxFiles)) {
      this.leftOut++;
      return;
    }
    const data = await this.fs.readFile(path).catch(() => undefined);
    if (!data) return;
    this.bytes = bytesAfter;
    this.sent.set(path, { mtimeMs: stat.mtimeMs, size: stat.size });
    sync.writes.push({ path, data, mtimeMs: stat.mtimeMs });
  }
}
