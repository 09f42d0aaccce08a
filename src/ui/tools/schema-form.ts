/**
 * A tool's form from its zod parameters, through zod's JSON Schema export: each top-level property
 * becomes a field of a kind a person can fill in, and the filled form becomes the call's arguments.
 * Validation stays with the tool's own zod schema; this only shapes the input.
 */
import { z } from "zod";
import { errorMessage } from "../../base/error-message.js";

type FieldKind = "text" | "textarea" | "number" | "boolean" | "enum" | "lines" | "json";

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  options: string[];
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  description?: string;
  anyOf?: JsonSchema[];
};

/** Names that usually hold more than a line. */
const LONG_TEXT = /content|string|patch|text|prompt|command/i;

function kindOf(name: string, schema: JsonSchema): { kind: FieldKind; options: string[] } {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string"))
    return { kind: "enum", options: schema.enum as string[] };
  switch (schema.type) {
    case "string":
      return { kind: LONG_TEXT.test(name) ? "textarea" : "text", options: [] };
    case "number":
    case "integer":
      return { kind: "number", options: [] };
    case "boolean":
      return { kind: "boolean", options: [] };
    case "array":
      return { kind: schema.items?.type === "string" ? "lines" : "json", options: [] };
    default:
      return { kind: "json", options: [] };
  }
}

export function fieldsOf(parameters: z.ZodType): Field[] {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(parameters, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch {
    return [];
  }
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    ...kindOf(name, property),
    required: required.has(name),
    description: property.description ?? "",
  }));
}

export type FormValues = Record<string, string | boolean>;

/**
 * The arguments a filled form stands for. An empty field is left out; text the form cannot
 * read (bad JSON, not a number) comes back as an error for that field.
 */
export function argsFrom(fields: Field[], values: FormValues): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    if (field.kind === "boolean") {
      if (raw === true || field.required) args[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === "string" ? raw : "";
    // An empty field is an absent argument: the schema then says whether it may be (so a required
    // string cannot be sent empty from the form; the JSON of a calls file can).
    if (text === "") continue;
    switch (field.kind) {
      case "number": {
        const value = Number(text);
        if (text.trim() === "" || !Number.isFinite(value)) errors[field.name] = `"${text}" is not a number`;
        else args[field.name] = value;
        break;
      }
      case "lines":
        args[field.name] = text.split("\n").filter((line) => line !== "");
        break;
      case "json":
        try {
          args[field.name] = JSON.parse(text);
        } catch (error) {
          errors[field.name] = `not valid JSON: ${errorMessage(error)}`;
        }
        break;
      default:
        args[field.name] = text;
    }
  }
  return { args, errors };
}

/** The tool's own schema's verdict, as messages by top-level field ("" for the whole object). */
export function validate(parameters: z.ZodType, args: Record<string, unknown>): Record<string, string> {
  const result = parameters.safeParse(args);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : "";
    // zod's "expected string, received undefined" says less to a person than this.
    errors[key] ??= key !== "" && issue.path.length === 1 && args[key] === undefined ? "Required: fill this in." : issue.message;
  }
  return errors;
}
