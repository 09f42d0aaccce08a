/**
 * A lock on one file that every workbench process on the machine honours: a lock file beside it, made with
 * O_CREAT|O_EXCL (which also refuses to follow a link planted at that name), holding the owner's pid, host
 * and a token. It is held for the few milliseconds a checked write takes, so a lock older than STALE_MS, or
 * one whose process on this host is gone, was left by a crash and is broken.
 *
 * Known limit: two processes that find the same stale lock at the same instant may both break it, the
 * second removing the lock the first just made. The token re-read before breaking makes the window a few
 * microseconds wide, and it needs a crash first.
 */
import { randomBytes } from "node:crypto";
import { constants, promises as fsp } from "node:fs";
import { hostname } from "node:os";
import { RuntimeError } from "../errors.js";

export const STALE_MS = 30_000;
const WAIT_MS = 10_000;

export interface FileLockOptions {
  /** How long to wait for another holder before giving up (EBUSY). */
  waitMs?: number;
  staleMs?: number;
  /** How messages name the lock file (when `lockPath` is reached through /proc/self/fd). */
  label?: string;
}

/** The name of the lock of `name`, in the same folder: hidden, and telling what it is. */
export function lockName(name: string): string {
  return `.${name}.wb-lock`;
}

interface Owner {
  pid: number;
  host: string;
  token: string;
}

function parseOwner(text: string): Owner | undefined {
  const [pid, host, token] = text.split("\n");
  const number = Number(pid);
  if (!Number.isInteger(number) || number <= 0 || !host || !token) return undefined;
  return { pid: number, host, token };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readOwner(lockPath: string): Promise<{ owner: Owner | undefined; mtimeMs: number; regular: boolean } | undefined> {
  let handle;
  try {
    handle = await fsp.open(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") {
      const stat = await fsp.lstat(lockPath).catch(() => undefined);
      return stat ? { owner: undefined, mtimeMs: stat.mtimeMs, regular: false } : undefined;
    }
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { owner: undefined, mtimeMs: stat.mtimeMs, regular: false };
    const text = (await handle.readFile({ encoding: "utf8" })).slice(0, 512);
    return { owner: parseOwner(text), mtimeMs: stat.mtimeMs, regular: true };
  } finally {
    await handle.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock at `lockPath` (the folder must exist) and resolves with its release. Waits while another
 * live holder has it; breaks a stale one; EBUSY after `waitMs`.
 */
export async function acquireFileLock(lockPath: string, options: FileLockOptions = {}): Promise<() => Promise<void>> {
  const waitMs = options.waitMs ?? WAIT_MS;
  const staleMs = options.staleMs ?? STALE_MS;
  const label = options.label ?? lockPath;
  const me: Owner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString("hex") };
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await fsp.open(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      try {
        await handle.writeFile(`${me.pid}\n${me.host}\n${me.token}\n`);
      } finally {
        await handle.close();
      }
      return () => release(lockPath, me.token);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const held = await readOwner(lockPath);
    if (held === undefined) continue;
    if (!held.regular) {
      throw new RuntimeError(
        "EBUSY",
        "open",
        label,
        `the lock file ${label} is not a regular file (a link or folder was put there); remove it and try again`,
      );
    }
    const old = Date.now() - held.mtimeMs > staleMs;
    const orphaned = held.owner !== undefined && held.owner.host === me.host && !processAlive(held.owner.pid);
    if (old || orphaned) {
      // Break it only if it is still the lock just judged (another process may have broken and retaken it).
      const again = await readOwner(lockPath);
      if (again && again.owner?.token === held.owner?.token && again.mtimeMs === held.mtimeMs) await fsp.rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() - started > waitMs) {
      const who = held.owner ? `process ${held.owner.pid} on ${held.owner.host}` : "another process";
      throw new RuntimeError("EBUSY", "open", label, `the file is being written by ${who} (lock ${label}); try again`);
    }
    await sleep(Math.min(50, 2 + attempt * 2));
  }
}

async function release(lockPath: string, token: string): Promise<void> {
  // Remove only our own lock: if ours was broken as stale, the file there now is someone else's.
  const held = await readOwner(lockPath).catch(() => undefined);
  if (held?.owner?.token === token) await fsp.rm(lockPath, { force: true });
}
