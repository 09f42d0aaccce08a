import { describe, expect, it } from "vitest";
import { compileGlob, GlobError, IgnoreRules, parseIgnoreFile } from "../../src/search/index.js";
import { Overrides } from "../../src/search/overrides.js";

describe("globs (ripgrep's globset flavour)", () => {
  const cases: Array<[string, string, boolean]> = [
    ["*.ts", "a.ts", true],
    ["*.ts", "dir/a.ts", false],
    ["*", ".hidden", true],
    ["?.ts", "a.ts", true],
    ["?.ts", "/.ts", false],
    ["**/x", "x", true],
    ["**/x", "a/b/x", true],
    ["a/**", "a/b/c", true],
    ["a/**", "a", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a**", "abc", true],
    ["a**", "a/bc", false],
    ["**", "any/thing/at/all", true],
    ["[!a]*", "/c", true],
    ["[!a]*", "b/c", false],
    ["[ab]x", "bx", true],
    ["[a-c]x", "dx", false],
    ["[]]x", "]x", true],
    ["[a-]x", "-x", true],
    ["{a,b}.txt", "b.txt", true],
    ["{a,b}.txt", "c.txt", false],
    ["\\*.txt", "*.txt", true],
    ["\\*.txt", "a.txt", false],
    ["a,b", "a,b", true],
    ["a}b", "a}b", true],
  ];
  for (const [glob, path, expected] of cases) {
    it(`${glob} ${expected ? "matches" : "does not match"} ${path}`, () => {
      expect(compileGlob(glob)(path)).toBe(expected);
    });
  }

  it("reports bad globs with ripgrep's wording", () => {
    expect(() => compileGlob("a{b")).toThrow(GlobError);
    expect(() => compileGlob("[a")).toThrow("unclosed character class; missing ']'");
    expect(() => compileGlob("a\\")).toThrow("dangling '\\'");
    expect(() => compileGlob("{a,{b}}")).toThrow("nested alternate groups are not allowed");
    expect(() => compileGlob("[z-a]")).toThrow("invalid range; 'z' > 'a'");
  });
});

describe("ignore rules", () => {
  const rules = (text: string) => parseIgnoreFile(text).rules;

  it("matches unanchored names at any depth and anchored ones from the folder", () => {
    const r = rules("*.log\n/root.txt\nsub/inner.txt\n");
    expect(r.match("a.log", false)).toBe("ignore");
    expect(r.match("x/y/a.log", false)).toBe("ignore");
    expect(r.match("root.txt", false)).toBe("ignore");
    expect(r.match("x/root.txt", false)).toBe(null);
    expect(r.match("sub/inner.txt", false)).toBe("ignore");
    expect(r.match("x/sub/inner.txt", false)).toBe(null);
  });

  it("lets the last matching rule decide, including negations", () => {
    const r = rules("*.log\n!keep.log\n");
    expect(r.match("x.log", false)).toBe("ignore");
    expect(r.match("keep.log", false)).toBe("whitelist");
    expect(r.match("other.txt", false)).toBe(null);
  });

  it("applies folder-only rules to folders", () => {
    const r = rules("build/\n");
    expect(r.match("build", true)).toBe("ignore");
    expect(r.match("build", false)).toBe(null);
    expect(r.match("a/build", true)).toBe("ignore");
  });

  it("reads x/** as what is inside x", () => {
    const r = rules("deep/**\n");
    expect(r.match("deep", true)).toBe(null);
    expect(r.match("deep/a", false)).toBe("ignore");
    expect(r.match("deep/a/b", true)).toBe("ignore");
  });

  it("skips comments and blank lines, trims trailing blanks unless escaped, honours escapes", () => {
    const r = rules("# comment\n\n\\#hash\nspaced   \nkept\\ \n\\!bang\n");
    expect(r.rules.map((rule) => rule.glob)).toEqual(["**/#hash", "**/spaced", "**/kept\\ ", "**/!bang"]);
    expect(r.match("#hash", false)).toBe("ignore");
    expect(r.match("kept ", false)).toBe("ignore");
    expect(r.match("!bang", false)).toBe("ignore");
  });

  it("drops a BOM and CRLF line ends", () => {
    const r = rules("\uFEFFfirst.txt\r\nsecond.txt\r\n");
    expect(r.match("first.txt", false)).toBe("ignore");
    expect(r.match("second.txt", false)).toBe("ignore");
  });

  it("reports a bad line and keeps the others", () => {
    const { rules: r, errors } = parseIgnoreFile("a.txt\n[\nb.txt\n");
    expect(errors).toEqual(["line 2: error parsing glob '[': unclosed character class; missing ']'"]);
    expect(r.match("b.txt", false)).toBe("ignore");
  });

  it("adds lines one by one", () => {
    const r = new IgnoreRules();
    r.addLine("*.tmp");
    expect(r.isEmpty).toBe(false);
    expect(r.match("x.tmp", false)).toBe("ignore");
  });
});

describe("--glob overrides", () => {
  it("include what matches, and leave out other files (not folders)", () => {
    const o = new Overrides(["*.ts"], "/w");
    expect(o.match("a.ts", false)).toBe("whitelist");
    expect(o.match("a.js", false)).toBe("ignore");
    expect(o.match("src", true)).toBe(null);
  });

  it("exclude with !, the last glob winning", () => {
    const o = new Overrides(["*.ts", "!*.d.ts"], "/w");
    expect(o.match("x.d.ts", false)).toBe("ignore");
    expect(o.match("x.ts", false)).toBe("whitelist");
    expect(new Overrides(["!dist"], "/w").match("a.js", false)).toBe(null);
  });

  it("match paths relative to the root, or as walked outside it", () => {
    const o = new Overrides(["src/*.ts"], "/w");
    expect(o.match("./src/a.ts", false)).toBe("whitelist");
    expect(o.match("/w/src/a.ts", false)).toBe("whitelist");
    expect(o.match("../w/src/a.ts", false)).toBe("ignore");
  });
});
