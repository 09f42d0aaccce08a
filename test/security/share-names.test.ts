/**
 * Names and shapes a share may not write: invisible characters (a zero-width space hides in a name),
 * Windows device and forbidden names, two paths one case- or normalization-insensitive disk takes for one
 * (the second overwrites the first there), paths nested past the depth cap (300 empty folders froze a tab),
 * more folders than the cap, and JSON nested so deep that showing or saving the session breaks the stack.
 * Each is refused by the decoder with its reason, for a link and a `.workbench.json` alike, and by
 * `workbench open`, which then writes nothing.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/embed/share/base64url.js";
import { decodeShareLink, fromShareFile } from "../../src/embed/share/index.js";
import { MAX_JSON_DEPTH, MAX_PATH_DEPTH, MAX_SHARE_FOLDERS } from "../../src/embed/share/limits.js";
import { pack } from "../../src/embed/share/pack.js";
import { fixtureSession } from "../support/share-fixture.js";
import { runWorkbench } from "../support/workbench-bin.js";

const BASE = "http://127.0.0.1:5173/";

function rawLink(bytes: Uint8Array): string {
  return `${BASE}#share=1.${toBase64Url(deflateSync(bytes, { level: 9 }))}`;
}

const linkOf = (files: Record<string, string>) => rawLink(pack({ files }));

async function refusedBoth(files: Record<string, string>, reason: RegExp): Promise<void> {
  const link = await decodeShareLink(linkOf(files));
  expect(link.ok).toBe(false);
  if (!link.ok) expect(link.error).toMatch(reason);
  const file = fromShareFile(
    JSON.stringify({ format: "workbench-share", version: 1, files: Object.entries(files).map(([path, text]) => ({ path, text })) }),
  );
  expect(file.ok).toBe(false);
  if (!file.ok) expect(file.error).toMatch(reason);
}

describe("names that hide or stand for something else are refused", () => {
  it.each([
    ["zero-width space", "READ\u200BME.md"],
    ["zero-width joiner", "a\u200Db.txt"],
    ["word joiner", "src/\u2060index.ts"],
    ["byte order mark", "\uFEFFconfig.json"],
    ["soft hyphen", "pay\u00ADload.sh"],
    ["line separator", "a\u2028b"],
    ["lone surrogate", "x\uD800.txt"],
    ["C1 control (8-bit CSI)", "a\u009B31mb"],
  ])("%s", async (_, path) => {
    await refusedBoth({ [path]: "x" }, /invisible or control character/);
  });

  it.each(["CON", "con.txt", "sub/NUL", "Aux.md", "com1.log", "LPT9", "lpt¹", "CONIN$", "nul .txt"])(
    "Windows device name %j",
    async (path) => {
      await refusedBoth({ [path]: "x" }, /Windows device name/);
    },
  );

  it.each(["notes/a:b.txt", "x/what?.md", "star*.ts", "pipe|.sh", 'q".txt', "<a>"])("Windows-forbidden character in %j", async (path) => {
    await refusedBoth({ [path]: "x" }, /Windows cannot hold them/);
  });

  it.each(["notes.", "dir./a.txt", "trailing ", "x/y /z"])("a name ending in a dot or space: %j", async (path) => {
    await refusedBoth({ [path]: "x" }, /ends with a dot or a space/);
  });

  it.each([
    ["case", ["README.md", "readme.md"]],
    ["case, nested", ["src/App.ts", "src/app.ts"]],
    ["NFC and NFD", ["caf\u00e9.txt", "cafe\u0301.txt"]],
    ["folders of different case", ["Docs/a.md", "docs/b.md"]],
    ["a file and a folder of different case", ["lib", "LIB/x.js"]],
    ["long s folds to s", ["\u017Fetup.py", "setup.py"]],
  ])("twins by %s", async (_, paths) => {
    await refusedBoth(Object.fromEntries(paths.map((path) => [path, "x"])), /differ only in case or Unicode form/);
  });

  it("names that are only similar still open (the checks refuse twins, not likeness)", async () => {
    const files = { "README.md": "a", "README.markdown": "b", "café.txt": "c", "cafe.txt": "d", "con-fig.txt": "e", "nulls.md": "f" };
    const link = await decodeShareLink(linkOf(files));
    expect(link.ok).toBe(true);
    if (link.ok) expect(Object.keys(link.state.files).sort()).toEqual(Object.keys(files).sort());
  });
});

describe("depth and folders are capped", () => {
  it(`a file ${MAX_PATH_DEPTH + 1} names deep is refused; ${MAX_PATH_DEPTH} opens`, async () => {
    const deep = (names: number) => `${"d/".repeat(names - 1)}f`;
    await refusedBoth({ [deep(MAX_PATH_DEPTH + 1)]: "" }, /names deep, more than the 64/);
    await refusedBoth({ [deep(300)]: "" }, /names deep/);
    expect((await decodeShareLink(linkOf({ [deep(MAX_PATH_DEPTH)]: "" }))).ok).toBe(true);
  });

  it(`more than ${MAX_SHARE_FOLDERS} distinct folders are refused`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2_001; i++) files[`a${i}/b/c/d/e/f.txt`] = "";
    await refusedBoth(files, new RegExp(`more than ${MAX_SHARE_FOLDERS} folders`));
  });

  it("the 86-character link of one empty file 300 folders deep is refused at once, and workbench open writes nothing", async () => {
    const link = linkOf({ [`${"a/".repeat(300)}x`]: "" });
    expect(link.length).toBeLessThan(120);
    const base = await mkdtemp(join(tmpdir(), "share-deep-"));
    try {
      const opened = await runWorkbench(["open", link, "--dir", join(base, "out")]);
      expect(opened.code).toBe(1);
      expect(opened.stderr).toMatch(/301 names deep/);
      expect(await readdir(base)).toEqual([]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe("a session nested too deep is refused, not thrown", () => {
  /** A link whose session holds a tool input nested `depth` arrays deep (built as text: no stringify could). */
  function deepSessionLink(depth: number): string {
    const session = fixtureSession(1, { "a.txt": "A" }) as { session: { calls: Array<{ input: unknown }> } };
    session.session.calls[0]!.input = { x: "@DEEP@" };
    const manifest = JSON.stringify({ f: [["a.txt", 1]], s: session }).replace('"@DEEP@"', `${"[".repeat(depth)}1${"]".repeat(depth)}`);
    const head = strToU8(manifest);
    const out = new Uint8Array(4 + head.length + 1);
    new DataView(out.buffer).setUint32(0, head.length);
    out.set(head, 4);
    out[out.length - 1] = 65;
    return rawLink(out);
  }

  it.each([MAX_JSON_DEPTH + 1, 100_000])("%i levels", async (depth) => {
    const result = await decodeShareLink(deepSessionLink(depth));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/nests deeper than 100 levels/);
  });

  it("a .workbench.json nested 100,000 deep is refused too", () => {
    const text = `{"format":"workbench-share","version":1,"files":[],"session":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const result = fromShareFile(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/nests deeper/);
  });
});
