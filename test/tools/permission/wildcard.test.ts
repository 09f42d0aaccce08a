import { describe, expect, it } from "vitest";
import { matchWildcard } from "../../../src/tools/permission/wildcard.js";

type Case = [str: string, pattern: string, expected: boolean];

function table(cases: Case[]) {
  it.each(cases)("%j against %j → %s", (str, pattern, expected) => {
    expect(matchWildcard(str, pattern)).toBe(expected);
  });
}

describe("matchWildcard: literal patterns match the whole string, case-sensitively", () => {
  table([
    ["bash", "bash", true],
    ["bash", "bas", false],
    ["bash", "ash", false],
    ["bashx", "bash", false],
    ["Bash", "bash", false],
    ["bash", "BASH", false],
    ["", "", true],
    ["a", "", false],
    ["", "a", false],
  ]);
});

describe("matchWildcard: * matches any run, including / and newlines", () => {
  table([
    ["anything at all", "*", true],
    ["", "*", true],
    ["/etc/passwd", "*", true],
    ["/any/dir/.env", "*.env", true],
    ["/any/dir/.env.local", "*.env", false],
    ["/any/dir/.env.local", "*.env.*", true],
    ["src/a/b/c.ts", "src/*.ts", true],
    ["src/a/b/c.tsx", "src/*.ts", false],
    ["git log", "git *", true],
    ["echo one\necho two", "echo *", true],
    ["line1\nline2\nline3", "line1*line3", true],
    ["a\nb", "a?b", true],
    ["abc", "a*c", true],
    ["ac", "a*c", true],
    ["ab", "a*c", false],
    ["abcabc", "*abc", true],
    ["xyz", "**", true],
    ["a/b", "a**b", true],
    ["foo.bar.baz", "*.*.*", true],
    ["foobar", "*.*", false],
  ]);
});

describe("matchWildcard: ? matches exactly one character", () => {
  table([
    ["a", "?", true],
    ["", "?", false],
    ["ab", "?", false],
    ["cat", "c?t", true],
    ["ct", "c?t", false],
    ["c/t", "c?t", true],
    ["file1.txt", "file?.txt", true],
    ["file10.txt", "file?.txt", false],
    ["😀", "?", true],
    ["x😀y", "x?y", true],
  ]);
});

describe("matchWildcard: a trailing ' *' makes the arguments optional", () => {
  table([
    ["ls", "ls *", true],
    ["ls -la", "ls *", true],
    ["ls ", "ls *", true],
    ["lstmeval", "ls *", false],
    ["ls\n-la", "ls *", false],
    ["git log", "git log *", true],
    ["git log --oneline -5", "git log *", true],
    ["git logx", "git log *", false],
    ["git", "git log *", false],
    ["npm run dev -- --port 3000", "npm run dev *", true],
    ["", " *", true],
    [" x", " *", true],
    ["x", " *", false],
    // Only a single star after the space is optional: `ls **` still needs the space.
    ["ls", "ls **", false],
    ["ls -a", "ls **", true],
    ["a ", "a  *", true],
    ["a", "a  *", false],
  ]);
});

describe("matchWildcard: regex syntax is literal", () => {
  table([
    ["a.b", "a.b", true],
    ["axb", "a.b", false],
    ["a+", "a+", true],
    ["aa", "a+", false],
    ["^a$", "^a$", true],
    ["a", "^a$", false],
    ["(x)", "(x)", true],
    ["x", "(x)", false],
    ["[ab]", "[ab]", true],
    ["a", "[ab]", false],
    ["a|b", "a|b", true],
    ["a", "a|b", false],
    ["{1,2}", "{1,2}", true],
    ["$HOME/x", "$HOME/*", true],
    ["a-b", "a-b", true],
    ["100%", "100%", true],
    ["x.env", "*.env", true],
    ["xenv", "*.env", false],
  ]);
});

describe("matchWildcard: backslashes are slashes on both sides", () => {
  table([
    ["C:\\Users\\me\\.env", "C:/Users/*", true],
    ["C:/Users/me/.env", "C:\\Users\\*", true],
    ["a\\b", "a\\b", true],
    ["a/b", "a\\b", true],
    ["a\\b", "a?b", true],
    ["a\\*", "a/x", false],
  ]);
});

describe("matchWildcard: repeated use", () => {
  it("gives the same answer when a pattern is matched many times (the compiled form is reused)", () => {
    for (let i = 0; i < 3; i++) {
      expect(matchWildcard("src/x.ts", "src/*")).toBe(true);
      expect(matchWildcard("lib/x.ts", "src/*")).toBe(false);
    }
  });

  it("stays fast on a long miss with many stars", () => {
    const started = performance.now();
    expect(matchWildcard("a".repeat(5000), `${"a*".repeat(30)}b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
