import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinTools } from "../../src/tools/builtins.js";
import { argsFrom, fieldsOf, validate } from "../../src/ui/tools/schema-form.js";

const schema = z.object({
  filePath: z.string().describe("where"),
  content: z.string(),
  limit: z.number().optional(),
  replaceAll: z.boolean().optional(),
  mode: z.enum(["fast", "slow"]),
  globs: z.array(z.string()).optional(),
  options: z.object({ depth: z.number() }).optional(),
});

describe("contract: a zod schema becomes form fields", () => {
  it("maps each kind of property to a control, with required marks and descriptions", () => {
    const fields = fieldsOf(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["filePath", "text", true],
      ["content", "textarea", true],
      ["limit", "number", false],
      ["replaceAll", "boolean", false],
      ["mode", "enum", true],
      ["globs", "lines", false],
      ["options", "json", false],
    ]);
    expect(fields[0]!.description).toBe("where");
    expect(fields.find((f) => f.name === "mode")!.options).toEqual(["fast", "slow"]);
  });

  it("gives every built-in tool a form whose required fields are the schema's", async () => {
    for (const info of builtinTools) {
      const tool = await info.init();
      const fields = fieldsOf(tool.parameters);
      const missing = validate(tool.parameters, {});
      for (const field of fields.filter((f) => f.required)) expect(Object.keys(missing), `${info.id}.${field.name}`).toContain(field.name);
    }
  });
});

describe("contract: a filled form becomes arguments, and bad input errors by field", () => {
  const fields = fieldsOf(schema);

  it("converts numbers, lines, JSON and checkboxes, and leaves empty fields out", () => {
    const { args, errors } = argsFrom(fields, {
      filePath: "a.txt",
      content: "x\ny",
      limit: "20",
      replaceAll: true,
      mode: "fast",
      globs: "*.ts\n\n*.js",
      options: '{"depth":2}',
    });
    expect(errors).toEqual({});
    expect(args).toEqual({
      filePath: "a.txt",
      content: "x\ny",
      limit: 20,
      replaceAll: true,
      mode: "fast",
      globs: ["*.ts", "*.js"],
      options: { depth: 2 },
    });
    expect(argsFrom(fields, { filePath: "a", limit: "", globs: "" }).args).toEqual({ filePath: "a" });
  });

  it("reports text that is not a number or not JSON on its own field", () => {
    const { errors } = argsFrom(fields, { limit: "soon", options: "{depth" });
    expect(Object.keys(errors).sort()).toEqual(["limit", "options"]);
    expect(errors.limit).toContain("not a number");
  });

  it("lets the tool's schema name the missing and wrong fields", () => {
    const errors = validate(schema, { filePath: 3, mode: "medium" });
    expect(Object.keys(errors).sort()).toEqual(["content", "filePath", "mode"]);
    expect(errors.content).toBe("Required: fill this in.");
    expect(errors.filePath).not.toBe("Required: fill this in.");
    expect(validate(schema, { filePath: "a", content: "", mode: "slow" })).toEqual({});
  });
});
