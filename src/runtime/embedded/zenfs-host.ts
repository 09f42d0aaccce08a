import { bindContext, constants, decodeDirListing, encodeDirListing, Inode, StoreFS, type BoundContext } from "@zenfs/core";
import type { FileSystem } from "@zenfs/core";
import { basename, dirname, normalize } from "pathe";
import { RuntimeError, WriteConflict, isWriteConflict, toRuntimeError } from "../errors.js";
import { ExclusiveGate } from "../exclusive-gate.js";
import { fingerprint, sameContent } from "../fingerprint.js";
import type { AtomicWriteOptions, DirEntry, EntryType } from "../types.js";
import { LinkIndex } from "./link-index.js";
import type { ModeStat, WorkspaceFs } from "./workspace-fs.js";

type ZenStats = { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; size: number; mtimeMs: number; mode: number };

function typeOf(stats: { isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  if (stats.isSymbolicLink()) return "symlink";
  return stats.isDirectory() ? "directory" : "file";
}

function toStat(stats: ZenStats): ModeStat {
  return { type: typeOf(stats), size: Number(stats.size), mtimeMs: Number(stats.mtimeMs), mode: Number(stats.mode) & 0o7777 };
}

/** Files written in one go by `writeMany`: absolute paths, no link on the way. */
export interface BulkFile {
  path: string;
  data: Uint8Array;
}

export interface BulkOptions {
  /**
   * Wait for the store to hold the batch before resolving (default true). A loader writing batch after
   * batch waits only on the last: the store keeps them in order, so that one wait covers them all.
   */
  wait?: boolean;
}

/** The workspace's files as the page holds them: the shell's surface, and a bulk write only the page uses. */
export interface HostFs extends WorkspaceFs {
  /**
   * Writes every file (replacing any there), making parents as needed, as one exclusive step that is
   * announced once. ZenFS's synchronous calls are used: over IndexedDB they update ZenFS's cache at once
   * and queue the stores without waiting for each, so thousands of files cost one burst rather than a
   * round trip (several, in fact) per file; the call resolves once the store has caught up. A link on the
   * way is refused (ELOOP): a bulk load writes only real paths.
   */
  writeMany(files: readonly BulkFile[], options?: BulkOptions): Promise<void>;
  /**
   * lstat, readdir, readFile and readlink answered by ZenFS's synchronous calls where no link is on the
   * way (else as the methods above): over IndexedDB these read ZenFS's copy in memory rather than asking
   * the database, so reading a whole tree (the snapshot cache's first read) costs milliseconds, not seconds.
   */
  readonly quickReads: Pick<WorkspaceFs, "lstat" | "readdir" | "readFile" | "readlink">;
}

/** What writeMany reaches inside ZenFS's StoreFS (protected there; stable across ZenFS 2.x). */
interface StoreTransaction {
  getSync(id: number): Uint8Array | undefined;
  setSync(id: number, data: ArrayBufferView): void;
  commitSync(): void;
}
interface StoreInternals {
  transaction(): StoreTransaction;
  findInodeSync(tx: StoreTransaction, path: string): { data: number };
  allocNew(path: string): number;
  store: { transaction(): unknown };
}

export interface ZenFsHostOptions {
  readOnly?: boolean;
  onChange?: (paths: string[]) => void;
}

/**
 * The workspace's files on a ZenFS file system (in memory, or IndexedDB in the browser), with node's
 * error codes where ZenFS differs. It lives outside the shell worker, so killing a runaway command
 * never loses a file.
 */
export function createZenFsHost(backing: FileSystem, options: ZenFsHostOptions = {}): HostFs {
  const context: BoundContext = bindContext({ mounts: { "/": backing } });
  const fsp = context.fs.promises;
  const fss = context.fs;
  const links = new LinkIndex(fsp);
  /** The path ZenFS may be given: normalised, and with any link on the way resolved here. */
  async function real(path: string, syscall: string, followLast = true): Promise<string> {
    await links.ready;
    return links.resolve(normalize(path), followLast, syscall);
  }

  async function guard<T>(syscall: string, path: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isWriteConflict(error)) throw error;
      const mapped = toRuntimeError(error, syscall, path);
      // ZenFS reports reading a folder as ENOTDIR; node (and every tool's error text) says EISDIR.
      if (mapped.code === "ENOTDIR" && (syscall === "open" || syscall === "read")) {
        const isDir = await real(path, syscall)
          .then((at) => fsp.stat(at))
          .then(
            (s) => s.isDirectory(),
            () => false,
          );
        if (isDir) throw new RuntimeError("EISDIR", syscall, path);
      }
      throw mapped;
    }
  }

  // Every change (the shell's too: it reaches the files through this host) is shared; a checked write is
  // exclusive, so nothing changes between its check and its write.
  const gate = new ExclusiveGate();

  function mutate<T>(syscall: string, paths: string[], run: () => Promise<T>, exclusive = false): Promise<T> {
    if (options.readOnly) return Promise.reject(new RuntimeError("EROFS", syscall, paths[0]));
    const guarded = () => guard(syscall, paths[0]!, run);
    return (exclusive ? gate.exclusive(guarded) : gate.shared(guarded)).then((value) => {
      options.onChange?.(paths);
      return value;
    });
  }

  /** Makes the folders missing on the way to `folder` (a real path), refusing any link on it. Returns those made. */
  async function makeParents(path: string, folder: string): Promise<string[]> {
    const made: string[] = [];
    let at = "";
    for (const part of folder.split("/").filter(Boolean)) {
      at = `${at}/${part}`;
      const stats = await fsp.lstat(at).catch(() => undefined);
      if (stats?.isSymbolicLink()) throw new WriteConflict(path, "moved");
      if (stats && !stats.isDirectory()) throw new RuntimeError("ENOTDIR", "mkdir", path);
      if (!stats) {
        await fsp.mkdir(at);
        made.push(at);
      }
    }
    return made;
  }

  async function writeChecked(path: string, data: Uint8Array, opts: AtomicWriteOptions): Promise<string[]> {
    const made = opts.makeParents ? await makeParents(path, dirname(normalize(path))) : [];
    const folder = await real(dirname(normalize(path)), "open");
    if (!(await fsp.stat(folder)).isDirectory()) throw new RuntimeError("ENOTDIR", "open", path);
    if (opts.parent !== undefined && folder !== opts.parent) throw new WriteConflict(path, "moved");
    const target = folder === "/" ? `/${basename(path)}` : `${folder}/${basename(path)}`;
    const current = await fsp.lstat(target).catch((error: unknown) => {
      if (toRuntimeError(error, "lstat", path).code === "ENOENT") return undefined;
      throw error;
    });
    if (current?.isSymbolicLink()) {
      throw new RuntimeError(
        "ELOOP",
        "open",
        path,
        "is a symbolic link, which a checked write never follows (write to the path it leads to)",
      );
    }
    if (current?.isDirectory()) throw new RuntimeError("EISDIR", "open", path);
    if (opts.expect === "absent" && current) throw new WriteConflict(path, "created");
    if (opts.expect !== undefined && opts.expect !== "absent") {
      if (!current) throw new WriteConflict(path, "deleted");
      const bytes = new Uint8Array(await fsp.readFile(target));
      if (!sameContent(fingerprint(bytes), opts.expect)) throw new WriteConflict(path, "changed", Number(current.mtimeMs));
    }
    await fsp.writeFile(target, data);
    return made;
  }

  /**
   * New files straight into the store, a folder at a time: one transaction writes each file's inode and
   * data and the folder's listing once, where ZenFS's open, write and close would make several transactions
   * per file and decode and re-encode the whole listing for each (quadratic in a big folder). This is what
   * StoreFS.commitNewSync does for one file, done for many.
   */
  const store = backing instanceof StoreFS ? (backing as unknown as StoreInternals) : undefined;

  function commitNew(folder: string, entries: ReadonlyArray<{ name: string; data: Uint8Array }>): void {
    const internals = store!;
    const tx = internals.transaction();
    const parent = internals.findInodeSync(tx, folder);
    const listing = decodeDirListing(tx.getSync(parent.data) ?? new Uint8Array()) as Record<string, number>;
    for (const { name, data } of entries) {
      const path = folder === "/" ? `/${name}` : `${folder}/${name}`;
      const ino = internals.allocNew(path);
      const inode = new Inode({ mode: constants.S_IFREG | 0o644, uid: 0, gid: 0, ino, data: ino + 1, size: data.byteLength, nlink: 1 });
      tx.setSync(inode.ino, inode);
      tx.setSync(inode.data, data);
      listing[name] = inode.ino;
    }
    tx.setSync(parent.data, encodeDirListing(listing));
    tx.commitSync();
  }

  /**
   * Runs `burst` (synchronous) with every store transaction it starts being one and the same: over
   * IndexedDB that is one IDB transaction for the whole batch instead of one per file, which is most of
   * the cost (each commit is a database write). The shared transaction commits by itself once the burst
   * returns, as IDB transactions do when nothing more is asked of them in the task.
   */
  function inOneTransaction<T>(burst: () => T): T {
    if (!store) return burst();
    const own = Object.getOwnPropertyDescriptor(store.store, "transaction");
    const shared = store.store.transaction();
    store.store.transaction = () => shared;
    try {
      return burst();
    } finally {
      if (own) Object.defineProperty(store.store, "transaction", own);
      else delete (store.store as Partial<StoreInternals["store"]>).transaction;
    }
  }

  /** The synchronous part of writeMany: the folders made on the way, every file written. */
  function writeBurst(files: readonly BulkFile[]): string[] {
    const made: string[] = [];
    /** The names in each folder met so far (a folder made here starts empty). */
    const listings = new Map<string, Set<string>>();
    const listing = (folder: string): Set<string> => {
      let names = listings.get(folder);
      if (names) return names;
      let stats: { isDirectory(): boolean } | undefined;
      try {
        stats = fss.lstatSync(folder);
      } catch (error) {
        if (toRuntimeError(error, "lstat", folder).code !== "ENOENT") throw error;
      }
      if (stats && !stats.isDirectory()) throw new RuntimeError("ENOTDIR", "open", folder);
      // A file of this batch not yet in the store at that name: it cannot also be a folder.
      if (!stats && pending.has(folder)) throw new RuntimeError("ENOTDIR", "open", folder);
      if (stats) names = new Set(fss.readdirSync(folder).map(String));
      else {
        listing(dirname(folder)).add(basename(folder));
        fss.mkdirSync(folder);
        made.push(folder);
        names = new Set();
      }
      listings.set(folder, names);
      return names;
    };
    const fresh = new Map<string, Array<{ name: string; data: Uint8Array }>>();
    /** New files of this batch by path, so a path given twice keeps its last content, as two writes would. */
    const pending = new Map<string, { name: string; data: Uint8Array }>();
    for (const file of files) {
      const path = normalize(file.path);
      if (links.involves(path))
        throw new RuntimeError("ELOOP", "open", file.path, "has a symbolic link on the way, which a bulk write never follows");
      const folder = dirname(path);
      const names = listing(folder);
      const name = basename(path);
      const again = pending.get(path);
      if (again) {
        again.data = file.data;
        continue;
      }
      if (store && !names.has(name)) {
        let list = fresh.get(folder);
        if (!list) fresh.set(folder, (list = []));
        const entry = { name, data: file.data };
        list.push(entry);
        pending.set(path, entry);
        names.add(name);
        continue;
      }
      try {
        fss.writeFileSync(path, file.data);
        names.add(name);
      } catch (error) {
        const mapped = toRuntimeError(error, "open", file.path);
        throw mapped.code === "ENOTDIR" && fss.statSync(path).isDirectory() ? new RuntimeError("EISDIR", "open", file.path) : mapped;
      }
    }
    for (const [folder, entries] of fresh) commitNew(folder, entries);
    return made;
  }

  async function assertWritableTarget(path: string): Promise<void> {
    const isDir = await fsp.stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir) throw new RuntimeError("EISDIR", "open", path);
  }

  const host: Omit<HostFs, "quickReads"> = {
    readFile: (path, opts) =>
      guard("open", path, async () => {
        const at = await real(path, "open", !opts?.noFollow);
        if (
          opts?.noFollow &&
          (await fsp.lstat(at).then(
            (s) => s.isSymbolicLink(),
            () => false,
          ))
        ) {
          throw new RuntimeError("ELOOP", "open", path, "is a symbolic link, which this read does not follow");
        }
        const stats = await fsp.stat(at);
        if (stats.isDirectory()) throw new RuntimeError("EISDIR", "read", path);
        return new Uint8Array(await fsp.readFile(at));
      }),
    read: (path, { position, length }) =>
      guard("read", path, async () => {
        const handle = await fsp.open(await real(path, "read"), "r");
        try {
          const buffer = new Uint8Array(Math.max(0, length));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      }),
    writeFile: (path, data) =>
      mutate("open", [path], async () => {
        const at = await real(path, "open");
        await assertWritableTarget(at);
        await fsp.writeFile(at, data);
      }),
    writeMany: (files, bulk) => {
      if (files.length === 0) return bulk?.wait === false ? Promise.resolve() : fsp.stat("/").then(() => undefined);
      const changed = files.map((file) => file.path);
      return mutate(
        "open",
        changed,
        async () => {
          await links.ready;
          changed.push(...inOneTransaction(() => writeBurst(files)));
          // A read makes a new store transaction; the store runs them in order, so when it answers every
          // write queued above is stored.
          if (bulk?.wait !== false) await fsp.stat("/");
        },
        true,
      );
    },
    writeFileAtomic: (path, data, opts) => {
      // The folders it makes are announced with the file (mutate reads the list when the write is done).
      const changed = [path];
      return mutate("open", changed, async () => void changed.push(...(await writeChecked(path, data, opts ?? {}))), true);
    },
    appendFile: (path, data) =>
      mutate("open", [path], async () => {
        const at = await real(path, "open");
        await assertWritableTarget(at);
        await fsp.appendFile(at, data);
      }),
    stat: (path) => guard("stat", path, async () => toStat(await fsp.stat(await real(path, "stat")))),
    lstat: (path) => guard("lstat", path, async () => toStat(await fsp.lstat(await real(path, "lstat", false)))),
    readdir: (path) =>
      guard("scandir", path, async () => {
        const entries = await fsp.readdir(await real(path, "scandir"), { withFileTypes: true });
        return entries.map((entry): DirEntry => ({ name: entry.name, type: typeOf(entry) }));
      }),
    mkdir: (path, opts) =>
      mutate("mkdir", [path], async () => {
        await fsp.mkdir(await real(path, "mkdir", false), { recursive: opts?.recursive ?? false });
      }),
    rm: (path, opts) =>
      mutate("rm", [path], async () => {
        // As node's fs.rm: a folder goes only with recursive, even an empty one.
        const at = await real(path, "rm", false);
        const isDir = await fsp.lstat(at).then(
          (s) => s.isDirectory(),
          () => false,
        );
        if (isDir && !opts?.recursive) throw new RuntimeError("EISDIR", "rm", path);
        await fsp.rm(at, { recursive: opts?.recursive ?? false, force: opts?.force ?? false });
        links.removed(at);
      }),
    rename: (from, to) =>
      mutate("rename", [from, to], async () => {
        const [a, b] = [await real(from, "rename", false), await real(to, "rename", false)];
        await fsp.rename(a, b);
        links.moved(a, b);
      }),
    realpath: (path) =>
      guard("realpath", path, async () => {
        const at = await real(path, "realpath");
        // Past the links resolved here, ZenFS meets none; it still checks that the path exists.
        return fsp.realpath(at);
      }),
    readlink: (path) => guard("readlink", path, async () => String(await fsp.readlink(await real(path, "readlink", false)))),
    symlink: (target, path) =>
      mutate("symlink", [path], async () => {
        const at = await real(path, "symlink", false);
        await fsp.symlink(target, at);
        links.added(at);
      }),
    chmod: (path, mode) => mutate("chmod", [path], async () => fsp.chmod(await real(path, "chmod"), mode)),
    utimes: (path, atimeMs, mtimeMs) =>
      mutate("utime", [path], async () => fsp.utimes(await real(path, "utime"), new Date(atimeMs), new Date(mtimeMs))),
    link: (existing, path) =>
      mutate("link", [path], async () => fsp.link(await real(existing, "link", false), await real(path, "link", false))),
  };

  async function quick<T>(syscall: string, path: string, sync: (at: string) => T, slow: () => Promise<T>): Promise<T> {
    await links.ready;
    const at = normalize(path);
    if (links.involves(at)) return slow();
    try {
      return sync(at);
    } catch (error) {
      throw toRuntimeError(error, syscall, path);
    }
  }

  return {
    ...host,
    quickReads: {
      lstat: (path) =>
        quick(
          "lstat",
          path,
          (at) => toStat(fss.lstatSync(at)),
          () => host.lstat(path),
        ),
      readdir: (path) =>
        quick(
          "scandir",
          path,
          (at) => fss.readdirSync(at, { withFileTypes: true }).map((entry): DirEntry => ({ name: entry.name, type: typeOf(entry) })),
          () => host.readdir(path),
        ),
      readFile: (path) =>
        quick(
          "open",
          path,
          (at) => new Uint8Array(fss.readFileSync(at)),
          () => host.readFile(path),
        ),
      readlink: (path) =>
        quick(
          "readlink",
          path,
          (at) => String(fss.readlinkSync(at)),
          () => host.readlink(path),
        ),
    },
  };
}
