import { describe, expect, it } from "vitest";
import { CallListError, parseCallList } from "../../../src/session/record/call-list.js";

describe("contract: a calls file is a JSON array of { tool, args }", () => {
  it("reads the calls in order, args defaulting to an empty object", () => {
    const text = JSON.stringify([{ tool: "write", args: { filePath: "a.txt", content: "x" } }, { tool: "list" }]);
    expect(parseCallList(text, "calls.json")).toEqual([
      { tool: "write", args: { filePath: "a.txt", content: "x" } },
      { tool: "list", args: {} },
    ]);
  });

  it("keeps calls to tools it does not know: running them answers as the invalid tool does", () => {
    expect(parseCallList('[{"tool":"nope","args":{}}]', "f")).toEqual([{ tool: "nope", args: {} }]);
  });

  it.each([
    ["not JSON", "{oops", /^calls\.json is not valid JSON: /],
    ["an object, not a list", '{"tool":"read"}', /^calls\.json must hold a JSON array of \{ "tool": id, "args": \{\.\.\.\} \}$/],
    ["a call without a tool", '[{"tool":"read","args":{}},{"args":{}}]', /^call 2 has no "tool" string/],
    ["a call that is not an object", '[{"tool":"read"}, 3]', /^call 2 has no "tool" string/],
    ["args that are a list", '[{"tool":"read","args":[1]}]', /^call 1: "args" must be an object$/],
    ["args that are null", '[{"tool":"read","args":null}]', /^call 1: "args" must be an object$/],
  ])("refuses %s with a message that names the file or the call", (_, text, message) => {
    expect(() => parseCallList(text, "calls.json")).toThrow(CallListError);
    expect(() => parseCallList(text, "calls.json")).toThrow(message);
  });
});
