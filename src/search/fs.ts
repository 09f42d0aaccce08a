/**
 * The file-system surface the search library needs, and nothing more. `Runtime.fs` from any backend
 * satisfies it, so the library stays a leaf: it can run next to the files (in a worker) or in the page.
 * Every path is absolute and posix. Failures are errors with a `.code` such as "ENOENT".
 */

/**
 * "fifo", "socket" and "device" are special files: a walk skips them as ripgrep does (a FIFO would block
 * the read, a device like /dev/zero never ends), and a search refuses one named explicitly.
 */
export type SearchEntryType = "file" | "directory" | "symlink" | "fifo" | "socket" | "device";

export interface SearchDirEntry {
  name: string;
  type: SearchEntryType;
}

export interface SearchStat {
  type: SearchEntryType;
  size: number;
  mtimeMs: number;
}

export interface SearchFs {
  readdir(path: string): Promise<SearchDirEntry[]>;
  /** Follows symbolic links. */
  stat(path: string): Promise<SearchStat>;
  /** Does not follow a final symbolic link. */
  lstat(path: string): Promise<SearchStat>;
  readFile(path: string): Promise<Uint8Array>;
  realpath(path: string): Promise<string>;
  /**
   * The file's bytes if they can be had without waiting (already in memory, or a synchronous read),
   * else undefined (then readFile is used, and reports any error). Lets a search skip the promise
   * machinery of a read for each of thousands of files.
   */
  readNow?(path: string): Uint8Array | undefined;
}

/** The `.code` of a file-system error ("ENOENT"), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

const osErrors: Record<string, [string, number]> = {
  ENOENT: ["No such file or directory", 2],
  EACCES: ["Permission denied", 13],
  EPERM: ["Operation not permitted", 1],
  ENOTDIR: ["Not a directory", 20],
  EISDIR: ["Is a directory", 21],
  ELOOP: ["Too many levels of symbolic links", 40],
  EIO: ["Input/output error", 5],
  EMFILE: ["Too many open files", 24],
  ENAMETOOLONG: ["File name too long", 36],
  ENXIO: ["No such device or address", 6],
};

/** The error as ripgrep words it: "No such file or directory (os error 2)". */
export function describeFsError(error: unknown): string {
  const code = errorCode(error);
  const known = code ? osErrors[code] : undefined;
  if (known) return `${known[0]} (os error ${known[1]})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
