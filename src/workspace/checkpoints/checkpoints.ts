/**
 * A workspace's checkpoints: a timeline of what changed in its files, recorded at moments the session
 * names (before each user message, at the end of each tool call), and the ways back: restore the files
 * to any checkpoint (an undo, and the redo after it, are restores), revert one call's changes alone, a
 * file's history.
 *
 * Changes are found where they are made: the runtime announces the paths each write touches (the file
 * host of the embedded runtime sees every write: tools, the shell, the editor, uploads), and a checkpoint
 * reads only those paths again; an announcement without paths (a command on the node runtime) makes it
 * scan the whole tree, trusting files whose size and mtime did not move. Contents are kept by hash, so
 * an unchanged file costs nothing; each checkpoint holds its changes with the state before and after,
 * so stepping back never needs the steps before it.
 */
import { dirname, normalize } from "pathe";
import { BlobStore } from "./blob-store.js";
import type { CheckpointStorage } from "./storage.js";
import { defaultIgnore, type TreeFs } from "./tree-fs.js";
import { absolute, scanOne, scanTree, type ScanContext } from "./tree-scan.js";
import { CheckpointSchema, isByHand, sameEntry, type Cause, type Change, type Checkpoint, type Entry } from "./types.js";

export interface CheckpointsOptions {
  fs: TreeFs;
  /** The workspace folder, absolute: only what is below it is recorded. */
  root: string;
  storage: CheckpointStorage;
  /** Paths (relative) never recorded nor restored; `.git` folders by default. */
  ignore?: (relative: string) => boolean;
}

/** A path a restore would set back, from what it is now to what it was. */
export interface PlannedWrite {
  path: string;
  from: Entry | null;
  to: Entry | null;
}

/** A change made by hand (or by nothing the session ran) that a restore would undo. */
interface HandChange {
  path: string;
  seq: number;
  time: number;
}

export interface RestorePlan {
  target: number;
  writes: PlannedWrite[];
  /** Hand edits the restore would take back: it runs only once these are confirmed. */
  overwrites: HandChange[];
}

export type RestoreResult =
  | { status: "restored"; plan: RestorePlan; checkpoint?: Checkpoint }
  | { status: "needs-confirmation"; plan: RestorePlan };

/** A later checkpoint that touched what a revert would change. */
export interface LaterChange {
  seq: number;
  cause: Cause;
  paths: string[];
}

export type RevertResult =
  | { status: "reverted"; writes: PlannedWrite[]; checkpoint?: Checkpoint }
  | { status: "conflict"; later: LaterChange[] };

export interface FileVersion {
  seq: number;
  time: number;
  cause: Cause;
  before: Entry | null;
  after: Entry | null;
}

export class CheckpointError extends Error {}

function depth(path: string): number {
  return path.split("/").length;
}

/** a is b, or one of them is inside the other (reverting one would touch the other). */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

export class Checkpoints {
  private readonly blobs: BlobStore;
  private readonly ignore: (relative: string) => boolean;
  private timeline: Checkpoint[] = [];
  /** The state at the last checkpoint, by relative path. */
  private known = new Map<string, Entry>();
  private dirty = new Set<string>();
  private dirtyAll = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The root with its links resolved: announced and resolved paths may name it either way. */
  private realRoot: string;

  private constructor(private readonly options: CheckpointsOptions) {
    this.blobs = new BlobStore(options.storage);
    this.ignore = options.ignore ?? defaultIgnore;
    this.realRoot = options.root;
  }

  /** The path relative to the workspace, or undefined when it is outside (either spelling of the root). */
  private relativeOf(path: string): string | undefined {
    for (const root of [this.options.root, this.realRoot]) {
      if (path === root) return "";
      const prefix = root === "/" ? "/" : `${root}/`;
      if (path.startsWith(prefix)) return path.slice(prefix.length);
    }
    return undefined;
  }

