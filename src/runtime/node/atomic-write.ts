/**
 * RuntimeFs.writeFileAtomic on node. The path is judged and written in one step:
 *
 * - the folder is opened and held; its real path must be the one the caller judged. On Linux every later
 *   step reaches the folder through the open handle (/proc/self/fd/N, which the kernel resolves to the
 *   folder itself, as openat would), so a link swapped in on the way to it afterwards changes nothing;
 * - under the file's lock (file-lock.ts), the folder is checked again (not moved or deleted), the name is
 *   looked at without following it (a link there is refused: ELOOP), and the content is compared with
 *   what is expected;
 * - the data goes to a new temporary file in that folder (O_EXCL|O_NOFOLLOW: never an existing file nor a
 *   link), which then replaces the name by rename. rename replaces a link rather than following it, so a
 *   link swapped in at the name after the check is overwritten, never its target.
 *
 * So the folder must be writable, not only the file: a file alone in a read-only folder is refused with a
 * message saying so (writing it in place would give up the lock and the all-or-nothing replace).
 */
import { randomBytes } from "node:crypto";
import { constants, promises as fsp, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
import { RuntimeError, WriteConflict } from "../errors.js";
import { fingerprint, sameContent } from "../fingerprint.js";
import type { AtomicWriteOptions } from "../types.js";
import { acquireFileLock, lockName } from "./file-lock.js";

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Writes; returns the real path written. */
export async function writeFileAtomicNode(path: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<string> {
  const name = basename(path);
  const folder = options.makeParents ? await makeAndHold(path, dirname(path)) : await holdFolder(dirname(path));
  try {
    if (options.parent !== undefined && folder.real !== options.parent) throw new WriteConflict(path, "moved");
    const at = (entry: string) => `${folder.via}/${entry}`;
    const release = await acquireFileLock(at(lockName(name)), { label: join(folder.real, lockName(name)) }).catch((error: unknown) => {
      const found = code(error);
      if (found === "EACCES" || found === "EPERM" || found === "EROFS") {
        throw new RuntimeError(
          found,
          "open",
          path,
          `cannot make files in the folder of ${path} (a checked write puts a lock and a temporary file beside the file)`,
        );
      }
      throw error;
    });
    try {
      if (!(await folder.stillThere())) throw new WriteConflict(path, "moved");
      const target = at(name);
      const current = await fsp.lstat(target).catch((error: unknown) => {
        if (code(error) === "ENOENT") return undefined;
        throw error;
      });
      if (current) assertReplaceable(current, path);
      await checkExpected(path, target, current, options);
      const temporary = at(`.${name}.${randomBytes(6).toString("hex")}.wb-tmp`);
      const handle = await fsp.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
      try {
        try {
          await handle.writeFile(data);
          // The new file gets the old one's mode exactly (open's mode is narrowed by the umask).
          if (current) await handle.chmod(current.mode & 0o7777);
        } finally {
          await handle.close();
        }
        await fsp.rename(temporary, target);
      } catch (error) {
        await fsp.rm(temporary, { force: true });
        throw error;
      }
      return join(folder.real, name);
    } finally {
      await release();
    }
  } finally {
    await folder.close();
  }
}

interface HeldFolder {
  /** Its real path when opened. */
  real: string;
  /** The prefix that reaches it: the open handle on Linux, the real path elsewhere. */
  via: string;
  /** Still at `real` (not moved, deleted or replaced)? */
  stillThere(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Holds `folder`, making what is missing of it first, one folder at a time, each made and then opened through
 * the one above it (never through a link: a link on the way is a "moved" conflict).
 */
async function makeAndHold(path: string, folder: string): Promise<HeldFolder> {
  const missing: string[] = [];
  let existing = folder;
  while (
    existing !== "/" &&
    (await fsp.lstat(existing).then(
      () => false,
      (error: unknown) => code(error) === "ENOENT",
    ))
  ) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  let held = await holdFolder(existing);
  try {
    if (held.real !== existing) throw new WriteConflict(path, "moved");
    for (const name of missing) {
      const next = `${held.via}/${name}`;
      await fsp.mkdir(next).catch((error: unknown) => {
        if (code(error) !== "EEXIST") throw error;
      });
      const inner = await holdFolder(next, { noFollow: true }).catch((error: unknown) => {
        if (code(error) === "ELOOP" || code(error) === "ENOTDIR") throw new WriteConflict(path, "moved");
        throw error;
      });
      const expected = join(held.real, name);
      await held.close();
      held = inner;
      if (held.real !== expected) throw new WriteConflict(path, "moved");
    }
    return held;
  } catch (error) {
    await held.close();
    throw error;
  }
}

async function holdFolder(folder: string, options: { noFollow?: boolean } = {}): Promise<HeldFolder> {
  if (process.platform === "linux") {
    const handle = await fsp.open(folder, constants.O_RDONLY | constants.O_DIRECTORY | (options.noFollow ? constants.O_NOFOLLOW : 0));
    const via = `/proc/self/fd/${handle.fd}`;
    const real = await fsp.readlink(via).catch(() => undefined);
    if (real !== undefined) {
      return { real, via, stillThere: async () => (await fsp.readlink(via).catch(() => "")) === real, close: () => handle.close() };
    }
    // No /proc (a sandbox without it): reach the folder by its path, as elsewhere.
    await handle.close();
  }
  if (options.noFollow && (await fsp.lstat(folder)).isSymbolicLink()) throw Object.assign(new Error(`ELOOP: ${folder}`), { code: "ELOOP" });
  const real = await fsp.realpath(folder);
  return { real, via: real, stillThere: async () => (await fsp.realpath(real).catch(() => "")) === real, close: async () => {} };
}

function assertReplaceable(stat: Stats, path: string): void {
  if (stat.isSymbolicLink()) {
    throw new RuntimeError(
      "ELOOP",
      "open",
      path,
      "is a symbolic link, which a checked write never follows (write to the path it leads to)",
    );
  }
  if (stat.isDirectory()) throw new RuntimeError("EISDIR", "open", path);
  if (!stat.isFile()) throw new RuntimeError("EINVAL", "open", path, "not a regular file (a FIFO, socket or device)");
}

async function checkExpected(path: string, target: string, current: Stats | undefined, options: AtomicWriteOptions): Promise<void> {
  const { expect } = options;
  if (expect === undefined) return;
  if (expect === "absent") {
    if (current) throw new WriteConflict(path, "created");
    return;
  }
  if (!current) throw new WriteConflict(path, "deleted");
  if (current.size !== expect.size) throw new WriteConflict(path, "changed", current.mtimeMs);
  // O_NONBLOCK: a FIFO swapped in after the lstat must not hang the write.
  const handle = await fsp.open(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: unknown) => {
    if (code(error) === "ELOOP" || code(error) === "ENOENT")
      throw new WriteConflict(path, code(error) === "ENOENT" ? "deleted" : "changed");
    throw error;
  });
  try {
    if (!(await handle.stat()).isFile()) throw new WriteConflict(path, "changed");
    const bytes = new Uint8Array(await handle.readFile());
    if (!sameContent(fingerprint(bytes), expect)) throw new WriteConflict(path, "changed", current.mtimeMs);
  } finally {
    await handle.close();
  }
}
