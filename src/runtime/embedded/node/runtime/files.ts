/**
 * The program's file system: ZenFS (a well-kept emulation of Node's fs: sync, callback, promise and stream
 * calls) over memory, filled from the snapshot the shell sent. At the end, `changes` tells what differs from
 * that snapshot, which the shell writes back into the workspace.
 */
import { bindContext, InMemory, resolveMountConfigSync, type BoundContext } from "@zenfs/core";
import type { FileChanges, SnapshotEntry } from "../protocol.js";

export interface ProgramFiles {
  context: BoundContext;
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

export function createProgramFiles(snapshot: readonly SnapshotEntry[], roots: readonly string[], cwd: string): ProgramFiles {
  const memory = resolveMountConfigSync({ backend: InMemory });
  const context = bindContext({ pwd: "/", mounts: { "/": memory } });
  const fs = context.fs;
  const before = new Map<string, SnapshotEntry>();
  for (const root of roots) fs.mkdirSync(root, { recursive: true });
  // Parents come before children in a snapshot; links last, so their targets exist.
  for (const entry of snapshot) {
    before.set(entry.path, entry);
    if (entry.kind === "directory") fs.mkdirSync(entry.path, { recursive: true, mode: entry.mode });
    else if (entry.kind === "file") {
      fs.writeFileSync(entry.path, entry.data, { mode: entry.mode });
      const time = new Date(entry.mtimeMs);
      fs.utimesSync(entry.path, time, time);
    }
  }
  for (const entry of snapshot) if (entry.kind === "symlink") fs.symlinkSync(entry.target, entry.path);
  context.pwd = fs.existsSync(cwd) ? cwd : roots[0]!;

  function walk(dir: string, out: Map<string, SnapshotEntry>): void {
    for (const name of fs.readdirSync(dir)) {
      const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
      const stat = fs.lstatSync(path);
      if (stat.isSymbolicLink()) out.set(path, { path, kind: "symlink", target: String(fs.readlinkSync(path)) });
      else if (stat.isDirectory()) {
        out.set(path, { path, kind: "directory", mode: stat.mode & 0o7777, mtimeMs: stat.mtimeMs });
        walk(path, out);
      } else {
        // A file whose size, mode and time are as loaded was not written: its bytes need not be read back.
        const old = before.get(path);
        const mode = stat.mode & 0o7777;
        const untouched = old?.kind === "file" && old.mtimeMs === stat.mtimeMs && old.data.byteLength === stat.size && old.mode === mode;
        const data = untouched ? old.data : (fs.readFileSync(path) as unknown as Uint8Array);
        out.set(path, { path, kind: "file", data, mode, mtimeMs: stat.mtimeMs });
      }
    }
  }

  function scan(): Map<string, SnapshotEntry> {
    const after = new Map<string, SnapshotEntry>();
    for (const root of roots) if (fs.existsSync(root)) walk(root, after);
    return after;
  }

  function changes(after = scan()): FileChanges {
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
    for (const path of before.keys()) if (!after.has(path) && inside(path, roots)) result.removed.push(path);
    // Children before parents for removals; parents before children for new directories.
    result.removed.sort((a, b) => b.length - a.length);
    result.directories.sort((a, b) => a.length - b.length);
    return result;
  }

  function settle(): FileChanges {
    const after = scan();
    const result = changes(after);
    before.clear();
    for (const [path, entry] of after) if (inside(path, roots)) before.set(path, entry);
    return result;
  }

  function absorb(theirs: FileChanges): void {
    for (const path of theirs.removed) {
      if (!inside(path, roots)) continue;
      fs.rmSync(path, { recursive: true, force: true });
      for (const known of [...before.keys()]) if (known === path || known.startsWith(`${path}/`)) before.delete(known);
    }
    const record = (path: string) => {
      const stat = fs.lstatSync(path);
      const mode = stat.mode & 0o7777;
      if (stat.isDirectory()) before.set(path, { path, kind: "directory", mode, mtimeMs: stat.mtimeMs });
    };
    for (const path of theirs.directories) {
      if (!inside(path, roots)) continue;
      fs.mkdirSync(path, { recursive: true });
      record(path);
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
        const stat = fs.statSync(entry.path);
        before.set(entry.path, { ...entry, mtimeMs: stat.mtimeMs });
      }
    }
  }

  return { context, changes, settle, absorb };
}