  /**
   * Opens the workspace's timeline (the first time: records the files as they are, the baseline) and
   * records what changed since it was last open as made by hand.
   */
  static async open(options: CheckpointsOptions): Promise<Checkpoints> {
    const checkpoints = new Checkpoints(options);
    checkpoints.realRoot = await options.fs.realpath(options.root);
    const stored = await options.storage.loadTimeline();
    checkpoints.timeline = stored.map((record, index) => {
      const parsed = CheckpointSchema.safeParse(record);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new CheckpointError(
          `checkpoint ${index} of this workspace is damaged (at ${issue.path.join(".") || "the top"}: ${issue.message}); clear the workspace's checkpoints to start a new timeline`,
        );
      }
      return parsed.data;
    });
    for (const checkpoint of checkpoints.timeline) checkpoints.applyToKnown(checkpoint.changes);
    checkpoints.dirtyAll = true;
    await checkpoints.record(checkpoints.timeline.length === 0 ? { kind: "baseline" } : { kind: "outside" });
    return checkpoints;
  }

  /** Paths (absolute) that may have changed since the last checkpoint; "unknown": maybe any. */
  noteChanged(paths: readonly string[] | "unknown"): void {
    if (paths === "unknown") {
      this.dirtyAll = true;
      return;
    }
    for (const path of paths) {
      const relative = this.relativeOf(path);
      if (relative === "") this.dirtyAll = true;
      else if (relative !== undefined) this.dirty.add(relative);
    }
  }

  /** Follows a runtime's change announcements (the one place every write is seen). */
  attach(runtime: { onChange(listener: (paths: string[] | "unknown") => void): () => void }): () => void {
    return runtime.onChange((paths) => this.noteChanged(paths));
  }

  /** The checkpoints, oldest first. */
  list(): readonly Checkpoint[] {
    return this.timeline;
  }

  /** The latest checkpoint's number. */
  head(): number {
    return this.timeline.at(-1)?.seq ?? 0;
  }

  /**
   * Records what changed since the last checkpoint, made by `cause`. A moment with nothing changed is kept
   * only when it marks something the session may return to (a message, a call).
   */
  record(cause: Cause): Promise<Checkpoint | undefined> {
    return this.serial(() => this.recordNow(cause));
  }

  /** The checkpoint a call ended at, if it is in this timeline. */
  callCheckpoint(callID: string): Checkpoint | undefined {
    return this.timeline.find((checkpoint) => checkpoint.cause.kind === "call" && checkpoint.cause.callID === callID);
  }

  /** The checkpoint taken before a user message, if any. */
  messageCheckpoint(messageID: string): Checkpoint | undefined {
    return this.timeline.find((checkpoint) => checkpoint.cause.kind === "message" && checkpoint.cause.messageID === messageID);
  }

  /** The state just before a call started: the checkpoint before the one it ended at. */
  beforeCall(callID: string): number | undefined {
    const at = this.callCheckpoint(callID);
    if (!at) return undefined;
    return this.timeline.filter((checkpoint) => checkpoint.seq < at.seq).at(-1)?.seq;
  }

  /** What restoring checkpoint `target` would write, and which hand edits it would take back. */
  planRestore(target: number): Promise<RestorePlan> {
    return this.serial(async () => {
      await this.recordNow({ kind: "outside" });
      return this.plan(target);
    });
  }

  /**
   * Sets the files back to what they were at checkpoint `target`, byte for byte; a redo is a restore to
   * the checkpoint the undo started from. Hand edits it would take back are listed and nothing is written
   * unless `confirm` is set.
   */
  restore(target: number, options: { confirm?: boolean } = {}): Promise<RestoreResult> {
    return this.serial(async () => {
      await this.recordNow({ kind: "outside" });
      const plan = this.plan(target);
      if (plan.overwrites.length > 0 && !options.confirm) return { status: "needs-confirmation", plan };
      await this.write(plan.writes);
      const checkpoint = await this.recordNow({ kind: "restore", to: target });
      return { status: "restored", plan, checkpoint };
    });
  }

  /**
   * Takes back one call's changes alone. When a later call or a hand edit touched the same paths, nothing
   * is written and those are named (restoring to before the call takes back everything since instead).
   */
  revert(callID: string): Promise<RevertResult> {
    return this.serial(async () => {
      await this.recordNow({ kind: "outside" });
      const at = this.callCheckpoint(callID);
      if (!at) throw new CheckpointError(`no checkpoint of call ${callID} in this workspace: its changes were not recorded here`);
      // An undo and its redo in between leave the call's files as it made them: they do not stand in the way,
      // unless the files are not as the call left them now.
      const later: LaterChange[] = [];
      const undoneSince: LaterChange[] = [];
      for (const checkpoint of this.timeline) {
        if (checkpoint.seq <= at.seq) continue;
        const paths = checkpoint.changes.map((change) => change.path).filter((path) => at.changes.some((own) => overlaps(own.path, path)));
        if (paths.length === 0) continue;
        (checkpoint.cause.kind === "restore" ? undoneSince : later).push({ seq: checkpoint.seq, cause: checkpoint.cause, paths });
      }
      const moved = at.changes.filter((own) => !sameEntry(this.known.get(own.path) ?? null, own.after)).map((own) => own.path);
      if (moved.length > 0) {
        for (const undo of undoneSince) {
          const paths = undo.paths.filter((path) => moved.includes(path));
          if (paths.length > 0) later.push({ ...undo, paths });
        }
      }
      later.sort((a, b) => a.seq - b.seq);
      if (later.length > 0) return { status: "conflict", later };
      const writes = at.changes.map((change) => ({ path: change.path, from: this.known.get(change.path) ?? null, to: change.before }));
      await this.write(writes);
      const checkpoint = await this.recordNow({ kind: "revert", callID });
      return { status: "reverted", writes, checkpoint };
    });
  }

  /** A path's versions, oldest first: every checkpoint that changed it. */
  history(path: string): FileVersion[] {
    const versions: FileVersion[] = [];
    for (const checkpoint of this.timeline) {
      for (const change of checkpoint.changes) {
        if (change.path === path)
          versions.push({
            seq: checkpoint.seq,
            time: checkpoint.time,
            cause: checkpoint.cause,
            before: change.before,
            after: change.after,
          });
      }
    }
    return versions;
  }

  /** A recorded file content. */
  read(hash: string): Promise<Uint8Array> {
    return this.blobs.get(hash);
  }

  /**
   * Forgets a session's checkpoints (the session was deleted): each one's changes are folded into the
   * checkpoint after it, so every remaining checkpoint still restores exactly, and blobs no checkpoint
   * names any more are deleted.
   */
  prune(sessionID: string): Promise<void> {
    return this.serial(async () => {
      const ofSession = (cause: Cause) => (cause.kind === "message" || cause.kind === "call") && cause.sessionID === sessionID;
      const kept: Checkpoint[] = [];
      const removed: number[] = [];
      let carried: Change[] = [];
      for (const checkpoint of this.timeline) {
        const changes = carried.length > 0 ? mergeChanges(carried, checkpoint.changes) : checkpoint.changes;
        if (ofSession(checkpoint.cause) && checkpoint !== this.timeline.at(-1)) {
          carried = changes;
          removed.push(checkpoint.seq);
          continue;
        }
        carried = [];
        const cause: Cause = ofSession(checkpoint.cause) ? { kind: "outside" } : checkpoint.cause;
        const next = { ...checkpoint, cause, changes };
        if (next.changes !== checkpoint.changes || next.cause !== checkpoint.cause) await this.options.storage.putCheckpoint(next);
        kept.push(next);
      }
      await this.options.storage.deleteCheckpoints(removed);
      this.timeline = kept;
      await this.collectGarbage();
    });
  }

  // ---- inside the queue ----

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private scanContext(): ScanContext {
    return {
      fs: this.options.fs,
      root: this.options.root,
      blobs: this.blobs,
      ignore: this.ignore,
      known: this.known,
      trustUnchanged: false,
      startedAt: Date.now(),
      unreadable: new Set(),
    };
  }

  private async recordNow(cause: Cause): Promise<Checkpoint | undefined> {
    const changes = await this.collectChanges();
    if (changes.length === 0 && (cause.kind === "outside" || cause.kind === "restore" || cause.kind === "revert")) return undefined;
    const checkpoint: Checkpoint = { seq: this.timeline.length === 0 ? 0 : this.head() + 1, time: Date.now(), cause, changes };
    await this.options.storage.putCheckpoint(checkpoint);
    this.timeline.push(checkpoint);
    this.applyToKnown(changes);
    return checkpoint;
  }

  private applyToKnown(changes: readonly Change[]): void {
    for (const change of changes) {
      if (change.after) this.known.set(change.path, change.after);
      else this.known.delete(change.path);
    }
  }

  /** What differs between the files and the last checkpoint, at the paths announced since. */
  private async collectChanges(): Promise<Change[]> {
    const found = new Map<string, Entry>();
    const scope: string[] = [];
    const ctx = this.scanContext();
    if (this.dirtyAll) {
      this.dirtyAll = false;
      this.dirty.clear();
      // A full scan trusts what size and mtime say did not move (the node runtime's commands: every call).
      await scanTree({ ...ctx, trustUnchanged: true }, "", found);
      scope.push("");
    } else {
      const announced = [...this.dirty];
      this.dirty.clear();
      for (const path of await this.realPaths(announced)) {
        if (this.ignore(path) || scope.some((outer) => outer === "" || (overlaps(outer, path) && depth(outer) <= depth(path)))) continue;
        for (let i = scope.length - 1; i >= 0; i--) if (scope[i]!.startsWith(`${path}/`)) scope.splice(i, 1);
        scope.push(path);
      }
      for (const path of scope) {
        await scanTree(ctx, path, found);
        // Folders made on the way (mkdir -p) are announced only by their deepest path.
        for (let up = dirname(path); up !== "." && up !== "" && up !== "/"; up = dirname(up)) {
          const old = this.known.get(up);
          if (old?.type === "directory") break;
          const entry = await scanOne(ctx, up);
          if (entry) found.set(up, entry);
          if (!scope.includes(up)) scope.push(up);
        }
      }
    }
    const changes: Change[] = [];
    const paths = new Set(found.keys());
    for (const path of this.known.keys())
      if (scope.some((outer) => outer === "" || path === outer || path.startsWith(`${outer}/`))) paths.add(path);
    const unreadable = [...ctx.unreadable];
    for (const path of [...paths].sort()) {
      if (unreadable.some((locked) => path === locked || path.startsWith(`${locked}/`))) continue;
      const before = this.known.get(path) ?? null;
      const after = found.get(path) ?? null;
      if (!sameEntry(before, after)) changes.push({ path, before, after });
      // Unchanged, but read again: what a later scan trusts is this reading.
      else if (after) this.known.set(path, after);
    }
    return changes;
  }

  /**
   * Where announced paths really are: a write through a link inside the workspace (`link/file`, or `link`
   * itself, even dangling) changed the file the link leads to, so that path is read too. Paths that lead
   * outside the workspace are dropped.
   */
  private async realPaths(relatives: readonly string[]): Promise<string[]> {
    const { fs, root } = this.options;
    const inside = (path: string) => this.relativeOf(path);
    const real = new Set<string>();
    const work = [...relatives];
    // A chain of links is followed as far as the kernel would (40), then given up.
    for (let steps = 0; work.length > 0 && steps < relatives.length + 40; steps++) {
      const relative = work.shift()!;
      let parent = dirname(relative);
      let rest = relative.slice(relative.lastIndexOf("/") + 1);
      let found: string | undefined;
      // The nearest folder on the way that still exists, resolved; what comes after it is kept as named.
      for (;;) {
        if (parent === "." || parent === "") {
          found = rest;
          break;
        }
        const resolved = await fs.realpath(absolute(root, parent)).catch(() => undefined);
        if (resolved !== undefined) {
          const at = inside(resolved);
          if (at !== undefined) found = at === "" ? rest : `${at}/${rest}`;
          break;
        }
        rest = `${parent.slice(parent.lastIndexOf("/") + 1)}/${rest}`;
        parent = dirname(parent);
      }
      if (found === undefined || real.has(found)) continue;
      real.add(found);
      const full = absolute(root, found);
      const isLink = await fs.lstat(full).then(
        (stats) => stats.type === "symlink",
        () => false,
      );
      if (!isLink) continue;
      const target = await fs.readlink(full);
      const next = inside(target.startsWith("/") ? normalize(target) : normalize(`${dirname(full)}/${target}`));
      if (next) work.push(next);
    }
    return [...real];
  }

  private plan(target: number): RestorePlan {
    if (!this.timeline.some((checkpoint) => checkpoint.seq === target)) {
      throw new CheckpointError(
        `there is no checkpoint ${target} in this workspace (they run from ${this.timeline[0]?.seq ?? 0} to ${this.head()})`,
      );
    }
    const goal = new Map<string, Entry | null>();
    const byHand = new Map<string, HandChange>();
    for (const checkpoint of this.timeline) {
      if (checkpoint.seq <= target) continue;
      for (const change of checkpoint.changes) {
        if (!goal.has(change.path)) goal.set(change.path, change.before);
        if (isByHand(checkpoint.cause)) byHand.set(change.path, { path: change.path, seq: checkpoint.seq, time: checkpoint.time });
      }
    }
    const writes: PlannedWrite[] = [];
    for (const [path, to] of goal) {
      const from = this.known.get(path) ?? null;
      if (!sameEntry(from, to)) writes.push({ path, from, to });
    }
    const overwrites = [...byHand.values()].filter((change) => writes.some((write) => write.path === change.path));
    return { target, writes, overwrites };
  }

  /** Makes each path what `to` says: removals deepest first, then creations outermost first. */
  private async write(writes: readonly PlannedWrite[]): Promise<void> {
    const { fs, root } = this.options;
    const removals = writes.filter(({ from, to }) => from !== null && (to === null || to.type !== from.type || to.type === "symlink"));
    for (const { path } of removals.sort((a, b) => depth(b.path) - depth(a.path)))
      await fs.rm(absolute(root, path), { recursive: true, force: true });
    const creations = writes
      .filter((write): write is PlannedWrite & { to: Entry } => write.to !== null)
      .sort((a, b) => depth(a.path) - depth(b.path));
    for (const { path, from, to } of creations) {
      const at = absolute(root, path);
      if (to.type === "directory") {
        if (from?.type !== "directory") await fs.mkdir(at, { recursive: true });
      } else if (to.type === "symlink") await fs.symlink(to.target, at);
      else {
        await fs.writeFile(at, await this.blobs.get(to.hash));
        if (to.mode !== undefined) await fs.chmod?.(at, to.mode);
      }
    }
    // Folder modes last, deepest first: a folder made read-only first would refuse what goes inside it.
    for (const { path, to } of [...creations].reverse())
      if (to.type === "directory" && to.mode !== undefined) await fs.chmod?.(absolute(root, path), to.mode);
    this.noteChanged(writes.map((write) => absolute(root, write.path)));
  }

  private async collectGarbage(): Promise<void> {
    const live = new Set<string>();
    const keep = (entry: Entry | null) => {
      if (entry?.type === "file") live.add(entry.hash);
    };
    for (const entry of this.known.values()) keep(entry);
    for (const checkpoint of this.timeline) {
      for (const change of checkpoint.changes) {
        keep(change.before);
        keep(change.after);
      }
    }
    const needed = new Set<string>();
    for (const hash of live) for (const link of await this.blobs.closure(hash)) needed.add(link);
    const dead = (await this.options.storage.listBlobs()).filter((hash) => !needed.has(hash));
    await this.options.storage.deleteBlobs(dead);
    this.blobs.forget(dead);
  }
}

/** Two consecutive change lists as one: each path from its first `before` to its last `after`. */
function mergeChanges(first: readonly Change[], second: readonly Change[]): Change[] {
  const merged = new Map<string, Change>();
  for (const change of first) merged.set(change.path, { ...change });
  for (const change of second) {
    const earlier = merged.get(change.path);
    merged.set(change.path, earlier ? { path: change.path, before: earlier.before, after: change.after } : { ...change });
  }
  return [...merged.values()].filter((change) => !sameEntry(change.before, change.after)).sort((a, b) => (a.path < b.path ? -1 : 1));
}
