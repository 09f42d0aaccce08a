import { describe, expect, it } from "vitest";
import { contains, externalDirectoryAsk } from "../../../src/tools/permission/external-directory.js";

/**
 * A fake file system: the paths that exist, plus symlinks (link → target, absolute). realpath follows links
 * component by component, like the kernel, and rejects for anything missing.
 */
function fakeRealpath(existing: string[], links: Record<string, string> = {}) {
  const exists = new Set(["/", ...existing, ...Object.keys(links)]);
  const calls: string[] = [];
  const realpath = async (path: string): Promise<string> => {
    calls.push(path);
    let current = "";
    for (const part of path.split("/").filter(Boolean)) {
      let next = `${current}/${part}`;
      for (let hops = 0; links[next] !== undefined; hops++) {
        if (hops > 10) throw new Error("ELOOP");
        next = links[next] ?? next;
      }
      if (!exists.has(next)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      current = next;
    }
    return current || "/";
  };
  return { realpath, calls };
}

const fs = fakeRealpath(["/ws", "/ws/src", "/ws/src/a.ts", "/etc", "/etc/passwd", "/data", "/data/real-ws", "/data/real-ws/x", "/tmp"], {
  "/ws/out": "/etc",
  "/ws/inner": "/ws/src",
  "/alias-ws": "/ws",
  "/ws/deep": "/data/real-ws/x",
  "/ws/loop": "/ws/loop",
});

const ask = (target: string, kind: "file" | "directory" = "file", root = "/ws") =>
  externalDirectoryAsk({ root, target, kind, realpath: fs.realpath });

describe("externalDirectoryAsk: inside the workspace", () => {
  it.each(["/ws/src/a.ts", "/ws/src/new-file.ts", "src/a.ts", "./src/../src/a.ts", "/ws", "/ws/new/dir/deep.ts"])(
    "%s needs no permission",
    async (target) => {
      expect(await ask(target)).toBeNull();
    },
  );

  it("treats the root itself, as a directory, as inside", async () => {
    expect(await ask("/ws", "directory")).toBeNull();
  });

  it("follows a symlink that stays inside", async () => {
    expect(await ask("/ws/inner/a.ts")).toBeNull();
  });

  it("accepts a path through an alias of the root, and a root given through an alias", async () => {
    expect(await ask("/alias-ws/src/a.ts")).toBeNull();
    expect(await ask("/ws/src/a.ts", "file", "/alias-ws")).toBeNull();
  });

  it("does not mistake a name starting with '..' for a way out", async () => {
    expect(await ask("/ws/..hidden")).toBeNull();
    expect(await ask("..hidden/x")).toBeNull();
  });

  it("treats everything as inside when the root is /", async () => {
    expect(await ask("/etc/passwd", "file", "/")).toBeNull();
  });
});

describe("externalDirectoryAsk: outside the workspace", () => {
  it("asks for the file's folder, as both pattern and always", async () => {
    expect(await ask("/etc/passwd")).toEqual({
      permission: "external_directory",
      patterns: ["/etc/*"],
      always: ["/etc/*"],
      metadata: { filepath: "/etc/passwd", parentDir: "/etc" },
    });
  });

  it("asks for the directory itself when the target is a directory", async () => {
    expect(await ask("/etc", "directory")).toMatchObject({ patterns: ["/etc/*"], metadata: { filepath: "/etc", parentDir: "/etc" } });
  });

  it("handles a path that does not exist yet", async () => {
    expect(await ask("/tmp/new/out.txt")).toMatchObject({
      patterns: ["/tmp/new/*"],
      metadata: { filepath: "/tmp/new/out.txt", parentDir: "/tmp/new" },
    });
    expect(await ask("/nowhere/at/all", "directory")).toMatchObject({ patterns: ["/nowhere/at/all/*"] });
  });

  it.each([
    ["../etc/passwd", "/etc/*"],
    ["/ws/../etc/passwd", "/etc/*"],
    ["src/../../etc/passwd", "/etc/*"],
    ["/ws/src/../../tmp/x", "/tmp/*"],
    ["../../../../x", "/*"],
    ["../ws-sibling/file", "/ws-sibling/*"],
  ])("catches the .. chain %s", async (target, pattern) => {
    expect((await ask(target))?.patterns).toEqual([pattern]);
  });

  it("catches a symlink out of the workspace, and names the real folder", async () => {
    expect(await ask("/ws/out/passwd")).toEqual({
      permission: "external_directory",
      patterns: ["/etc/*"],
      always: ["/etc/*"],
      metadata: { filepath: "/ws/out/passwd", parentDir: "/etc" },
    });
  });

  it("catches a symlink out even for a file that does not exist yet behind it", async () => {
    expect((await ask("/ws/out/new/thing.txt"))?.patterns).toEqual(["/etc/new/*"]);
  });

  it("catches the symlink itself as a directory target", async () => {
    expect((await ask("/ws/out", "directory"))?.patterns).toEqual(["/etc/*"]);
  });

  it("resolves link/.. the way the kernel does: to the parent of the link's target", async () => {
    // Lexically /ws/out/../src/a.ts is /ws/src/a.ts; physically it is /src/a.ts, outside.
    expect((await ask("/ws/out/../src/a.ts"))?.patterns).toEqual(["/src/*"]);
    // And a link into another tree: /ws/deep → /data/real-ws/x, so deep/.. is /data/real-ws.
    expect((await ask("/ws/deep/../y"))?.patterns).toEqual(["/data/real-ws/*"]);
  });

  it("treats an unresolvable link (a loop) as a path that does not exist", async () => {
    expect(await ask("/ws/loop/x")).toBeNull();
  });

  it("reads backslashes as slashes", async () => {
    expect((await ask("\\etc\\passwd"))?.patterns).toEqual(["/etc/*"]);
    expect(await ask("src\\a.ts")).toBeNull();
  });
});

describe("contains", () => {
  it.each<[string, string, boolean]>([
    ["/ws", "/ws", true],
    ["/ws", "/ws/a", true],
    ["/ws", "/ws/a/b", true],
    ["/ws", "/ws2", false],
    ["/ws", "/w", false],
    ["/ws", "/", false],
    ["/ws", "/ws/..x", true],
    ["/ws", "/other/ws", false],
    ["/", "/anything", true],
  ])("%s contains %s: %s", (parent, child, expected) => {
    expect(contains(parent, child)).toBe(expected);
  });
});
