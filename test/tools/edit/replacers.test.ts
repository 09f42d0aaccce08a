/** Each of the nine replacers on its own: what it yields for an oldString, in the seed's order. */
import { describe, expect, it } from "vitest";
import {
  BlockAnchorReplacer,
  ContextAwareReplacer,
  createBlockAnchorReplacer,
  EscapeNormalizedReplacer,
  IndentationFlexibleReplacer,
  LineTrimmedReplacer,
  MultiOccurrenceReplacer,
  REPLACER_NAMES,
  REPLACERS,
  SEED_BLOCK_ANCHOR,
  SimpleReplacer,
  TrimmedBoundaryReplacer,
  unescapeString,
  WhitespaceNormalizedReplacer,
  type Replacer,
} from "../../../src/tools/edit/index.js";

const yields = (replacer: Replacer, content: string, find: string) => [...replacer(content, find)];

describe("the replacers", () => {
  it("come in the seed's order", () => {
    expect(REPLACERS.map((r) => r.name)).toEqual([
      "Simple",
      "LineTrimmed",
      "BlockAnchor",
      "WhitespaceNormalized",
      "IndentationFlexible",
      "EscapeNormalized",
      "TrimmedBoundary",
      "ContextAware",
      "MultiOccurrence",
    ]);
    expect(REPLACER_NAMES).toEqual(REPLACERS.map((r) => r.name));
  });

  it("Simple yields oldString as given", () => {
    expect(yields(SimpleReplacer, "abc", "b")).toEqual(["b"]);
    expect(yields(SimpleReplacer, "abc", "zz")).toEqual(["zz"]);
  });

  it("LineTrimmed yields the file's own lines when the trimmed lines agree", () => {
    const content = "def f():\n    if x:\n        return 1\n    return 2\n";
    expect(yields(LineTrimmedReplacer, content, "if x:\n  return 1")).toEqual(["    if x:\n        return 1"]);
    // A trailing newline in oldString does not ask for an empty line.
    expect(yields(LineTrimmedReplacer, content, "return 2  \n")).toEqual(["    return 2"]);
    expect(yields(LineTrimmedReplacer, "a\n  b\na\n b", "a\nb")).toEqual(["a\n  b", "a\n b"]);
    expect(yields(LineTrimmedReplacer, content, "if y:")).toEqual([]);
  });

  it("BlockAnchor needs three lines and anchors on the first and last", () => {
    const content = "start\nfunction f() {\n  const a = 1;\n  return a;\n}\nend";
    expect(yields(BlockAnchorReplacer, content, "function f() {\n  const a = 2;\n  return a;\n}")).toEqual([
      "function f() {\n  const a = 1;\n  return a;\n}",
    ]);
    expect(yields(BlockAnchorReplacer, content, "function f() {\n}")).toEqual([]);
    // The seed counts lines before dropping a trailing empty one: "a\nb\n" qualifies and anchors a\n…\nb.
    expect(yields(BlockAnchorReplacer, "a\nx\nb", "a\nb\n")).toEqual(["a\nx\nb"]);
  });

  it("BlockAnchor in the seed accepts a lone candidate whatever its middle, and the best of several above 0.3", () => {
    const far = ["if (a) {", ...Array.from({ length: 30 }, (_, i) => `  step${i}();`), "}"].join("\n");
    expect(yields(BlockAnchorReplacer, far, "if (a) {\n  totally unrelated text\n}")).toEqual([far]);
    const two = "if (a) {\n  alpha();\n}\nif (a) {\n  beta();\n}";
    expect(yields(BlockAnchorReplacer, two, "if (a) {\n  betta();\n}")).toEqual(["if (a) {\n  beta();\n}"]);
    expect(yields(BlockAnchorReplacer, two, "if (a) {\n  zzzzzzzzzzzzzzzz;\n}")).toEqual([]);
  });

  it("BlockAnchor tuned to report every candidate and the same-size block", () => {
    const all = createBlockAnchorReplacer({ ...SEED_BLOCK_ANCHOR, candidates: "all", lastAnchor: "first-and-same-size" });
    const two = "if (a) {\n  alpha();\n}\nif (a) {\n  beta();\n}";
    expect(yields(all, two, "if (a) {\n  betta();\n}")).toEqual(["if (a) {\n  alpha();\n}", "if (a) {\n  beta();\n}"]);
    // The last line also occurs inside the block: the seed pairs with the inner one, same-size adds the outer.
    const nested = "for (x of y) {\n  if (x) {\n    go(x);\n  }\n  done(x);\n}";
    const find = "for (x of y) {\n  if (x) {\n    go(x);\n  }\n  done(x);\n}  ";
    expect(yields(BlockAnchorReplacer, nested, find.replace("done(x);", "dune(x);"))).toEqual([
      "for (x of y) {\n  if (x) {\n    go(x);\n  }",
    ]);
    expect(yields(all, nested, find.replace("done(x);", "dune(x);"))).toEqual(["for (x of y) {\n  if (x) {\n    go(x);\n  }", nested]);
  });

  it("WhitespaceNormalized matches whole lines, parts of lines and blocks with other spacing", () => {
    expect(yields(WhitespaceNormalizedReplacer, "let  x =   1;\nnext", "let x = 1;")).toEqual(["let  x =   1;"]);
    expect(yields(WhitespaceNormalizedReplacer, "  return a  +  b; // sum", "a + b")).toEqual(["a  +  b"]);
    expect(yields(WhitespaceNormalizedReplacer, "if (a)  {\n\tgo();\n}", "if (a) {\n go();")).toEqual(["if (a)  {\n\tgo();"]);
    expect(yields(WhitespaceNormalizedReplacer, "abc", "   ")).toEqual([]);
  });

  it("IndentationFlexible matches a block whose common indentation differs", () => {
    const content = "class A {\n    m() {\n        go();\n    }\n}";
    expect(yields(IndentationFlexibleReplacer, content, "m() {\n    go();\n}")).toEqual(["    m() {\n        go();\n    }"]);
    expect(yields(IndentationFlexibleReplacer, content, "m() {\ngo();\n}")).toEqual([]);
  });

  it("EscapeNormalized unescapes oldString, and compares blocks unescaped the same way", () => {
    expect(unescapeString(String.raw`a\nb\t\"c\" \\n \$`)).toBe('a\nb\t"c" \\n $');
    // Found as unescaped, and again as the block of as many lines that unescapes to it.
    expect(yields(EscapeNormalizedReplacer, 'say("hi");\nnext();', String.raw`say(\"hi\");\nnext();`)).toEqual([
      'say("hi");\nnext();',
      'say("hi");\nnext();',
    ]);
    // The file has an escape of its own (a backslash-t in a string): compared unescaped on both sides.
    expect(yields(EscapeNormalizedReplacer, 'x = "a\\tb";', String.raw`x = \"a\tb\";`)).toEqual(['x = "a\\tb";']);
  });

  it("TrimmedBoundary only acts when oldString has whitespace at its ends", () => {
    expect(yields(TrimmedBoundaryReplacer, "x = foo(1);\n", "  foo(1)  ")).toEqual(["foo(1)"]);
    expect(yields(TrimmedBoundaryReplacer, "x\n\n  b\n\ny", "\n  b\n")).toEqual(["b", "\n  b\n"]);
    expect(yields(TrimmedBoundaryReplacer, "foo", "foo")).toEqual([]);
  });

  it("ContextAware wants the same line count and half of the middle lines equal", () => {
    const content = "begin\n  one();\n  two();\n  three();\nend";
    expect(yields(ContextAwareReplacer, content, "begin\n  one();\n  TWO();\n  three();\nend")).toEqual([content]);
    expect(yields(ContextAwareReplacer, content, "begin\n  ONE();\n  TWO();\n  three();\nend")).toEqual([]);
    expect(yields(ContextAwareReplacer, content, "begin\n  one();\nend")).toEqual([]);
  });

  it("MultiOccurrence yields oldString once per exact occurrence, and nothing for an empty one", () => {
    expect(yields(MultiOccurrenceReplacer, "a-a-a", "a")).toEqual(["a", "a", "a"]);
    expect(yields(MultiOccurrenceReplacer, "aaaa", "aa")).toEqual(["aa", "aa"]);
    expect(yields(MultiOccurrenceReplacer, "abc", "")).toEqual([]);
  });
});
