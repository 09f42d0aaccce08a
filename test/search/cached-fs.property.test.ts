/**
 * CachedSearchFs never answers with something stale: for random sequences of changes (writes, removals,
 * renames of files and folders, links made and replaced), each reported the way the embedded file host
 * reports it (the changed paths only), every read through the cache equals a read of the file system
 * itself, error codes included. And it keeps within its byte budget.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CachedSearchFs, type SearchFs } from "../../src/search/index.js";
import { MemoryFs } from "./memory-fs.js";

const names = ["/w/a", "/w/b", "/w/d", "/w/d/x", "/w/d/y", "/w/e", "/w/e/z", "/w/d/sub/q"];

type Op =
  | { kind: "write"; path: string; text: string }
  | { kind: "rm"; path: string }
  | { kind: "rename"; from: string; to: string }
  | { kind: "link"; path: string; target: string }
  | { kind: "read"; path: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), path: fc.constantFrom(...names), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("rm" as const), path: fc.constantFrom(...names) }),
  fc.record({ kind: fc.constant("rename" as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names) }),
  fc.record({
    kind: fc.constant("link" as const),
    path: fc.constantFrom(...names),
    target: fc.constantFrom("d", "/w/e", "a", "../w/d", "loop"),
  }),
  fc.record({ kind: fc.constant("read" as const), path: fc.constantFrom(...names, "/w") }),
);

function under(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** Applies a change to the memory fs; returns the paths the host would report, or none if it failed. */
function apply(fs: MemoryFs, change: Op): string[] {
  const { nodes } = fs;
  switch (change.kind) {
    case "write": {
      const parent = change.path.slice(0, change.path.lastIndexOf("/"));
      if (nodes.get(change.path)?.type === "directory" || nodes.get(parent)?.type !== "directory") return [];
      fs.add(change.path, change.text);
      return [change.path];
    }
    case "link": {
      const parent = change.path.slice(0, change.path.lastIndexOf("/"));
      if (nodes.has(change.path) || nodes.get(parent)?.type !== "directory") return [];
      fs.add(change.path, { link: change.target });
      return [change.path];
    }
    case "rm": {
      if (!nodes.has(change.path)) return [];
      for (const key of [...nodes.keys()]) if (under(key, change.path)) nodes.delete(key);
      return [change.path];
    }
    case "rename": {
      const { from, to } = change;
      const parent = to.slice(0, to.lastIndexOf("/"));
      if (!nodes.has(from) || under(to, from) || nodes.get(parent)?.type !== "directory") return [];
      for (const key of [...nodes.keys()]) if (under(key, to)) nodes.delete(key);
      for (const [key, node] of [...nodes]) {
        if (!under(key, from)) continue;
        nodes.delete(key);
        nodes.set(to + key.slice(from.length), node);
      }
      return [from, to];
    }
    case "read":
      return [];
  }
}

async function outcome<T>(run: () => Promise<T>): Promise<T | { error: string | undefined }> {
  try {
    return await run();
  } catch (error) {
    return { error: (error as { code?: string }).code };
  }
}

async function view(fs: SearchFs, path: string) {
  const text = new TextDecoder();
  return {
    readdir: await outcome(async () => (await fs.readdir(path)).map((e) => `${e.name}:${e.type}`).sort()),
    stat: await outcome(async () => {
      const s = await fs.stat(path);
      return `${s.type}:${s.size}:${s.mtimeMs}`;
    }),
    lstat: await outcome(async () => (await fs.lstat(path)).type),
    readFile: await outcome(async () => text.decode(await fs.readFile(path))),
    realpath: await outcome(() => fs.realpath(path)),
  };
}

describe("CachedSearchFs", () => {
  it("answers every read as the file system would, after any sequence of reported changes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const inner = new MemoryFs({ "/w/a": "one", "/w/d/x": "two", "/w/e/z": "three" });
        const cached = new CachedSearchFs(inner);
        for (const change of ops) {
          const changed = apply(inner, change);
          if (changed.length > 0) cached.invalidate(changed);
          const probe = change.kind === "rename" ? change.to : change.path;
          for (const path of [probe, "/w", "/w/d", "/w/e/z"]) {
            expect(await view(cached, path)).toEqual(await view(inner, path));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("serves a second read from memory", async () => {
    const inner = new MemoryFs({ "/w/a.txt": "hello" });
    const cached = new CachedSearchFs(inner);
    await cached.readFile("/w/a.txt");
    await cached.readFile("/w/a.txt");
    await cached.readdir("/w");
    await cached.readdir("/w");
    expect(inner.calls).toEqual({ readFile: 1, readdir: 1 });
  });

  it("does not keep a read that a change overtook", async () => {
    const inner = new MemoryFs({ "/w/a.txt": "old" });
    const cached = new CachedSearchFs(inner);
    const pending = cached.readFile("/w/a.txt");
    inner.add("/w/a.txt", "new");
    cached.invalidate(["/w/a.txt"]);
    expect(new TextDecoder().decode(await pending)).toBe("old");
    expect(new TextDecoder().decode(await cached.readFile("/w/a.txt"))).toBe("new");
  });

  it("keeps file contents within its byte budget, dropping the least recently used", async () => {
    const inner = new MemoryFs({ "/w/1": "a".repeat(40), "/w/2": "b".repeat(40), "/w/3": "c".repeat(40) });
    const cached = new CachedSearchFs(inner, { maxBytes: 100 });
    await cached.readFile("/w/1");
    await cached.readFile("/w/2");
    await cached.readFile("/w/1");
    await cached.readFile("/w/3");
    expect(cached.cachedBytes).toBeLessThanOrEqual(100);
    const before = inner.calls.readFile;
    await cached.readFile("/w/1");
    expect(inner.calls.readFile).toBe(before);
    await cached.readFile("/w/2");
    expect(inner.calls.readFile).toBe(before! + 1);
  });
});
