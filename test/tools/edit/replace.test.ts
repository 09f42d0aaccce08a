/**
 * `replace`: OpenCode's error texts, literal replaceAll, and where the safe policy departs from the seed's
 * (refusing broad or unlike spans, reporting ambiguity instead of picking a variant).
 */
import { describe, expect, it } from "vitest";
import {
  CLOSEST_HEADING,
  EditMatchError,
  IDENTICAL_MESSAGE,
  MULTIPLE_MESSAGE,
  NOT_FOUND_MESSAGE,
  replace,
  TOO_BROAD_MESSAGE,
  type EditMatchErrorKind,
  type ReplaceOptions,
} from "../../../src/tools/edit/index.js";

function failure(content: string, oldString: string, newString: string, options?: ReplaceOptions): EditMatchError {
  try {
    replace(content, oldString, newString, options);
  } catch (error) {
    if (error instanceof EditMatchError) return error;
    throw error;
  }
  throw new Error("replace did not throw");
}

function kindOf(content: string, oldString: string, newString: string, options?: ReplaceOptions): EditMatchErrorKind {
  return failure(content, oldString, newString, options).kind;
}

describe("replace: an exact match", () => {
  it("replaces a unique occurrence and says where", () => {
    expect(replace("const a = 1;\nconst b = 2;\n", "const b = 2;", "const b = 3;\nconst c = 4;")).toEqual({
      content: "const a = 1;\nconst b = 3;\nconst c = 4;\n",
      strategy: "Simple",
      fuzzy: false,
      occurrences: 1,
      startLine: 2,
      endLine: 2,
      differing: [],
    });
    expect(replace("a\nb\nc\nd", "b\nc\n", "X\n")).toMatchObject({ content: "a\nX\nd", startLine: 2, endLine: 3 });
  });

  it("inserts newString literally, patterns and all", () => {
    expect(replace("x = y;", "y", "$&$$$'$`").content).toBe("x = $&$$$'$`;");
  });

  it("rejects identical strings in OpenCode's words, under both policies", () => {
    for (const policy of ["safe", "seed"] as const) {
      const error = failure("abc", "b", "b", { policy });
      expect(error).toBeInstanceOf(EditMatchError);
      expect(error.kind).toBe("identical");
      expect(error.message).toBe("No changes to apply: oldString and newString are identical.");
      expect(error.message).toBe(IDENTICAL_MESSAGE);
    }
  });

  it("refuses an empty oldString instead of looping forever", () => {
    for (const policy of ["safe", "seed"] as const) {
      expect(kindOf("anything", "", "x", { policy })).toBe("empty");
      expect(kindOf("anything", "", "x", { policy, replaceAll: true })).toBe("empty");
    }
  });

  it("says several matches in OpenCode's words, with the lines where oldString matched", () => {
    const error = failure("x = 1\nx = 1\ny = 2\n", "x = 1", "x = 2");
    expect(error.kind).toBe("multiple");
    expect(error.message).toBe(
      "Found multiple matches for oldString. Provide more surrounding context to make the match unique.\n\nIt matches at lines 1, 2.",
    );
    expect(error.message.startsWith(MULTIPLE_MESSAGE)).toBe(true);
    expect(error.lines).toEqual([
      { start: 1, end: 1 },
      { start: 2, end: 2 },
    ]);
    const many = Array.from({ length: 14 }, () => "dup();").join("\n");
    expect(failure(many, "dup();", "one();").message).toMatch(/It matches at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more\.$/);
  });

  it("says not found in OpenCode's words, then shows the closest lines with their numbers", () => {
    const content = [
      "import x from 'x';",
      "",
      "function total(items) {",
      "  let sum = 0;",
      "  for (const item of items) sum += item.price;",
      "  return sum;",
      "}",
      "",
    ].join("\n");
    const error = failure(content, "  let sum = 1;\n  for (const item of items) sum += item.cost;\n  return sum;", "nothing");
    expect(error.kind).toBe("not-found");
    expect(error.message).toBe(
      [
        "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.",
        "",
        "The closest lines in the file (line numbers for reference, not part of the text):",
        " 4|   let sum = 0;",
        " 5|   for (const item of items) sum += item.price;",
        " 6|   return sum;",
      ].join("\n"),
    );
    expect(error.message.startsWith(`${NOT_FOUND_MESSAGE}\n\n${CLOSEST_HEADING}\n`)).toBe(true);
    expect(error.lines).toEqual([{ start: 4, end: 6 }]);
  });

  it("pads the line numbers of the closest lines to the widest one", () => {
    const content = Array.from({ length: 120 }, (_, i) => `line ${i + 1} of the file`).join("\n");
    const message = failure(content, "line 99 of the file!\nline 100 of the file!", "x").message;
    expect(message.endsWith("\n  99| line 99 of the file\n 100| line 100 of the file")).toBe(true);
  });

  it("says only the sentence when the file is empty", () => {
    expect(failure("", "a", "b").message).toBe(NOT_FOUND_MESSAGE);
  });
});

