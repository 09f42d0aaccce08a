/**
 * A file outside every workspace, which no attack may change, nor add anything beside: an outside folder
 * holding one file of known bytes and mtime. On node it is a real temp folder; on the embedded runtime a
 * folder of its file system outside the workspace root.
 */
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { Runtime } from "../../src/runtime/types.js";

export const SENTINEL_TEXT = "sentinel: outside every workspace, never to be changed\n";
const MTIME_S = 1_000_000_000; // 2001-09-09, so a write is seen even within one clock tick

export interface Sentinel {
  /** The outside folder (real path). */
  dir: string;
  /** The sentinel file in it. */
  file: string;
  /** Fails unless the file has its bytes and mtime and the folder holds nothing else. */
  assertUntouched(): Promise<void>;
  /** Fails if `text` shows the sentinel's content (it was read and reported). */
  assertNotLeaked(text: string | undefined): void;
  dispose(): Promise<void>;
}

export async function plantSentinel(runtime: Runtime): Promise<Sentinel> {
  const name = "sentinel.txt";
  if (runtime.kind === "node") {
    const dir = await mkdtemp(join(tmpdir(), "wb-outside-"));
    const file = join(dir, name);
    await writeFile(file, SENTINEL_TEXT);
    await utimes(file, MTIME_S, MTIME_S);
    return sentinel(
      dir,
      file,
      async () => ({
        text: await readFile(file, "utf8"),
        mtimeMs: (await stat(file)).mtimeMs,
        names: await readdir(dir),
      }),
      () => rm(dir, { recursive: true, force: true }),
    );
  }
  const dir = `/outside-${Math.random().toString(36).slice(2, 8)}`;
  const file = `${dir}/${name}`;
  await runtime.fs.mkdir(dir, { recursive: true });
  await runtime.fs.writeFile(file, SENTINEL_TEXT);
  const withTimes = runtime.fs as Partial<{ utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> }>;
  await withTimes.utimes?.(file, MTIME_S * 1000, MTIME_S * 1000);
  const planted = (await runtime.fs.lstat(file)).mtimeMs;
  return sentinel(
    dir,
    file,
    async () => ({
      text: new TextDecoder().decode(await runtime.fs.readFile(file)),
      mtimeMs: (await runtime.fs.lstat(file)).mtimeMs,
      names: (await runtime.fs.readdir(dir)).map((entry) => entry.name),
    }),
    async () => {},
    planted,
  );
}

function sentinel(
  dir: string,
  file: string,
  look: () => Promise<{ text: string; mtimeMs: number; names: string[] }>,
  dispose: () => Promise<void>,
  plantedMtime = MTIME_S * 1000,
): Sentinel {
  return {
    dir,
    file,
    async assertUntouched() {
      const now = await look();
      expect(now.names, `nothing may appear beside the sentinel in ${dir}`).toEqual(["sentinel.txt"]);
      expect(now.text, "the sentinel's bytes").toBe(SENTINEL_TEXT);
      expect(now.mtimeMs, "the sentinel's mtime").toBe(plantedMtime);
    },
    assertNotLeaked(text) {
      expect(text ?? "").not.toContain(SENTINEL_TEXT.trim());
    },
    dispose,
  };
}
