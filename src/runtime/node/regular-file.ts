/**
 * Opening a file for reading on the node runtime only when it is a regular file. A FIFO blocks its
 * reader until a writer comes (forever, in a workspace nobody writes to it), a socket cannot be
 * opened, and a device such as /dev/zero never ends (a link to it made grep read 2.6 GB). So every read
 * opens without blocking (O_NONBLOCK: a FIFO opens at once, and the flag changes nothing for a regular
 * file), asks the open file what it is, and refuses anything but a regular file. Judging the open file
 * rather than the path first means a name swapped for a FIFO between a check and the read is caught too.
 */
import { closeSync, constants, fstatSync, openSync, promises as fsp, statSync } from "node:fs";
import { RuntimeError, toRuntimeError } from "../errors.js";
import { describeSpecialType, type EntryType, type SpecialType } from "../types.js";

/** The flags every read opens with (O_NOCTTY: a terminal device never becomes ours). */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

interface TypedStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** What node's stats (or a directory entry) say the entry is. */
export function entryTypeOf(stats: TypedStats): EntryType {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  return "file";
}

/** The error a read of a special file ends with: EINVAL, saying what the file is. */
function notRegularFile(path: string, type: SpecialType, syscall = "open"): RuntimeError {
  return new RuntimeError("EINVAL", syscall, path, `not a regular file: it is ${describeSpecialType(type)}, which has no content to read`);
}

function refusal(path: string, stats: TypedStats): RuntimeError | undefined {
  const type = entryTypeOf(stats);
  if (type === "directory") return new RuntimeError("EISDIR", "read", path);
  return type === "file" ? undefined : notRegularFile(path, type as SpecialType);
}

/** A socket cannot be opened at all (ENXIO): say what it is rather than "no such device". */
function openFailure(error: unknown, path: string): RuntimeError {
  if ((error as { code?: unknown } | null)?.code === "ENXIO") {
    const stats = (() => {
      try {
        return statSync(path);
      } catch {
        return undefined;
      }
    })();
    const refused = stats && refusal(path, stats);
    if (refused) return refused;
  }
  return toRuntimeError(error, "open", path);
}

/** Opens `path` for reading (synchronously); throws a RuntimeError unless it is a regular file. */
export function openRegularSync(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    throw openFailure(error, path);
  }
  const refused = refusal(path, fstatSync(fd));
  if (refused) {
    closeSync(fd);
    throw refused;
  }
  return fd;
}

/** Opens `path` for reading; rejects with a RuntimeError unless it is a regular file. */
export async function openRegular(path: string): Promise<fsp.FileHandle> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, READ_FLAGS);
  } catch (error) {
    throw openFailure(error, path);
  }
  const refused = refusal(path, await handle.stat());
  if (refused) {
    await handle.close();
    throw refused;
  }
  return handle;
}
