import { describe, expect, it } from "vitest";
import { awkIsPlain, inlineCode, interpreterOf, sedIsPlain } from "../../../src/tools/bash/programs.js";

/** Which sed and awk programs only print, and which interpreter command lines carry code of their own. */
describe("sed scripts", () => {
  it.each([
    "p",
    "s/a/b/g",
    "1,5d",
    "/start/,/end/p",
    "s|/usr|/opt|g",
    "$!N; s/\\n/ /",
    "y/abc/xyz/",
    "/x/{s/a/b/;p}",
    "1i\\\nheader",
    "s/a/b/2p",
    "\\,x,d",
    "=",
    "",
  ])("%j only prints", (script) => expect(sedIsPlain(script)).toBe(true));
  it.each(["w out", "s/a/b/w out", "1r /etc/passwd", "R x", "W x", "e rm -rf x", "s/.*/rm x/e", "/x/ w out", "s/a/b", "k"])(
    "%j writes, reads, runs or is not understood",
    (script) => {
      expect(sedIsPlain(script)).toBe(false);
    },
  );
});

describe("awk programs", () => {
  it.each(["{print $1}", "NR > 1 {print}", 'BEGIN{FS=":"} $3 >= 1000 {n++} END{print n}', '$1 == "x" || $2 == "y"'])(
    "%j only prints",
    (program) => {
      expect(awkIsPlain(program)).toBe(true);
    },
  );
  it.each([
    'BEGIN{system("ls")}',
    '{print > "out"}',
    '{printf "%s", $1 >> "log"}',
    '{print | "sh"}',
    'BEGIN{while ((getline l < "/etc/passwd") > 0) print l}',
    'BEGIN{"date" | getline d}',
    '@include "x"',
  ])("%j writes, reads or runs", (program) => expect(awkIsPlain(program)).toBe(false));
});

describe("interpreters", () => {
  const inline = (name: string, words: string[], stdinFed = false) => inlineCode(interpreterOf(name)!, words, stdinFed);

  it.each([
    ["python3", ["-c", "print(1)"]],
    ["python3.12", ["-Bc", "print(1)"]],
    ["python", ["-X", "dev", "-c", "x"]],
    ["perl", ["-ne", "print"]],
    ["perl", ["-pi", "-e", "s/a/b/", "f"]],
    ["node", ["-e", "1"]],
    ["node", ["--eval=1"]],
    ["node", ["-r", "x", "-p", "1"]],
    ["ruby", ["-e", "1"]],
    ["php", ["-r", "echo 1;"]],
    ["python3", ["-"]],
  ] as const)("%s %j runs inline code", (name, words) => {
    expect(inline(name, [...words])).not.toBeNull();
  });

  it("reads its program from its input when that is fed and no script is named", () => {
    expect(inline("python3", [], true)).not.toBeNull();
    expect(inline("node", ["--input-type=module"], true)).not.toBeNull();
    expect(inline("python3", [], false)).toBeNull();
    expect(inline("node", ["--test"], false)).toBeNull();
  });

  it.each([
    ["python3", ["script.py", "-c", "x"]],
    ["python3", ["-m", "pytest", "-x"]],
    ["python3", ["-W", "ignore", "x.py"]],
    ["node", ["-r", "ts-node/register", "x.ts"]],
    ["perl", ["x.pl"]],
    ["node", ["--version"]],
  ] as const)("%s %j runs a named program (not inline)", (name, words) => {
    expect(inline(name, [...words], true)).toBeNull();
  });

  it("knows python by any version suffix and not other names", () => {
    expect(interpreterOf("python3.11")).toBeDefined();
    expect(interpreterOf("pythonista")).toBeUndefined();
    expect(interpreterOf("git")).toBeUndefined();
  });
});
