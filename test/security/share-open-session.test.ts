/**
 * `workbench open LINK --dir D --session FILE` never replaces a file the person already has: the share's
 * files are written with "exists already" refused unless --force, and the session file must keep the same
 * promise (it was overwritten silently). A refusal is decided before the first byte, so nothing is written.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureSession } from "../support/share-fixture.js";

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");
const workbench = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 });

describe("workbench open keeps the person's session file", () => {
  it("refuses to overwrite an existing --session file without --force, writing nothing", async () => {
    const base = await mkdtemp(join(tmpdir(), "share-open-session-"));
    const source = join(base, "source");
    const sessionIn = join(base, "in.json");
    await mkdir(source);
    await writeFile(join(source, "a.txt"), "A\n");
    await writeFile(sessionIn, JSON.stringify(fixtureSession(2, { "a.txt": "A\n" })));
    const shared = workbench(["share", "--dir", source, "--session", sessionIn]);
    expect(shared.status).toBe(0);
    const mine = join(base, "mine.json");
    await writeFile(mine, "my own notes\n");
    const target = join(base, "target");
    const opened = workbench(["open", shared.stdout.trim(), "--dir", target, "--session", mine]);
    expect(opened.status).toBe(1);
    expect(opened.stderr).toMatch(/mine\.json exists already.*--force/);
    expect(await readFile(mine, "utf8")).toBe("my own notes\n");
    expect(await readdir(target).catch(() => [])).toEqual([]);
    const forced = workbench(["open", shared.stdout.trim(), "--dir", target, "--session", mine, "--force"]);
    expect(forced.status).toBe(0);
    expect(await readFile(mine, "utf8")).not.toBe("my own notes\n");
  });
});
