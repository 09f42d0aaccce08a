#!/usr/bin/env node
// Generates the file trees the search differential suite runs ripgrep and `workbench rg` on:
// git repositories (an empty `.git` folder is enough for ripgrep) with nested ignore files and
// negations, a nested repository, a folder outside any repository, hidden files, symbolic links (to
// files, folders, nowhere, and a loop), binary files with NULs at telling offsets, CRLF, BOM, UTF-16,
// invalid UTF-8 and Unicode text, long lines.
//
//   node scripts/make-search-fixtures.mjs [folder]     (default: a new temporary folder; prints it)
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Writes the fixtures under `base` (created if missing); returns `base`. */
export function makeSearchFixtures(base) {
  const put = (path, content) => {
    const full = join(base, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  const dir = (path) => mkdirSync(join(base, path), { recursive: true });
  const link = (target, path) => {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    symlinkSync(target, join(base, path));
  };

  // --- repo: a git repository with every kind of ignore rule.
  dir("repo/.git/info");
  put("repo/.git/info/exclude", "# exclude file\nexcluded.txt\n");
  put("repo/.git/config", "[core]\n\thello = from git config\n");
  put(
    "repo/.gitignore",
    [
      "# comments and blank lines are skipped",
      "",
      "build/",
      "*.log",
      "!keep.log",
      "/anchored.txt",
      "docs/**/*.tmp",
      "**/cache",
      "logs/*.txt",
      "dironly/",
      "\\#hash.txt",
      "trailing.txt   ",
      "!/sub/reincluded.log",
      "deep/**",
      "[Tt]emp?.txt",
      "{braces,curly}.txt",
      "ignored-hidden-dir/",
      "",
    ].join("\n"),
  );
  put("repo/.ignore", "ignored-by-dotignore.txt\n!special.log\n");
  put("repo/.rgignore", "rg-ignored.txt\n!from-rgignore.md\n");
  put("repo/from-rgignore.md", "hello rgignore whitelists me\n");
  put("repo/.ignore-not-really", "hello not an ignore file\n");
  put("repo/a.txt", "hello world\nsecond line\nHELLO upper\n");
  put("repo/anchored.txt", "hello anchored at root\n");
  put("repo/sub/anchored.txt", "hello anchored in sub\n");
  put("repo/keep.log", "hello keep log\n");
  put("repo/x.log", "hello ignored log\n");
  put("repo/special.log", "hello special log (ignored by .gitignore, whitelisted by .ignore)\n");
  put("repo/sub/reincluded.log", "hello reincluded log\n");
  put("repo/sub/other.log", "hello other log\n");
  put("repo/build/out.txt", "hello build output\n");
  put("repo/sub/build/nested-out.txt", "hello nested build\n");
  put("repo/excluded.txt", "hello excluded by info/exclude\n");
  put("repo/ignored-by-dotignore.txt", "hello dotignore\n");
  put("repo/rg-ignored.txt", "hello rgignore\n");
  put("repo/docs/readme.md", "hello docs\n");
  put("repo/docs/a/b/file.tmp", "hello tmp deep\n");
  put("repo/docs/file.tmp", "hello tmp shallow\n");
  put("repo/cache/c.txt", "hello cache\n");
  put("repo/src/cache/c.txt", "hello src cache\n");
  put("repo/logs/day.txt", "hello logs day\n");
  put("repo/logs/inner/day.txt", "hello logs inner\n");
  put("repo/src/logs/day.txt", "hello src logs\n");
  put("repo/dironly/f.txt", "hello dironly\n");
  put("repo/sub/dironly", "hello dironly is a file here\n");
  put("repo/#hash.txt", "hello hash\n");
  put("repo/trailing.txt", "hello trailing\n");
  put("repo/deep/x/y.txt", "hello deep\n");
  put("repo/temp1.txt", "hello temp1\n");
  put("repo/Temp2.txt", "hello Temp2\n");
  put("repo/tempxx.txt", "hello tempxx\n");
  put("repo/braces.txt", "hello braces\n");
  put("repo/{braces,curly}.txt", "hello literal braces\n");
  put("repo/.hidden.txt", "hello hidden file\n");
  put("repo/.hiddendir/inside.txt", "hello inside hidden dir\n");
  put("repo/ignored-hidden-dir/.x.txt", "hello\n");
  put(
    "repo/src/main.ts",
    'import { util } from "./lib/util";\nexport function main(): void {\n  console.log("hello main");\n  util(42);\n}\n',
  );
  put("repo/src/lib/util.ts", "export function util(n: number): number {\n  // TODO: hello util\n  return n * 2;\n}\n");
  put("repo/src/.gitignore", "generated.ts\n!important.log\n/local-only.txt\n*.bak\n!keep.bak\n");
  put("repo/src/generated.ts", "// hello generated\n");
  put("repo/src/important.log", "hello important log (re-included by src/.gitignore)\n");
  put("repo/src/local-only.txt", "hello local only\n");
  put("repo/src/lib/local-only.txt", "hello lib local only\n");
  put("repo/src/x.bak", "hello bak\n");
  put("repo/src/keep.bak", "hello keep bak\n");
  put("repo/name with space.txt", "hello space\n");
  put("repo/ünïcödé-名前.txt", "hello unicode name\n");

  // Text encodings and line endings.
  put(
    "repo/text/unicode.txt",
    "Greek: αβγ δέλτα ΣΣΣ σς\nCyrillic: привет мир\nCJK: 日本語のテキスト\nstraße STRASSE\nKelvin: \u212a k K\ncafé naïve résumé\nemoji: 😀 done\nwordé boundary\n",
  );
  put("repo/text/crlf.txt", "hello crlf\r\nsecond\r\nend of crlf\r\n");
  put("repo/text/bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("hello bom\nbom second\n")]));
  put("repo/text/utf16le.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello utf16\nsecond line\n", "utf16le")]));
  put(
    "repo/text/invalid.txt",
    Buffer.concat([Buffer.from("valid hello\nbad "), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(" bytes hello\nend\n")]),
  );
  put("repo/text/no-newline.txt", "first\nhello without newline");
  put("repo/text/empty.txt", "");
  put("repo/text/blank-lines.txt", "\n\nhello\n\n");
  put("repo/text/cr-only.txt", "hello\rstill one line\r");

  // Binary files: where the NUL sits decides what ripgrep prints. ripgrep reuses its read buffer
  // between files, and it stays grown after a line longer than 64 KiB, which changes where a later
  // binary file is cut: so files larger than 64 KiB with a late NUL live in their own folder
  // (binlate/) away from long lines (long/), and the one binary file with a long line sits alone.
  const filler = (n) => Array.from({ length: n }, (_, i) => `filler line ${String(i).padStart(6, "0")} lorem ipsum\n`).join("");
  put("repo/bin/early-nul.dat", Buffer.concat([Buffer.from("abc"), Buffer.from([0]), Buffer.from("\nhello after nul\n")]));
  put(
    "binlate/late-nul.txt",
    Buffer.concat([Buffer.from("hello first line\n"), Buffer.from(filler(4000)), Buffer.from([0]), Buffer.from("hello after\n")]),
  );
  put("repo/bin/peek.txt", Buffer.concat([Buffer.from("ab\n"), Buffer.from([0])]));
  put("repo/bin/peek2.txt", Buffer.concat([Buffer.from("xy\nab\n"), Buffer.from([0])]));
  put(
    "binlate/nul-line-later.txt",
    Buffer.concat([
      Buffer.from(filler(3000)),
      Buffer.from("hello mid\n"),
      Buffer.from(filler(3000)),
      Buffer.from("x"),
      Buffer.from([0]),
      Buffer.from("y\nhello end\n"),
    ]),
  );
  put("binlate/edge.txt", Buffer.concat([Buffer.from("a".repeat(65530)), Buffer.from("\nhello\n"), Buffer.from([0])]));
  put("binlate/edge2.txt", Buffer.concat([Buffer.from("hello\n"), Buffer.from("a".repeat(65530)), Buffer.from("\n"), Buffer.from([0])]));
  put(
    "binlong/long-line.txt",
    Buffer.concat([
      Buffer.from("hello " + "a".repeat(140000) + "\n"),
      Buffer.from("b\n".repeat(30000)),
      Buffer.from([0]),
      Buffer.from("\n"),
    ]),
  );
  // Big files with a NUL in the first buffer (executables, archives): looked at no further. The first
  // line of one ends within the 3 bytes ripgrep peeks at, so it is still searched; the BOM in another
  // moves where the first buffer starts. Each is larger than a node search thread's first read
  // (256 KiB), after which it stops reading such a file; a UTF-16 file is full of NUL bytes before it
  // is transcoded, and must be read to its end.
  put(
    "binlate/big-early-nul.bin",
    Buffer.concat([Buffer.from("ab\n"), Buffer.from([0]), Buffer.from(filler(10000)), Buffer.from("hello far\n")]),
  );
  put(
    "binlate/big-exe.bin",
    Buffer.concat([Buffer.from("\x7fELF hello"), Buffer.from([0, 0, 1]), Buffer.from(filler(10000)), Buffer.from("hello far\n")]),
  );
  put(
    "binlate/big-bom-nul.txt",
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from("ab\n"),
      Buffer.from([0]),
      Buffer.from(filler(10000)),
      Buffer.from("hello far\n"),
    ]),
  );
  put("binlate/big-utf16.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(filler(10000) + "hello far\n", "utf16le")]));
  put(
    "repo/bin/bom-nul.txt",
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ab\nzz"), Buffer.from([0]), Buffer.from("\nab\n")]),
  );

  // Long lines and many lines (outside repo/, see above).
  put("long/long-line.txt", "start " + "x".repeat(200000) + " needle " + "y".repeat(100000) + "\nsecond needle\n");
  put("long/aaaa.txt", "a".repeat(100000) + "b\n" + "a".repeat(1000) + "\n");
  put("long/many.txt", Array.from({ length: 5000 }, (_, i) => (i % 97 === 0 ? `needle ${i}\n` : `line ${i}\n`)).join(""));

  // A nested repository starts fresh: the outer .gitignore ("*.log") does not apply inside; .ignore does.
  dir("repo/nested/.git");
  put("repo/nested/.gitignore", "inner-ignored.txt\n");
  put("repo/nested/n.log", "hello nested log\n");
  put("repo/nested/inner-ignored.txt", "hello inner ignored\n");
  put("repo/nested/ignored-by-dotignore.txt", "hello nested dotignore\n");
  put("repo/nested/build/x.txt", "hello nested build\n");

  // Symbolic links.
  put("repo/links/target/t.txt", "hello link target\n");
  link("target/t.txt", "repo/links/file-link.txt");
  link("target", "repo/links/dir-link");
  link("does-not-exist", "repo/links/dangling");
  link("..", "repo/links/target/up");
  link(".hidden-target", "repo/links/.hidden-dangling");
  put("repo/links/.hidden-target-real.txt", "hello hidden real\n");

  // --- norepo: no .git anywhere above, so .gitignore means nothing; .ignore still applies.
  put("norepo/.gitignore", "*.txt\n");
  put("norepo/.ignore", "skip.md\n");
  put("norepo/a.txt", "hello norepo txt\n");
  put("norepo/skip.md", "hello skip\n");
  put("norepo/keep.md", "hello keep\n");
  put("norepo/inner/.gitignore", "*.md\n");
  put("norepo/inner/i.md", "hello inner md\n");
  dir("norepo/sub-repo/.git");
  put("norepo/sub-repo/x.txt", "hello sub-repo txt\n");

  // --- parent: ignore files above the search root.
  dir("parent/.git");
  put("parent/.gitignore", "/child/anch.txt\nunanch.txt\n");
  put("parent/child/anch.txt", "hello anch\n");
  put("parent/child/unanch.txt", "hello unanch\n");
  put("parent/child/other.txt", "hello other\n");
  put("parent/child/deeper/anch.txt", "hello deeper anch\n");

  // --- loops: symlink cycles.
  put("loops/a/b/file.txt", "hello loops\n");
  link("../..", "loops/a/b/up");
  link("self", "loops/self");
  link("a", "loops/a-link");

  return base;
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const base = process.argv[2] ? resolve(process.argv[2]) : mkdtempSync(join(tmpdir(), "search-fixtures-"));
  makeSearchFixtures(base);
  console.log(base);
}
