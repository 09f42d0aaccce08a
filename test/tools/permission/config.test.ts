import { describe, expect, it } from "vitest";
import { expandHome, permissionConfigSchema, rulesFromConfig } from "../../../src/tools/permission/config.js";

const home = "/home/me";
const strip = (rules: ReturnType<typeof rulesFromConfig>) => rules.map(({ permission, pattern, action }) => [permission, pattern, action]);

describe("rulesFromConfig: shapes", () => {
  it("turns a bare action into one rule for every permission and pattern", () => {
    expect(rulesFromConfig("deny", { home })).toEqual([{ permission: "*", pattern: "*", action: "deny", source: "config" }]);
  });

  it("turns `key: action` into a rule with pattern *", () => {
    expect(strip(rulesFromConfig({ bash: "ask", webfetch: "deny" }, { home }))).toEqual([
      ["bash", "*", "ask"],
      ["webfetch", "*", "deny"],
    ]);
  });

  it("turns `key: {pattern: action}` into one rule per pattern", () => {
    expect(strip(rulesFromConfig({ bash: { "*": "ask", "git *": "allow", "rm *": "deny" } }, { home }))).toEqual([
      ["bash", "*", "ask"],
      ["bash", "git *", "allow"],
      ["bash", "rm *", "deny"],
    ]);
  });

  it("accepts patterns for any key, MCP tools and webfetch included", () => {
    expect(strip(rulesFromConfig({ mcp_github: { "*": "ask" }, webfetch: { "https://docs.*": "allow" } }, { home }))).toEqual([
      ["mcp_github", "*", "ask"],
      ["webfetch", "https://docs.*", "allow"],
    ]);
  });

  it("records the given source on every rule, and 'config' by default", () => {
    expect(rulesFromConfig({ a: "allow", b: { x: "deny" } }, { home, source: "session" }).map((r) => r.source)).toEqual([
      "session",
      "session",
    ]);
    expect(rulesFromConfig({ a: "allow" }, { home })[0]?.source).toBe("config");
  });

  it("yields no rules for an empty object", () => {
    expect(rulesFromConfig({}, { home })).toEqual([]);
  });
});

describe("rulesFromConfig: key order is meaning", () => {
  it("keeps the order of permission keys as written in the JSON text", () => {
    const config: unknown = JSON.parse('{"*": "deny", "bash": "allow", "edit": "ask", "read": "deny"}');
    expect(rulesFromConfig(config, { home }).map((r) => r.permission)).toEqual(["*", "bash", "edit", "read"]);
  });

  it("keeps the order of patterns within a key, even when a broad one comes last", () => {
    const config: unknown = JSON.parse('{"edit": {"src/*": "allow", "*.env": "deny", "*": "ask"}}');
    expect(rulesFromConfig(config, { home }).map((r) => r.pattern)).toEqual(["src/*", "*.env", "*"]);
  });

  it("reverses nothing when the same keys come the other way round", () => {
    const a = rulesFromConfig(JSON.parse('{"*": "deny", "bash": "allow"}'), { home });
    const b = rulesFromConfig(JSON.parse('{"bash": "allow", "*": "deny"}'), { home });
    expect(a.map((r) => r.permission)).toEqual(["*", "bash"]);
    expect(b.map((r) => r.permission)).toEqual(["bash", "*"]);
  });

  it("documents JavaScript's one exception: integer-like keys come first", () => {
    const config: unknown = JSON.parse('{"edit": {"b": "deny", "7": "allow"}}');
    expect(rulesFromConfig(config, { home }).map((r) => r.pattern)).toEqual(["7", "b"]);
  });
});

