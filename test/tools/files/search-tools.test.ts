/** grep, glob and list as tools: seed 003's formats, the limit of 100, newest first, clear errors. */
import { afterEach, describe, expect, it } from "vitest";
import { cutAroundMatch } from "../../../src/tools/grep.js";
import { fileBackends, sessionOn } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe.each(fileBackends)("grep, glob and list on %s", (backend) => {
  async function open(files: Record<string, string>) {
    const s = await sessionOn(backend, files);
    dispose = s.dispose;
    return s;
  }
  const touch = async (s: Awaited<ReturnType<typeof open>>, path: string, text: string) => {
    await new Promise((r) => setTimeout(r, 15));
    await s.runtime.fs.writeFile(`${s.root}/${path}`, text);
  };

  it("grep groups matches by file, newest file first, with line numbers", async () => {
    const s = await open({ "old.ts": "const needle = 1;\nother\nneedle again\n" });
    await touch(s, "new.ts", "a needle here\n");
    const call = await s.session.run("grep", { pattern: "needle" });
    expect(call.output).toBe(
      `Found 3 matches\n${s.root}/new.ts:\n  Line 1: a needle here\n\n${s.root}/old.ts:\n  Line 1: const needle = 1;\n  Line 3: needle again`,
    );
    expect(call.title).toBe("needle");
    expect(call.metadata).toMatchObject({ matches: 3, truncated: false });
  });

  it("grep filters with include, searches hidden files, says No files found, and refuses a bad pattern", async () => {
    const s = await open({ "a.ts": "TODO one\n", "b.js": "TODO two\n", ".env": "TODO hidden\n" });
    const only = await s.session.run("grep", { pattern: "TODO", include: "*.ts" });
    expect(only.output).toBe(`Found 1 matches\n${s.root}/a.ts:\n  Line 1: TODO one`);
    expect((await s.session.run("grep", { pattern: "(?i)todo hidden" })).output).toContain(".env:");
    expect((await s.session.run("grep", { pattern: "absent-term" })).output).toBe("No files found");
    const bad = await s.session.run("grep", { pattern: "(unclosed" });
    expect(bad.status).toBe("error");
    expect(bad.error!.length).toBeGreaterThan(10);
    expect((await s.session.run("grep", { pattern: "" })).error).toBe("pattern is required");
  });

  it("grep stops at 100 matches and says how many were hidden", async () => {
    const s = await open({ "many.txt": Array.from({ length: 150 }, (_, i) => `hit ${i}`).join("\n") });
    const call = await s.session.run("grep", { pattern: "hit" });
    expect(call.output).toMatch(/^Found 150 matches \(showing first 100\)\n/);
    expect(call.output).toMatch(
      /\n\n\(Results truncated: showing 100 of 150 matches \(50 hidden\)\. Consider using a more specific path or pattern\.\)$/,
    );
    expect(call.output!.split("\n").filter((l) => l.startsWith("  Line ")).length).toBe(100);
  });

  it("glob lists absolute paths, newest first, and respects .gitignore in a git repository", async () => {
    const s = await open({ ".git/HEAD": "ref\n", ".gitignore": "build/\n", "src/a.ts": "", "build/out.ts": "" });
    await touch(s, "src/b.ts", "");
    const call = await s.session.run("glob", { pattern: "**/*.ts" });
    expect(call.output).toBe(`${s.root}/src/b.ts\n${s.root}/src/a.ts`);
    expect(call.metadata).toMatchObject({ count: 2, truncated: false });
    expect((await s.session.run("glob", { pattern: "*.none" })).output).toBe("No files found");
    expect((await s.session.run("glob", { pattern: "*", path: "missing" })).error).toBe(`No such file or directory: '${s.root}/missing'`);
  });

  it("list draws a tree, folders first, leaving out node_modules and user ignores", async () => {
    const s = await open({ "b.txt": "", "a/z.ts": "", "a/y/x.ts": "", "node_modules/p/index.js": "", "skip/me.txt": "" });
    const call = await s.session.run("list", { ignore: ["skip/"] });
    expect(call.output).toBe(`${s.root}/\n  a/\n    y/\n      x.ts\n    z.ts\n  b.txt\n`);
    expect(call.metadata).toMatchObject({ count: 3, truncated: false });
  });
});

describe("grep keeps the match visible in a long line", () => {
  it("cuts around the match, marking both cuts", () => {
    const line = `${"a".repeat(5000)}NEEDLE${"b".repeat(5000)}`;
    const cut = cutAroundMatch(line, { start: 5000, end: 5006 });
    expect(cut).toContain("NEEDLE");
    expect(cut.startsWith("...") && cut.endsWith("...")).toBe(true);
    expect(cut.length).toBe(2006);
    expect(cutAroundMatch("short", { start: 0, end: 1 })).toBe("short");
    expect(cutAroundMatch("x".repeat(3000), { start: 10, end: 12 })).toBe(`${"x".repeat(2000)}...`);
  });
});
