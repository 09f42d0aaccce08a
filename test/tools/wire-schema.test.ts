/**
 * What the model sees of each built-in tool, pinned: its id, its description (the .txt beside the tool, and
 * a sha256 in the snapshot) and the JSON Schema of its parameters exactly as the AI SDK sends it: zod's
 * toJSONSchema (draft-7, input side), to which the SDK adds `additionalProperties: false` on objects (the
 * test checks that relation too). Any change to a tool's wire schema fails here until the snapshot is
 * regenerated on purpose:
 *
 *   UPDATE_WIRE_SCHEMA=1 npx vitest run test/tools/wire-schema.test.ts
 *
 * then review the diff of test/tools/wire-schema.snapshot.json and commit it with the change. With the
 * variable set the file is rewritten and the assertions still run; in CI (CI set) it refuses to rewrite.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { asSchema } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinTools } from "../../src/tools/builtins.js";

const SNAPSHOT = new URL("./wire-schema.snapshot.json", import.meta.url);
const TOOLS_DIR = new URL("../../src/tools/", import.meta.url);

interface Pinned {
  id: string;
  descriptionFirstLine: string;
  descriptionSha256: string;
  jsonSchema: unknown;
}

async function wireOf(tool: (typeof builtinTools)[number]) {
  const initialized = await tool.init();
  const jsonSchema = await asSchema(initialized.parameters as never).jsonSchema;
  const zodJsonSchema = z.toJSONSchema(initialized.parameters, { target: "draft-7", io: "input" });
  return { id: tool.id, description: initialized.description, jsonSchema, zodJsonSchema };
}

const wires = await Promise.all(builtinTools.map(wireOf));
const current: Pinned[] = wires
  .map(({ id, description, jsonSchema }) => ({
    id,
    descriptionFirstLine: description.split("\n")[0]!,
    descriptionSha256: createHash("sha256").update(description).digest("hex"),
    jsonSchema,
  }))
  .sort((a, b) => a.id.localeCompare(b.id));

if (process.env.UPDATE_WIRE_SCHEMA) {
  if (process.env.CI) throw new Error("UPDATE_WIRE_SCHEMA is set in CI: regenerate the snapshot locally, review it and commit it");
  writeFileSync(SNAPSHOT, `${JSON.stringify({ tools: current }, null, 2)}\n`);
}
const pinned = (JSON.parse(readFileSync(SNAPSHOT, "utf8")) as { tools: Pinned[] }).tools;

function withoutAdditionalProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAdditionalProperties);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "additionalProperties")
      .map(([key, item]) => [key, withoutAdditionalProperties(item)]),
  );
}

describe("wire schema of the built-in tools", () => {
  it("pins exactly the registry's built-in tools", () => {
    expect(current.map((tool) => tool.id)).toEqual(pinned.map((tool) => tool.id));
  });

  it.each(wires.map((wire) => [wire.id, wire] as const))("%s: the description is its .txt file (placeholders filled in)", (id, wire) => {
    const text = readFileSync(new URL(`${id}.txt`, TOOLS_DIR), "utf8").trim();
    // {name} placeholders (bash's {timeout}, ...) are filled in from constants; the rest is the file verbatim.
    // task's {agents} and skill's {skills} become lists, of several lines.
    const pattern = text
      .split(/(\{\w+\})/)
      .map((piece) =>
        piece === "{agents}" || piece === "{skills}"
          ? "[\\s\\S]+"
          : /^\{\w+\}$/.test(piece)
            ? "[^\\s{}]+"
            : piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("");
    expect(wire.description).toMatch(new RegExp(`^${pattern}$`));
    expect(wire.description, "a {placeholder} was left unfilled").not.toMatch(/\{\w+\}/);
  });

  it.each(current.map((tool) => [tool.id, tool] as const))("%s: id, description and JSON Schema match the snapshot", (id, tool) => {
    const snapshot = pinned.find((entry) => entry.id === id);
    expect(snapshot, `${id} is not in the snapshot: regenerate it (see the header of this file)`).toBeDefined();
    expect(tool).toEqual(snapshot);
  });

  it.each(wires.map((wire) => [wire.id, wire] as const))("%s: the wire schema is zod's toJSONSchema, closed to extra keys", (_id, wire) => {
    expect(withoutAdditionalProperties(wire.jsonSchema)).toEqual(withoutAdditionalProperties(wire.zodJsonSchema));
    expect(wire.jsonSchema).toMatchObject({ type: "object", additionalProperties: false });
  });
});
