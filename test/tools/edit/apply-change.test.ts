/**
 * The promise of issue 16: at a fuzzy match the file gets the model's change and nothing else. Lines the
 * model did not change keep the file's text (spelling, escapes, quotes, spacing, indentation, blank lines);
 * a change of a line the model misremembered is refused with the real lines. Expected files are written
 * out by hand.
 */
import { describe, expect, it } from "vitest";
import { EditMatchError, replace } from "../../../src/tools/edit/index.js";

function refusal(content: string, oldString: string, newString: string): EditMatchError {
  try {
    replace(content, oldString, newString);
  } catch (error) {
    if (error instanceof EditMatchError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("a fuzzy match applies the change, not the pasted newString", () => {
  const invoice = "function total(price, qty) {\n  total = price * qty\n  tax = total * RATE\n  return total + tax\n}\n";

  it("keeps a misremembered line the model did not change (the issue's example)", () => {
    const result = replace(
      invoice,
      "total = price * qty\ntax = total * rate\nreturn total + tax",
      "total = price * quantity\ntax = total * rate\nreturn total + tax",
    );
    expect(result.content).toBe(
      "function total(price, qty) {\n  total = price * quantity\n  tax = total * RATE\n  return total + tax\n}\n",
    );
    expect(result.strategy).toBe("BlockAnchor");
    expect(result.differing).toContainEqual({ model: 2, file: 3, cosmetic: false });
  });

  it("refuses a change of the misremembered line, showing the real lines with numbers", () => {
    const error = refusal(
      invoice,
      "total = price * qty\ntax = total * rate\nreturn total + tax",
      "total = price * qty\ntax = total * rate * 2\nreturn total + tax",
    );
    expect(error.kind).toBe("misremembered");
    expect(error.message).toContain("oldString line 2 differs from file line 3");
    expect(error.message).toContain(" 2|   total = price * qty\n 3|   tax = total * RATE\n 4|   return total + tax");
    expect(error.lines).toEqual([{ start: 2, end: 4 }]);
  });

  it("keeps the file's quotes where the model escaped them, in both strings", () => {
    const content = 'say("hi");\nwave("x");\n';
    const result = replace(
      content,
      String.raw`say(\"hi\");` + "\n" + String.raw`wave(\"x\");`,
      String.raw`say(\"hi\");` + "\n" + String.raw`wave(\"y\");`,
    );
    expect(result).toMatchObject({ strategy: "EscapeNormalized", content: 'say("hi");\nwave("y");\n' });
    expect(result.differing).toEqual([
      { model: 1, file: 1, cosmetic: true },
      { model: 2, file: 2, cosmetic: true },
    ]);
  });

  it("keeps a block's real line breaks when the model wrote both strings as one escaped line", () => {
    const content = "a();\nb();\nc();\n";
    const result = replace(content, String.raw`a();\nb();\nc();`, String.raw`a();\nb(1);\nc();`);
    expect(result.content).toBe("a();\nb(1);\nc();\n");
  });

  it("keeps typographic quotes and dashes the model typed as ASCII, also inside an edited line", () => {
    const content = "// it’s here — ok\nrun();\n";
    expect(replace(content, "// it's here - ok\nrun();", "// it's here - ok\nrun(1);")).toMatchObject({
      strategy: "PunctuationNormalized",
      content: "// it’s here — ok\nrun(1);\n",
    });
    expect(replace(content, "// it's here - ok\nrun();", "// it's here - ok now\nrun();").content).toBe("// it’s here — ok now\nrun();\n");
  });

  it("keeps a blank line the model left out, and adds none the model put in", () => {
    const dropped = "start();\nif (a) {\n  one();\n\n  two();\n}\nend();\n";
    expect(replace(dropped, "if (a) {\n  one();\n  two();\n}", "if (a) {\n  one();\n  two();\n  three();\n}").content).toBe(
      "start();\nif (a) {\n  one();\n\n  two();\n  three();\n}\nend();\n",
    );
    const added = "start();\nif (a) {\n  one();\n  two();\n}\nend();\n";
    expect(replace(added, "if (a) {\n  one();\n\n  two();\n}", "if (a) {\n  one(1);\n\n  two();\n}").content).toBe(
      "start();\nif (a) {\n  one(1);\n  two();\n}\nend();\n",
    );
  });

  it("keeps the file's indentation for unchanged lines and re-indents new ones", () => {
    const content = "\tif (a) {\n\t\tb();\n\t}\n";
    expect(replace(content, "    if (a) {\n        b();\n    }", "    if (a) {\n        b();\n        c();\n    }").content).toBe(
      "\tif (a) {\n\t\tb();\n\t\tc();\n\t}\n",
    );
  });

  it("keeps the file's trailing spaces and inner spacing on lines the model did not change", () => {
    expect(replace("a = 1;  \nb = 2;\n", "a = 1;\nb = 2;", "a = 1;\nb = 3;").content).toBe("a = 1;  \nb = 3;\n");
    expect(replace("let  x = 1;\nlet y = 2;\n", "let x = 1;\nlet y = 2;", "let x = 1;\nlet y = 3;").content).toBe(
      "let  x = 1;\nlet y = 3;\n",
    );
  });

  it("deletes a line the model deleted, even next to a misremembered one", () => {
    const content = 'if (ok) {\n  log("a");\n  drop();\n  keep();\n}\n';
    expect(replace(content, "if (ok) {\n  log('a');\n  drop();\n  keep();\n}", "if (ok) {\n  log('a');\n  keep();\n}").content).toBe(
      'if (ok) {\n  log("a");\n  keep();\n}\n',
    );
  });

  it("leaves exact matches and replaceAll as they were: newString written as given", () => {
    expect(replace("x  =  1;\n", "x  =  1;", "y = 2;").content).toBe("y = 2;\n");
    expect(replace("a ’b’ a ’b’\n", "’b’", "'c'", { replaceAll: true }).content).toBe("a 'c' a 'c'\n");
  });

  it("still refuses an anchored block whose middle is not what the model quoted", () => {
    const content = "begin();\nfirst();\nsomething.else(entirely, different);\nlast();\n";
    expect(refusal(content, "first();\nnothing.like(this);\nlast();", "first();\nlast();").kind).toBe("not-found");
  });

  it("a long block whose every middle line differs from the file still keeps the file's lines (the line diff's fallback)", () => {
    const file = ["begin() {", ...Array.from({ length: 3000 }, (_, i) => `  step(${i});`), "}"];
    const model = ["begin() {", ...Array.from({ length: 3000 }, (_, i) => `  step(${i})`), "}"];
    const wanted = [...model.slice(0, 2), "  extra();", ...model.slice(2)];
    const result = replace(`${file.join("\n")}\n`, model.join("\n"), wanted.join("\n"));
    expect(result.content).toBe(`${[...file.slice(0, 2), "  extra();", ...file.slice(2)].join("\n")}\n`);
  });
});