describe("rulesFromConfig: home expansion at the start of patterns", () => {
  it.each([
    ["~", "/home/me"],
    ["~/", "/home/me/"],
    ["~/notes/*", "/home/me/notes/*"],
    ["$HOME", "/home/me"],
    ["$HOME/.config/*", "/home/me/.config/*"],
    // Not at the start, a different variable, or a user's home: left alone.
    ["/x/~/y", "/x/~/y"],
    ["~other/x", "~other/x"],
    ["$HOMEBREW/bin/*", "$HOMEBREW/bin/*"],
    ["src/$HOME", "src/$HOME"],
    ["*", "*"],
  ])("%s → %s", (pattern, expected) => {
    expect(rulesFromConfig({ read: { [pattern]: "allow" } }, { home })[0]?.pattern).toBe(expected);
  });

  it("does not double the slash when home has a trailing one or is /", () => {
    expect(expandHome("~/x", "/home/me/")).toBe("/home/me/x");
    expect(expandHome("~", "/home/me/")).toBe("/home/me");
    expect(expandHome("~/x", "/")).toBe("/x");
    expect(expandHome("$HOME", "/")).toBe("/");
  });

  it("does not expand permission names, only patterns", () => {
    expect(rulesFromConfig({ "~": "allow" }, { home })[0]).toMatchObject({ permission: "~", pattern: "*" });
  });
});

describe("rulesFromConfig: bad input is refused with a message naming the entry", () => {
  it.each<[unknown, string]>([
    ["yes", `permission must be "allow", "ask" or "deny", got "yes"`],
    ["Allow", `permission must be "allow", "ask" or "deny", got "Allow" (actions are lowercase)`],
    [42, `permission must be "allow", "ask" or "deny", or an object mapping permission names to actions, got 42`],
    [null, `permission must be "allow", "ask" or "deny", or an object mapping permission names to actions, got null`],
    [["allow"], `permission must be "allow", "ask" or "deny", or an object mapping permission names to actions, got an array`],
    [undefined, `permission must be "allow", "ask" or "deny", or an object mapping permission names to actions, got undefined`],
    [{ bash: "yes" }, `permission.bash must be "allow", "ask" or "deny", got "yes"`],
    [{ bash: true }, `permission.bash must be "allow", "ask" or "deny", or an object mapping patterns to actions, got true`],
    [{ bash: ["ls *"] }, `permission.bash must be "allow", "ask" or "deny", or an object mapping patterns to actions, got an array`],
    [{ "mcp-tool": 1 }, `permission["mcp-tool"] must be "allow", "ask" or "deny", or an object mapping patterns to actions, got 1`],
    [{ bash: { "rm *": "yes" } }, `permission.bash["rm *"] must be "allow", "ask" or "deny", got "yes"`],
    [{ bash: { "rm *": "DENY" } }, `permission.bash["rm *"] must be "allow", "ask" or "deny", got "DENY" (actions are lowercase)`],
    [{ bash: { ls: { nested: "allow" } } }, `permission.bash["ls"] must be "allow", "ask" or "deny", got an object`],
    [{ read: { "*": "allow", '"quoted"': null } }, `permission.read["\\"quoted\\""] must be "allow", "ask" or "deny", got null`],
  ])("%j", (input, message) => {
    expect(() => rulesFromConfig(input, { home })).toThrow(new Error(message));
  });

  it("reports the first bad entry in order, so fixing the file goes top to bottom", () => {
    expect(() => rulesFromConfig({ a: "allow", b: "nope", c: "worse" }, { home })).toThrow(/permission\.b must/);
  });
});

describe("permissionConfigSchema", () => {
  it("passes a valid section through unchanged and in order", () => {
    const input: unknown = JSON.parse('{"*": "ask", "bash": {"git *": "allow", "*": "ask"}}');
    const parsed = permissionConfigSchema.parse(input);
    expect(parsed).toEqual(input);
    expect(Object.keys(parsed as object)).toEqual(["*", "bash"]);
  });

  it("fails with the same message as rulesFromConfig", () => {
    const result = permissionConfigSchema.safeParse({ bash: { "rm *": "yes" } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(`permission.bash["rm *"] must be "allow", "ask" or "deny", got "yes"`);
  });
});
