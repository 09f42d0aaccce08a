/**
 * Properties of execute's values against the host's own JSON, the independent answer: any JSON text the
 * program parses and writes back comes out as the host writes it (keys in order, `__proto__` and
 * `constructor` kept as plain keys, numbers and escapes alike), and passing it to a tool as arguments hands
 * the tool exactly that data. No such round trip changes a host prototype.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Interpreter, parseProgram } from "../../src/tools/execute/interpreter.js";
import { DEFAULT_LIMITS } from "../../src/tools/execute/limits.js";

async function run(code: string, onCall?: (params: Record<string, unknown>) => void): Promise<string> {
  const interpreter = new Interpreter({
    limits: DEFAULT_LIMITS,
    signal: new AbortController().signal,
    tools: ["probe"],
    refused: new Map(),
    callTool: async (_tool, params) => {
      onCall?.(params);
      return { ok: true, output: "ok" };
    },
  });
  return (await interpreter.run(parseProgram(code, DEFAULT_LIMITS))).output;
}

// Keys a pollution attempt would use, mixed into fast-check's own.
const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "prototype", "toString", "0", "length"));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
}));

describe("execute's values keep JSON as the host has it", () => {
  it("JSON.parse then JSON.stringify in a program writes what the host writes", async () => {
    await fc.assert(
      fc.asyncProperty(json.value, async (value) => {
        const text = JSON.stringify(value);
        const host = JSON.stringify(JSON.parse(text));
        const ours = await run(`return JSON.stringify(JSON.parse(${JSON.stringify(text)}));`);
        expect(ours).toBe(host);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("a tool receives exactly the data the program passed", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, json.value, { maxKeys: 5 }), async (params) => {
        const text = JSON.stringify(params);
        let received: Record<string, unknown> | undefined;
        await run(`await tools.probe(JSON.parse(${JSON.stringify(text)}));`, (p) => {
          received = p;
        });
        expect(JSON.stringify(received)).toBe(JSON.stringify(JSON.parse(text)));
        expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
      }),
      { numRuns: 300 },
    );
  });
});