describe("replace: replaceAll", () => {
  it("replaces every occurrence literally and counts them", () => {
    expect(replace("cost cost cost\n", "cost", "$&$$", { replaceAll: true })).toEqual({
      content: "$&$$ $&$$ $&$$\n",
      strategy: "Simple",
      fuzzy: false,
      occurrences: 3,
      startLine: 1,
      endLine: 1,
      differing: [],
    });
    expect(replace("a.b\na.b", "a.b", "$'$`$1", { replaceAll: true }).content).toBe("$'$`$1\n$'$`$1");
    expect(replace("a\nb\na\nb\na", "a", "$&", { replaceAll: true })).toMatchObject({ occurrences: 3, startLine: 1, endLine: 5 });
  });

  it("is literal under the seed policy too (OpenCode's String.replaceAll interpreted $&)", () => {
    expect(replace("ab ab", "ab", "[$&]", { replaceAll: true, policy: "seed" }).content).toBe("[$&] [$&]");
  });

  it("replaces left to right without overlaps, as split would", () => {
    expect(replace("aaaaa", "aa", "b", { replaceAll: true })).toMatchObject({ content: "bba", occurrences: 2 });
  });

  it("re-indents each place of a fuzzy replaceAll to its own block", () => {
    const content = "if (a) {\n  go(1);\n}\nif (b) {\n    go(1);\n}\n";
    expect(replace(content, "go(1); ", "go(2);\nlog();", { replaceAll: true })).toMatchObject({
      content: "if (a) {\n  go(2);\n  log();\n}\nif (b) {\n    go(2);\n    log();\n}\n",
      strategy: "LineTrimmed",
      occurrences: 2,
    });
  });
});

