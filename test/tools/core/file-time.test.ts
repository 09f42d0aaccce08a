/** FileTime: no overwrite of a file the session has not read, or that changed since. */
import { describe, expect, it } from "vitest";
import { FileTime } from "../../../src/tools/file-time.js";

function clockAndFs(mtimes: Record<string, number>, contents: Record<string, string> = {}) {
  let now = 1_000;
  const bytes = (path: string) => new TextEncoder().encode(contents[path] ?? "");
  const fs = {
    stat: async (path: string) => ({ type: "file" as const, size: bytes(path).length, mtimeMs: mtimes[path] ?? 0 }),
    readFile: async (path: string) => bytes(path),
  };
  return { fileTime: new FileTime(fs, () => now), tick: (ms: number) => (now += ms) };
}

describe("FileTime", () => {
  it("asks for a read first", async () => {
    const { fileTime } = clockAndFs({ "/w/a": 500 });
    await expect(fileTime.assert("s1", "/w/a")).rejects.toThrow("You must read file /w/a before overwriting it. Use the Read tool first");
  });

  it("passes after a read, per session", async () => {
    const { fileTime } = clockAndFs({ "/w/a": 500 });
    fileTime.read("s1", "/w/a");
    await fileTime.assert("s1", "/w/a");
    await expect(fileTime.assert("s2", "/w/a")).rejects.toThrow(/must read file/);
  });

  it("refuses when the file changed after the read, naming both times", async () => {
    const mtimes = { "/w/a": 500 };
    const { fileTime } = clockAndFs(mtimes);
    fileTime.read("s1", "/w/a");
    mtimes["/w/a"] = 1_000 + 51;
    const error = (await fileTime.assert("s1", "/w/a").catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^File \/w\/a has been modified since it was last read\.\nLast modification: .*Z\nLast read: .*Z\n\nPlease read the file again before modifying it\.$/,
    );
    mtimes["/w/a"] = 1_000 + 50; // within the tolerance
    await fileTime.assert("s1", "/w/a");
  });

  it("judges a recorded read on content: a rewrite within the same mtime is seen, a touch is not a change", async () => {
    const mtimes = { "/w/a": 500 };
    const contents = { "/w/a": "one\n" };
    const { fileTime } = clockAndFs(mtimes, contents);
    await fileTime.record("s1", "/w/a");
    expect(fileTime.seen("s1", "/w/a")?.fingerprint?.size).toBe(4);
    contents["/w/a"] = "two\n"; // same size, same mtime
    await expect(fileTime.assert("s1", "/w/a")).rejects.toThrow(/has been modified since it was last read/);
    contents["/w/a"] = "one\n";
    mtimes["/w/a"] = 99_999; // touched long after the read, content as seen
    await fileTime.assert("s1", "/w/a");
    // Bytes the caller already holds are what is compared.
    await expect(fileTime.assert("s1", "/w/a", new TextEncoder().encode("other"))).rejects.toThrow(/modified since it was last read/);
  });

  it("forgets reads of a file a person edited", async () => {
    const { fileTime } = clockAndFs({ "/w/a": 0 });
    fileTime.read("s1", "/w/a");
    fileTime.invalidate("/w/a");
    await expect(fileTime.assert("s1", "/w/a")).rejects.toThrow(/must read file/);
  });

  it("serialises work on one path, first come first served, and leaves other paths free", async () => {
    const { fileTime } = clockAndFs({});
    const order: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      order.push(`${name}:start`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      fileTime.withLock("/w/a", slow("first", 30)),
      fileTime.withLock("/w/a", slow("second", 1)),
      fileTime.withLock("/w/b", slow("other", 1)),
    ]);
    expect(results).toEqual(["first", "second", "other"]);
    expect(order.indexOf("first:end")).toBeLessThan(order.indexOf("second:start"));
    expect(order.indexOf("other:end")).toBeLessThan(order.indexOf("first:end"));
  });

  it("releases the lock when the work throws", async () => {
    const { fileTime } = clockAndFs({});
    await expect(fileTime.withLock("/w/a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await fileTime.withLock("/w/a", async () => "next")).toBe("next");
  });
});
