import { describe, expect, it } from "vitest";
import { search, searchEvents, searchFiles, walk, type WalkOptions } from "../../src/search/index.js";
import { decodeForSearch, searchedBeforeBuffer } from "../../src/search/binary.js";
import { MemoryFs } from "./memory-fs.js";

async function files(fs: MemoryFs, options: Partial<WalkOptions> = {}, messages: string[] = []): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of walk(fs, { root: "/w", onMessage: (text) => messages.push(text), ...options })) out.push(entry.displayPath);
  return out;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const repo = () =>
  new MemoryFs({
    "/w/.git/": "",
    "/w/.gitignore": "*.log\n!keep.log\nbuild/\n/top.txt\n",
    "/w/.ignore": "secret.txt\n",
    "/w/a.txt": "alpha\n",
    "/w/x.log": "log\n",
    "/w/keep.log": "keep\n",
    "/w/top.txt": "top\n",
    "/w/sub/top.txt": "sub top\n",
    "/w/build/out.txt": "out\n",
    "/w/secret.txt": "secret\n",
    "/w/.hidden": "hidden\n",
    "/w/sub/.gitignore": "local.txt\n",
    "/w/sub/local.txt": "local\n",
    "/w/sub/b.txt": "beta\n",
    "/w/nested/.git/": "",
    "/w/nested/n.log": "nested log\n",
  });

describe("walk", () => {
  it("applies ignore files, hidden names and order like rg --sort path", async () => {
    expect(await files(repo())).toEqual(["a.txt", "keep.log", "nested/n.log", "sub/b.txt", "sub/top.txt"]);
  });

  it("includes hidden files with hidden", async () => {
    expect(await files(repo(), { hidden: true })).toContain(".hidden");
    expect(await files(repo(), { hidden: true })).toContain(".gitignore");
  });

  it("ignores .gitignore outside a repository but not .ignore", async () => {
    const fs = new MemoryFs({ "/w/.gitignore": "*.txt\n", "/w/.ignore": "b.md\n", "/w/a.txt": "", "/w/b.md": "", "/w/c.md": "" });
    expect(await files(fs)).toEqual(["a.txt", "c.md"]);
  });

  it("lets globs include and exclude, relative to the root", async () => {
    expect(await files(repo(), { globs: ["*.log"] })).toEqual(["keep.log", "nested/n.log", "x.log"]);
    expect(await files(repo(), { globs: ["!sub"] })).toEqual(["a.txt", "keep.log", "nested/n.log"]);
    // An including glob beats the ignore files (sub/.gitignore lists local.txt).
    expect(await files(repo(), { globs: ["sub/*.txt"] })).toEqual(["sub/b.txt", "sub/local.txt", "sub/top.txt"]);
  });

  it("searches explicit paths as given, without filtering them", async () => {
    expect(await files(repo(), { paths: ["x.log", "build", "/w/sub"] })).toEqual([
      "x.log",
      "build/out.txt",
      "/w/sub/b.txt",
      "/w/sub/top.txt",
    ]);
  });

  it("follows links when asked, reporting loops and dangling links as rg does", async () => {
    const fs = new MemoryFs({
      "/w/d/f.txt": "f\n",
      "/w/d/loop": { link: ".." },
      "/w/link.txt": { link: "d/f.txt" },
      "/w/dir": { link: "d" },
      "/w/dangling": { link: "nowhere" },
    });
    expect(await files(fs)).toEqual(["d/f.txt"]);
    const messages: string[] = [];
    expect(await files(fs, { follow: true }, messages)).toEqual(["d/f.txt", "dir/f.txt", "link.txt"]);
    expect(messages.sort()).toEqual([
      "./dangling: No such file or directory (os error 2)",
      "File system loop found: ./d/loop points to an ancestor ./",
      "File system loop found: ./dir/loop points to an ancestor ./",
    ]);
  });

  it("reports size and modification time", async () => {
    const entries = [];
    for await (const entry of walk(repo(), { root: "/w", paths: ["a.txt"] })) entries.push(entry);
    expect(entries).toEqual([{ path: "/w/a.txt", displayPath: "a.txt", size: 6, mtimeMs: expect.any(Number) }]);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(files(repo(), { signal: controller.signal })).rejects.toThrow();
  });
});