describe("replace: the safe policy against the seed's", () => {
  // A 3-line oldString whose first and last lines match lines far apart: #24959.
  const body = Array.from({ length: 40 }, (_, i) => `  step${i}();`);
  const file = ["function setup() {", ...body, "}", "", "setup();", ""].join("\n");
  const oldString = "function setup() {\n  step0();\n}";
  const newString = "function setup() {\n  step0();\n  extra();\n}";

  it("the seed replaces the whole far-apart span: 40 lines the model never quoted are gone", () => {
    const result = replace(file, oldString, newString, { policy: "seed" });
    expect(result.strategy).toBe("BlockAnchor");
    expect(result.content).toBe("function setup() {\n  step0();\n  extra();\n}\n\nsetup();\n");
  });

  it("safe refuses it as too broad, says why, and leaves it to the model", () => {
    const error = failure(file, oldString, newString);
    expect(error.kind).toBe("too-broad");
    expect(error.message).toBe(
      `${TOO_BROAD_MESSAGE}\n\nThe BlockAnchor strategy matched lines 1-42 (42 lines) for an oldString of 3 lines.`,
    );
    expect(TOO_BROAD_MESSAGE).toBe(
      "Refusing replacement because the matched span is much larger than oldString. Re-read the file and provide the full exact oldString for the intended replacement.",
    );
    expect(error.lines).toEqual([{ start: 1, end: 42 }]);
  });

  it("safe still finds a block whose middle line the model remembered slightly wrong, and keeps the file's line", () => {
    const content = 'start();\nif (ready) {\n  launch("rocket");\n  wave();\n}\nend();\n';
    const result = replace(content, "if (ready) {\n  launch('rocket')\n  wave();\n}", "if (ready) {\n  launch('rocket')\n}");
    expect(result).toMatchObject({ strategy: "BlockAnchor", fuzzy: true, startLine: 2, endLine: 5 });
    // wave() is deleted; the misremembered launch line is left as the file has it.
    expect(result.content).toBe('start();\nif (ready) {\n  launch("rocket");\n}\nend();\n');
    // A change of the misremembered line itself is refused.
    expect(kindOf(content, "if (ready) {\n  launch('rocket')\n  wave();\n}", "if (ready) {\n  launch('rocket');\n}")).toBe("misremembered");
  });

  it("safe refuses a block whose middle line is not the file's (the seed replaces the real line)", () => {
    const content = "start();\nif (ready) {\n  launch(rocket);\n}\nend();\n";
    const invented = "if (ready) {\n  console.log('unrelated');\n}";
    expect(replace(content, invented, "if (ready) {\n}", { policy: "seed" }).content).toBe("start();\nif (ready) {\n}\nend();\n");
    expect(kindOf(content, invented, "if (ready) {\n}")).toBe("not-found");
  });

  it("safe refuses a block with one of its lines repeated (the seed would edit it)", () => {
    const content = "a();\nif (x) {\n  b();\n  c();\n}\nz();\n";
    const stutter = "if (x) {\n  b();\n  b();\n  c();\n}";
    expect(replace(content, stutter, "if (x) {\n  b();\n}", { policy: "seed" }).strategy).toBe("BlockAnchor");
    expect(kindOf(content, stutter, "if (x) {\n  b();\n}")).toBe("not-found");
  });

  it("reports an ambiguous exact match instead of letting a fuzzy strategy edit a unique variant (#41872)", () => {
    const content = "a foo()\nb\n  foo()\nc";
    // The seed: "foo()\n" occurs twice, so it moves on; LineTrimmed finds one line whose trim is "foo()"
    // and writes newString (with its newline) over that line, whose newline stays: a blank line appears.
    expect(replace(content, "foo()\n", "bar()\n", { policy: "seed" })).toMatchObject({
      content: "a foo()\nb\nbar()\n\nc",
      strategy: "LineTrimmed",
    });
    const error = failure(content, "foo()\n", "bar()\n");
    expect(error.kind).toBe("multiple");
    expect(error.lines).toEqual([
      { start: 1, end: 1 },
      { start: 3, end: 3 },
    ]);
  });

  it("reports a block that matches fuzzily in two places (the seed edits the first)", () => {
    const content = "  if (a) {\n    go();\n  }\nmiddle();\n      if (a) {\n        go();\n      }\n";
    const old = "if (a) {\n  go();\n}";
    expect(replace(content, old, "if (b) {\n  go();\n}", { policy: "seed" }).content.startsWith("if (b) {\n  go();\n}\nmiddle();")).toBe(
      true,
    );
    const error = failure(content, old, "if (b) {\n  go();\n}");
    expect(error.kind).toBe("multiple");
    expect(error.message).toMatch(/It matches at lines 1-3, 5-7\.$/);
  });

  it("prefers the one exact copy over its re-indented twin", () => {
    const content = "if (a) {\n  go();\n}\n    if (a) {\n      go();\n    }\n";
    expect(replace(content, "    if (a) {\n      go();\n    }", "    if (a) {\n      stop();\n    }")).toMatchObject({
      content: "if (a) {\n  go();\n}\n    if (a) {\n      stop();\n    }\n",
      strategy: "Simple",
    });
  });

  it("takes the whole block when its last line also closes an inner one (the seed stops at the inner one)", () => {
    const content = "for (x of y) {\n  if (x) {\n    go(x);\n  }\n  done(x);\n}\nafter();\n";
    const old = "for (x of y) {\n  if (x) {\n    go(x);\n  }\n  dune(x);\n}";
    const replacement = "for (x of y) {\n  dune(x);\n}";
    expect(replace(content, old, replacement, { policy: "seed" }).content).toBe("for (x of y) {\n  dune(x);\n}\n  done(x);\n}\nafter();\n");
    expect(replace(content, old, replacement)).toMatchObject({
      content: "for (x of y) {\n  done(x);\n}\nafter();\n",
      strategy: "BlockAnchor",
    });
  });

  it("names the fuzzy strategy that matched", () => {
    // The file's spacing stays where the model changed nothing.
    expect(replace("let  x = 1;\n", "let x = 1;", "let x = 2;")).toMatchObject({
      strategy: "WhitespaceNormalized",
      fuzzy: true,
      content: "let  x = 2;\n",
    });
    expect(replace('say("hi");\n', String.raw`say(\"hi\");`, 'say("bye");')).toMatchObject({
      strategy: "EscapeNormalized",
      fuzzy: true,
      content: 'say("bye");\n',
    });
    expect(replace("x = foo(1);\n", " foo(1) ", " foo(2) ")).toMatchObject({ strategy: "WhitespaceNormalized", content: "x = foo(2);\n" });
    expect(replace("x\n  foo();\n  bar();\ny", "\n\n  foo();\n  bar();\n", "\n\n  baz();\n  qux();\n")).toMatchObject({
      strategy: "TrimmedBoundary",
      fuzzy: true,
      content: "x\n  baz();\n  qux();\ny",
    });
  });
});
