/**
 * `workbench share` and `workbench open`, the real bin in a child process: a folder with binary files,
 * non-ASCII names, a BOM, CRLF and empty files goes out as a link (and as a .workbench.json) and comes back
 * byte for byte; hostile shares write nothing; links in the target folder are never followed.
 */
import { spawnSync } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { deflateSync, strToU8 } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/embed/share/base64url.js";
import { fixtureSession } from "../support/share-fixture.js";

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");

function workbench(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every regular file under `root` (relative path -> bytes), and the links. */
async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join("/");
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink()) out[rel] = `link -> ${await readlink(path)}`;
      else out[rel] = Buffer.from(await readFile(path)).toString("hex");
    }
  }
  await walk(root);
  return out;
}

let base: string;
let source: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "wb-share-cli-"));
  source = join(base, "src");
  await mkdir(join(source, "ünïcödé/名前"), { recursive: true });
  await mkdir(join(source, "assets"), { recursive: true });
  await writeFile(join(source, "README.md"), "# Shared\n");
  await writeFile(join(source, "ünïcödé/名前/ファイル ✓.txt"), "non-ASCII name and text: ü ✓ 名前\n");
  await writeFile(
    join(source, "assets/all-bytes.bin"),
    Uint8Array.from({ length: 1024 }, (_, i) => (i * 7 + 3) % 256),
  );
  await writeFile(join(source, "assets/zeros.dat"), Uint8Array.of(104, 105, 0, 255, 0));
  await writeFile(join(source, "bom.txt"), Uint8Array.of(0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0a));
  await writeFile(join(source, "crlf.txt"), "one\r\ntwo\r\n");
  await writeFile(join(source, "latin1.txt"), Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0x0a));
  await writeFile(join(source, "empty"), "");
});

describe("workbench share / open", () => {
  it("round-trips a folder through a link, byte for byte", async () => {
    const shared = workbench(["share", "--dir", source, "--base", "https://docs.example/workbench/"]);
    expect(shared.code, shared.stderr).toBe(0);
    const link = shared.stdout.trim();
    expect(link).toMatch(/^https:\/\/docs\.example\/workbench\/#share=1\.[\w-]+$/);
    const target = join(base, "from-link");
    const opened = workbench(["open", link, "--dir", target]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toContain("wrote 8 files");
    expect(await tree(target)).toEqual(await tree(source));
  });

  it("round-trips through a .workbench.json file, with a session", async () => {
    const sessionFile = join(base, "session.json");
    const session = fixtureSession(5, { "README.md": "# Shared\n" });
    await writeFile(sessionFile, JSON.stringify(session));
    const shareFile = join(base, "demo.workbench.json");
    const shared = workbench(["share", "--dir", source, "--session", sessionFile, "--file", shareFile]);
    expect(shared.code, shared.stderr).toBe(0);
    const target = join(base, "from-file");
    const sessionOut = join(base, "session-out.json");
    const opened = workbench(["open", shareFile, "--dir", target, "--session", sessionOut]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(await tree(target)).toEqual(await tree(source));
    expect(JSON.parse(await readFile(sessionOut, "utf8"))).toEqual(session);
  });

  it("leaves out links in the folder it shares, saying so", async () => {
    const folder = join(base, "with-link");
    await mkdir(folder);
    await writeFile(join(folder, "a.txt"), "a");
    await symlink("/etc/passwd", join(folder, "passwd"));
    const shared = workbench(["share", "--dir", folder]);
    expect(shared.code).toBe(0);
    expect(shared.stderr).toContain("left out passwd (a symbolic link");
    const target = join(base, "with-link-out");
    expect(workbench(["open", shared.stdout.trim(), "--dir", target]).code).toBe(0);
    expect(Object.keys(await tree(target))).toEqual(["a.txt"]);
  });

  it("writes nothing for a hostile or damaged link, and says why", async () => {
    const head = strToU8(
      JSON.stringify({
        f: [
          ["ok.txt", 2],
          ["../escaped.txt", 2],
        ],
      }),
    );
    const packed = new Uint8Array(4 + head.length + 4);
    new DataView(packed.buffer).setUint32(0, head.length);
    packed.set(head, 4);
    packed.set(strToU8("okno"), 4 + head.length);
    const hostile = `http://127.0.0.1:5173/#share=1.${toBase64Url(deflateSync(packed))}`;
    const target = join(base, "hostile");
    const result = workbench(["open", hostile, "--dir", target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot be opened: .*escaped\.txt.*climbs out/);
    await expect(lstat(target)).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(base, "escaped.txt"))).rejects.toThrow(/ENOENT/);
    const cut = workbench(["open", hostile.slice(0, -12), "--dir", target]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/cannot be opened/);
    await expect(lstat(target)).rejects.toThrow(/ENOENT/);
  });

  it("never writes through a link in the target folder, even with --force", async () => {
    const outside = join(base, "outside");
    await mkdir(outside);
    const target = join(base, "target-with-link");
    await mkdir(target);
    await symlink(outside, join(target, "assets"));
    const link = workbench(["share", "--dir", source]).stdout.trim();
    const result = workbench(["open", link, "--dir", target, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nothing was written: assets is a symbolic link/);
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(target)).toEqual(["assets"]);
  });

  it("does not replace files that are there without --force", async () => {
    const target = join(base, "existing");
    await mkdir(target);
    await writeFile(join(target, "README.md"), "mine\n");
    const link = workbench(["share", "--dir", source]).stdout.trim();
    const refused = workbench(["open", link, "--dir", target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/README\.md exists already: choose an empty folder, or pass --force/);
    expect(await readFile(join(target, "README.md"), "utf8")).toBe("mine\n");
    expect(workbench(["open", link, "--dir", target, "--force"]).code).toBe(0);
    expect(await readFile(join(target, "README.md"), "utf8")).toBe("# Shared\n");
  });

  it("usage errors exit 2", () => {
    expect(workbench(["share"]).code).toBe(2);
    expect(workbench(["open", "--dir", base]).code).toBe(2);
  });

  it("--help prints each command's own usage on stdout, exit 0", () => {
    for (const [command, first] of [
      ["share", "usage: workbench share --dir <folder>"],
      ["open", "usage: workbench open <link | file.workbench.json> --dir <folder>"],
    ] as const) {
      for (const flag of ["--help", "-h"]) {
        const result = workbench([command, flag]);
        expect(result.code).toBe(0);
        expect(result.stderr).toBe("");
        expect(result.stdout.startsWith(first)).toBe(true);
      }
    }
  });
});
