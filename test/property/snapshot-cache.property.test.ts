/**
 * The file host's snapshot cache (what `node` programs start with): after any generated sequence of file
 * operations through the host (writes, appends, folders, removals, renames, links, modes), the previous
 * answer with the delta since it laid over it equals a fresh full read of the tree (node/snapshot.ts's
 * walk, which keeps nothing); and a writer the cache is not told of (another tab) is still seen when it is
 * asked to recheck, while without that the cache answers from what it holds.
 */
import { bindContext, InMemory, resolveMountConfig } from "@zenfs/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { takeSnapshot } from "../../src/runtime/embedded/node/snapshot.js";
import type { ProgramFiles, SnapshotEntry } from "../../src/runtime/embedded/node/protocol.js";
import { watchWrites } from "../../src/runtime/embedded/node/zenfs-writes.js";
import { SnapshotCache } from "../../src/runtime/embedded/snapshot-cache.js";
import { createZenFsHost, type HostFs } from "../../src/runtime/embedded/zenfs-host.js";

const ROOTS = ["/workspace", "/tmp"];

/** A comparable form: path → what is there (bytes as text). */
function view(entries: readonly SnapshotEntry[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    if (entry.kind === "file") out[entry.path] = `file ${entry.mode.toString(8)} ${new TextDecoder().decode(entry.data)}`;
    else if (entry.kind === "directory") out[entry.path] = `dir ${entry.mode.toString(8)}`;
    else out[entry.path] = `link ${entry.target}`;
  }
  return out;
}

/** What a preloaded sandbox holds after a delta: the previous files, less the removed, with the entries over them. */
function laidOver(previous: Map<string, SnapshotEntry>, files: ProgramFiles): Map<string, SnapshotEntry> {
  if (files.kind === "full") return new Map(files.entries.map((entry) => [entry.path, entry]));
  const next = new Map(previous);
  const drop = (path: string) => {
    for (const name of [...next.keys()]) if (name === path || name.startsWith(`${path}/`)) next.delete(name);
  };
  for (const path of files.removed) drop(path);
  for (const entry of files.entries) {
    if (entry.kind !== "directory") drop(entry.path);
    next.set(entry.path, entry);
  }
  return next;
}

const name = fc.constantFrom("a", "b", "c", "d");
const path = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => `/workspace/${parts.join("/")}`);
const text = fc.string({ maxLength: 12 });

type Op = (fs: HostFs) => Promise<unknown>;
const op: fc.Arbitrary<[string, Op]> = fc.oneof(
  fc.tuple(path, text).map(([at, data]): [string, Op] => [`write ${at}`, (fs) => fs.writeFile(at, data)]),
  fc.tuple(path, text).map(([at, data]): [string, Op] => [`append ${at}`, (fs) => fs.appendFile(at, data)]),
  path.map((at): [string, Op] => [`mkdir ${at}`, (fs) => fs.mkdir(at, { recursive: true })]),
  path.map((at): [string, Op] => [`rm ${at}`, (fs) => fs.rm(at, { recursive: true, force: true })]),
  fc.tuple(path, path).map(([from, to]): [string, Op] => [`mv ${from} ${to}`, (fs) => fs.rename(from, to)]),
  // Links lead to names no operation makes: ZenFS's mkdir -p through a link that loops never returns (a
  // fault of the file host, outside what this property is about).
  fc
    .tuple(path, fc.constantFrom("t0", "t1", "/tmp/t0"))
    .map(([at, target]): [string, Op] => [`ln ${target} ${at}`, (fs) => fs.symlink(target, at)]),
  fc.tuple(path, fc.constantFrom(0o644, 0o755, 0o600)).map(([at, mode]): [string, Op] => [`chmod ${at}`, (fs) => fs.chmod(at, mode)]),
);

async function freshHost(): Promise<{ fs: HostFs; cache: SnapshotCache; backing: Awaited<ReturnType<typeof resolveMountConfig>> }> {
  const backing = await resolveMountConfig({ backend: InMemory });
  let cache: SnapshotCache | undefined;
  const fs = createZenFsHost(backing, { onChange: (paths) => cache?.markChanged(paths) });
  cache = new SnapshotCache(fs.quickReads);
  // As the runtime has it: a write through a link is announced at its real path by the backing file system.
  watchWrites(backing, (at) => cache?.markChanged([at]));
  for (const root of ROOTS) await fs.mkdir(root, { recursive: true });
  return { fs, cache, backing };
}

describe("the snapshot cache", () => {
  it("a delta laid over the previous answer equals a fresh read, after any operations", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { maxLength: 6 }), { minLength: 1, maxLength: 5 }), async (rounds) => {
        const { fs, cache } = await freshHost();
        let answer = await cache.read(ROOTS);
        let held = laidOver(new Map(), answer.files);
        for (const round of rounds) {
          for (const [, run] of round) await run(fs).catch(() => {});
          answer = await cache.read(ROOTS, answer.version);
          expect(answer.files.kind).toBe("delta");
          held = laidOver(held, answer.files);
          expect(view([...held.values()])).toEqual(view(await takeSnapshot(fs, ROOTS)));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("sees a writer it is not told of when asked to recheck, and only then", async () => {
    const { fs, backing } = await freshHost();
    await fs.writeFile("/workspace/file.txt", "one");
    // A second view of the files that is never told of changes: writes come from elsewhere (another tab).
    const recheck = new SnapshotCache(fs, { alwaysRecheck: true });
    const trusting = new SnapshotCache(fs);
    const before = [await recheck.read(ROOTS), await trusting.read(ROOTS)];
    bindContext({ mounts: { "/": backing } }).fs.writeFileSync("/workspace/file.txt", "two, from elsewhere");
    const [rechecked, trusted] = [await recheck.read(ROOTS, before[0]!.version), await trusting.read(ROOTS, before[1]!.version)];
    expect(view(rechecked.files.entries)).toEqual({ "/workspace/file.txt": "file 644 two, from elsewhere" });
    expect(trusted.files.entries).toEqual([]);
  });
});