describe("search", () => {
  it("gives line numbers, lines without terminators, and match positions in UTF-16", async () => {
    const fs = new MemoryFs({ "/w/a.txt": "one\r\ntwo 😀 needle and needle\nthree\nneedle" });
    const found = [];
    for await (const m of search(fs, { root: "/w", patterns: ["needle"] })) found.push(m);
    expect(found).toEqual([
      {
        path: "/w/a.txt",
        displayPath: "a.txt",
        lineNumber: 2,
        line: "two 😀 needle and needle",
        lineEnding: "\n",
        matches: [
          { start: 7, end: 13 },
          { start: 18, end: 24 },
        ],
      },
      { path: "/w/a.txt", displayPath: "a.txt", lineNumber: 4, line: "needle", lineEnding: "", matches: [{ start: 0, end: 6 }] },
    ]);
  });

  it("keeps CRLF apart from the line", async () => {
    const fs = new MemoryFs({ "/w/a.txt": "x\r\nfind me\r\n" });
    const [m] = await collect(search(fs, { root: "/w", patterns: ["find"] }));
    expect(m).toMatchObject({ line: "find me", lineEnding: "\r\n", lineNumber: 2 });
  });

  it("drops a UTF-8 BOM and reads UTF-16", async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from("hi there\n").flatMap((c) => [c.charCodeAt(0), 0])]);
    const fs = new MemoryFs({
      "/w/bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("hi bom\n")]),
      "/w/u16.txt": utf16,
    });
    const lines = (await collect(search(fs, { root: "/w", patterns: ["^hi"] }))).map((m) => m.line);
    expect(lines).toEqual(["hi bom", "hi there"]);
  });

  it("skips binary files found by the walk, and says so for explicit ones", async () => {
    const fs = new MemoryFs({ "/w/bin.dat": new Uint8Array([104, 105, 10, 0, 104, 105, 10]), "/w/t.txt": "hi\n" });
    const walked = await collect(searchEvents(fs, { root: "/w", patterns: ["hi"] }));
    expect(walked.map((e) => (e.type === "match" ? `${e.displayPath}:${e.line}` : `${e.displayPath}: binary ${e.offset}`))).toEqual([
      "bin.dat:hi",
      "bin.dat: binary 3",
      "t.txt:hi",
    ]);
    const explicit = await collect(searchEvents(fs, { root: "/w", paths: ["bin.dat"], patterns: ["hi"] }));
    expect(explicit).toEqual([{ type: "binary", path: "/w/bin.dat", displayPath: "bin.dat", offset: 3, stopped: false }]);
  });

  it("groups results by file", async () => {
    const fs = new MemoryFs({ "/w/a.txt": "x\nx\n", "/w/b.txt": "y\n", "/w/c.txt": "x\n" });
    const grouped = await collect(searchFiles(fs, { root: "/w", patterns: ["x"], positions: false }));
    expect(grouped.map((f) => [f.displayPath, f.matches.length])).toEqual([
      ["a.txt", 2],
      ["c.txt", 1],
    ]);
  });

  it("rejects a bad pattern before touching the files", async () => {
    const fs = new MemoryFs({ "/w/a.txt": "x\n" });
    await expect(collect(search(fs, { root: "/w", patterns: ["(x"] }))).rejects.toThrow("unclosed group");
    expect(fs.calls.readFile ?? 0).toBe(0);
  });
});

describe("binary detection (ripgrep's buffered reads)", () => {
  it("sees only the peeked 3 bytes when the NUL is in the first buffer", () => {
    const data = new TextEncoder().encode("ab\n\0");
    expect(searchedBeforeBuffer(data, true, 3)).toBe(3);
    expect(searchedBeforeBuffer(new TextEncoder().encode("xy\nab\n\0"), true, 6)).toBe(3);
  });

  it("searches whole 64 KiB buffers before the one with the NUL", () => {
    const data = new Uint8Array(200_000).fill(97);
    for (let i = 99; i < data.length; i += 100) data[i] = 10;
    data[150_000] = 0;
    const end = searchedBeforeBuffer(data, true, 150_000);
    expect(end).toBeGreaterThan(65_000);
    expect(end).toBeLessThan(150_000);
    expect(data[end - 1]).toBe(10);
  });

  it("decodes BOMs", () => {
    expect(decodeForSearch(new Uint8Array([0xef, 0xbb, 0xbf, 65])).data).toEqual(new Uint8Array([65]));
    expect(decodeForSearch(new Uint8Array([0xfe, 0xff, 0, 65])).data).toEqual(new Uint8Array([65]));
    expect(decodeForSearch(new Uint8Array([65])).peeked).toBe(true);
  });
});
