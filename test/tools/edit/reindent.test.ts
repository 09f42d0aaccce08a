/**
 * A fuzzy match carries its indentation over to newString (#24549, #29573, #25953): the model wrote both
 * strings in its own picture of the block, the file has it elsewhere, deeper, or with tabs.
 */
import { describe, expect, it } from "vitest";
import { adaptNewString, replace } from "../../../src/tools/edit/index.js";

describe("re-indenting newString to a fuzzy match", () => {
  it("moves a 2-space block matched at 8 spaces to 8 spaces (the seed writes it verbatim)", () => {
    const content = "class A {\n  method() {\n        if (ready) {\n          go();\n        }\n  }\n}\n";
    const old = "  if (ready) {\n    go();\n  }";
    const replacement = "  if (ready) {\n    go();\n    wave();\n  }";
    expect(replace(content, old, replacement)).toMatchObject({
      content: "class A {\n  method() {\n        if (ready) {\n          go();\n          wave();\n        }\n  }\n}\n",
      strategy: "LineTrimmed",
      fuzzy: true,
      startLine: 3,
      endLine: 5,
    });
    expect(replace(content, old, replacement, { policy: "seed" }).content).toBe(
      "class A {\n  method() {\n  if (ready) {\n    go();\n    wave();\n  }\n  }\n}\n",
    );
  });

  it("lands a flush-left Python block at its depth", () => {
    const content = "def f():\n        if x:\n            return 1\n        return 2\n";
    expect(replace(content, "if x:\n    return 1", "if x:\n    return 10").content).toBe(
      "def f():\n        if x:\n            return 10\n        return 2\n",
    );
  });

  it("takes a block written deeper back out, lines shallower than the first included", () => {
    const content = "    x = [\n      1,\n    ];\n";
    expect(
      replace(
        content,
        "            x = [\n              1,\n            ];",
        "            x = [\n              1,\n              2,\n            ];",
      ).content,
    ).toBe("    x = [\n      1,\n      2,\n    ];\n");
    const closing = "a {\n      deep();\n  }\n";
    expect(replace(closing, "a {\n    deep();\n}", "a {\n    deeper();\n}").content).toBe("a {\n      deeper();\n  }\n");
  });

  it("writes tabs into a tab-indented file when the model used spaces, whatever its width", () => {
    const content = "function f() {\n\tif (a) {\n\t\tb();\n\t}\n}\n";
    expect(replace(content, "    if (a) {\n        b();\n    }", "    if (a) {\n        c();\n        d();\n    }").content).toBe(
      "function f() {\n\tif (a) {\n\t\tc();\n\t\td();\n\t}\n}\n",
    );
    expect(replace(content, "  if (a) {\n    b();\n  }", "  if (a) {\n    if (c) {\n      d();\n    }\n  }").content).toBe(
      "function f() {\n\tif (a) {\n\t\tif (c) {\n\t\t\td();\n\t\t}\n\t}\n}\n",
    );
  });

  it("writes spaces into a space-indented file when the model used tabs", () => {
    const content = "function f() {\n    if (a) {\n        b();\n    }\n}\n";
    expect(replace(content, "\tif (a) {\n\t\tb();\n\t}", "\tif (a) {\n\t\tc();\n\t}").content).toBe(
      "function f() {\n    if (a) {\n        c();\n    }\n}\n",
    );
  });

  it("reads the tab width off the paired lines, not off a jump of two levels", () => {
    const content = "run(() => {\n        deep();\n    done();\n});\n";
    expect(
      replace(content, "run(() => {\n\t\tdeep();\n\tdone();\n});", "run(() => {\n\t\tdeep();\n\t\tdeeper();\n\tdone();\n});").content,
    ).toBe("run(() => {\n        deep();\n        deeper();\n    done();\n});\n");
  });

  it("keeps a doc comment's alignment space when converting tabs", () => {
    const content = "\t/**\n\t * Says hi.\n\t */\n\thi() {}\n";
    expect(
      replace(content, "    /**\n     * Says hi.\n     */\n    hi() {}", "    /**\n     * Says hello.\n     */\n    hi() {}").content,
    ).toBe("\t/**\n\t * Says hello.\n\t */\n\thi() {}\n");
  });

  it("fixes only the first line when only the first line lost its indentation (#29573)", () => {
    const content = "class A {\n    run() {\n        go();\n    }\n}\n";
    expect(replace(content, "run() {\n        go();\n    } ", "run() {\n        go();\n        stop();\n    }").content).toBe(
      "class A {\n    run() {\n        go();\n        stop();\n    }\n}\n",
    );
  });

  it("keeps a tab-and-spaces indentation intact when the model only added a tab in front", () => {
    const content = "\t\t/**\n\t\t   *  aligned\n\t\t   */\n\t\tf();\n";
    expect(
      replace(content, "\t\t\t/**\n\t\t\t   *  aligned\n\t\t\t   */\n\t\t\tf();", "\t\t\t/**\n\t\t\t   * aligned\n\t\t\t   */\n\t\t\tf();")
        .content,
    ).toBe("\t\t/**\n\t\t   * aligned\n\t\t   */\n\t\tf();\n");
  });

  it("drops a trailing newline of newString when the match did not take oldString's", () => {
    expect(replace("a\n  b\nc", "b \n", "B\n").content).toBe("a\n  B\nc");
  });

  it("keeps blank lines a match took at its edge that oldString did not have", () => {
    // WhitespaceNormalized may match a window that starts with blank lines the model put at the end.
    expect(adaptNewString("x\n\n\n  a();\n  b();\ny", 2, 17, "  a();\n  b();\n\n", "  a();\n  c();\n\n")).toBe("\n\n  a();\n  c();");
  });

  it("leaves blank lines of newString blank, and newString alone when nothing differs", () => {
    expect(replace("x();\n    if (a) {\n        b();\n    }\n", "if (a) {\n    b();\n}", "if (a) {\n\n    c();\n}").content).toBe(
      "x();\n    if (a) {\n\n        c();\n    }\n",
    );
    expect(adaptNewString("  a  \n", 0, 5, "  a", "  b")).toBe("  b");
  });

  it("keeps an edited line's own indentation when the model did not change it, even where no shift is consistent", () => {
    // The first and last lines sit where the model put them, the middle one does not; the model edited
    // only the middle line's text, so that line keeps the file's indentation.
    expect(replace("if (a) {\n        b();\n}\n", "if (a) {\n    b();\n}", "if (a) {\n    c();\n}").content).toBe(
      "if (a) {\n        c();\n}\n",
    );
  });
});
