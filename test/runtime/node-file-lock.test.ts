/** The node runtime's file lock: held locks are waited for, stale ones broken, planted links refused. */
import { spawnSync } from "node:child_process";
import { lstat, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRuntimeError } from "../../src/runtime/errors.js";
import { fingerprint } from "../../src/runtime/fingerprint.js";
import { acquireFileLock, lockName, STALE_MS } from "../../src/runtime/node/file-lock.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "wb-filelock-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("node file lock", () => {
  it("is one file beside the target while held, and gone after", async () => {
    const lock = join(dir, lockName("a.txt"));
    const release = await acquireFileLock(lock);
    expect((await readFile(lock, "utf8")).split("\n").slice(0, 2)).toEqual([String(process.pid), hostname()]);
    await release();
    expect(await readdir(dir)).toEqual([]);
  });

  it("makes a second taker wait, and says who holds it when the wait runs out", async () => {
    const lock = join(dir, lockName("a.txt"));
    const release = await acquireFileLock(lock);
    const error = await acquireFileLock(lock, { waitMs: 100 }).catch((e: unknown) => e);
    expect(isRuntimeError(error, "EBUSY")).toBe(true);
    expect((error as Error).message).toContain(`being written by process ${process.pid}`);
    await release();
    const again = await acquireFileLock(lock, { waitMs: 100 });
    await again();
  });

  it("breaks a lock left by a process that is gone", async () => {
    const lock = join(dir, lockName("a.txt"));
    await writeFile(lock, `${deadPid()}\n${hostname()}\ndeadbeef\n`);
    const release = await acquireFileLock(lock, { waitMs: 100 });
    expect(await readFile(lock, "utf8")).toContain(String(process.pid));
    await release();
  });

  it("breaks a lock older than the stale limit, even of a live process", async () => {
    const lock = join(dir, lockName("a.txt"));
    await writeFile(lock, `${process.pid}\n${hostname()}\nold-token\n`);
    const past = (Date.now() - STALE_MS - 5_000) / 1000;
    await utimes(lock, past, past);
    const release = await acquireFileLock(lock, { waitMs: 100 });
    expect(await readFile(lock, "utf8")).not.toContain("old-token");
    await release();
  });

  it("refuses a link planted at the lock's name, and neither follows nor removes it", async () => {
    const outside = await mkdtemp(join(tmpdir(), "wb-filelock-outside-"));
    try {
      await writeFile(join(outside, "victim"), "keep\n");
      await symlink(join(outside, "victim"), join(dir, lockName("a.txt")));
      await writeFile(join(dir, "a.txt"), "base\n");
      const runtime = createNodeRuntime({ root: dir, searchThreads: 0 });
      const error = await runtime.fs
        .writeFileAtomic(join(dir, "a.txt"), bytes("new\n"), { expect: fingerprint(bytes("base\n")) })
        .catch((e: unknown) => e);
      expect(isRuntimeError(error, "EBUSY")).toBe(true);
      expect((error as Error).message).toContain("is not a regular file");
      expect(await readFile(join(outside, "victim"), "utf8")).toBe("keep\n");
      expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("base\n");
      expect((await lstat(join(dir, lockName("a.txt")))).isSymbolicLink()).toBe(true);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
