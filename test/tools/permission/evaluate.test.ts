import { describe, expect, it } from "vitest";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { describeRule, evaluate, explain } from "../../../src/tools/permission/evaluate.js";
import type { Rule, Ruleset } from "../../../src/tools/permission/types.js";

const home = "/home/me";
const config = (json: string): Ruleset => rulesFromConfig(JSON.parse(json), { home });

describe("evaluate: the last matching rule wins", () => {
  it('allows bash under {"*": "deny", "bash": "allow"}', () => {
    expect(evaluate("bash", "ls", config('{"*": "deny", "bash": "allow"}')).action).toBe("allow");
  });

  it('denies bash under {"bash": "allow", "*": "deny"}', () => {
    expect(evaluate("bash", "ls", config('{"bash": "allow", "*": "deny"}')).action).toBe("deny");
  });

  it("does not rank rules by specificity: a broad rule after a narrow one overrides it", () => {
    const rules = config('{"edit": {"*.env": "deny", "*": "allow"}}');
    expect(evaluate("edit", "/p/.env", rules).action).toBe("allow");
    const reversed = config('{"edit": {"*": "allow", "*.env": "deny"}}');
    expect(evaluate("edit", "/p/.env", reversed).action).toBe("deny");
    expect(evaluate("edit", "/p/a.ts", reversed).action).toBe("allow");
  });

  it("needs both the permission and the pattern to match", () => {
    const rules = config('{"bash": {"git *": "allow"}, "edit": "deny"}');
    expect(evaluate("bash", "git status", rules).action).toBe("allow");
    expect(evaluate("bash", "rm -rf /", rules).action).toBe("ask");
    expect(evaluate("read", "git status", rules).action).toBe("ask");
  });

  it("matches permission names as wildcards too (mcp_* covers every MCP tool)", () => {
    const rules = config('{"mcp_*": "deny"}');
    expect(evaluate("mcp_github_search", "*", rules).action).toBe("deny");
    expect(evaluate("bash", "*", rules).action).toBe("ask");
  });

  it("falls back to ask, with no rule, when nothing matches", () => {
    expect(evaluate("bash", "ls", [])).toEqual({ action: "ask" });
    expect(evaluate("bash", "ls")).toEqual({ action: "ask" });
  });

  it("returns the deciding rule itself", () => {
    const rules = config('{"*": "allow", "read": {"*.env": "ask"}}');
    expect(evaluate("read", "/p/.env", rules).rule).toBe(rules[1]);
  });

  it("treats several rulesets as one list, later rulesets overriding earlier ones", () => {
    const agent = config('{"*": "allow", "edit": "deny"}');
    const session = config('{"edit": {"docs/*": "allow"}}');
    const approved: Ruleset = [{ permission: "bash", pattern: "npm test *", action: "allow" }];
    expect(evaluate("edit", "docs/a.md", agent, session, approved).action).toBe("allow");
    expect(evaluate("edit", "src/a.ts", agent, session, approved).action).toBe("deny");
    expect(evaluate("edit", "docs/a.md", session, agent).action).toBe("deny");
    expect(evaluate("bash", "npm test", [{ permission: "bash", pattern: "*", action: "deny" }], approved).action).toBe("allow");
  });

  it("treats `*` in a path rule as crossing folders, so *.env matches an absolute path", () => {
    expect(evaluate("read", "/any/dir/.env", config('{"read": {"*": "allow", "*.env": "ask"}}')).action).toBe("ask");
  });
});

describe("explain: which rule decided, from where, in a sentence", () => {
  const defaults: Ruleset = [{ permission: "*", pattern: "*", action: "allow" }];
  const user = config('{"edit": {"*": "allow", "*.env": "deny"}}');

  it("names the source, the rule and the rule's position", () => {
    const result = explain("edit", "/p/.env", [
      { source: "default", rules: defaults },
      { source: "config", rules: user },
    ]);
    expect(result).toMatchObject({ action: "deny", source: "config", layer: 1, index: 1, rule: user[1] });
    expect(result.sentence).toBe('deny, by the config rule edit "*.env": "deny" (last matching rule wins)');
  });

  it("points at an earlier layer when the later ones do not match", () => {
    const result = explain("bash", "ls", [
      { source: "default", rules: defaults },
      { source: "config", rules: user },
    ]);
    expect(result).toMatchObject({ action: "allow", source: "default", layer: 0, index: 0 });
    expect(result.sentence).toBe('allow, by the default rule * "*": "allow" (last matching rule wins)');
  });

  it("says when no rule matches", () => {
    expect(explain("bash", "ls", [{ source: "config", rules: user }])).toEqual({
      action: "ask",
      sentence: "ask: no rule matches (the default)",
    });
    expect(explain("bash", "ls", []).sentence).toBe("ask: no rule matches (the default)");
  });

  it("always agrees with evaluate", () => {
    const layers = [
      { source: "default" as const, rules: defaults },
      { source: "agent" as const, rules: config('{"edit": "deny", "bash": {"rm *": "deny"}}') },
      { source: "config" as const, rules: user },
    ];
    for (const [permission, pattern] of [
      ["edit", "/p/.env"],
      ["edit", "a.ts"],
      ["bash", "rm -rf x"],
      ["bash", "ls"],
      ["read", "x"],
    ] as const) {
      const expected = evaluate(permission, pattern, ...layers.map((l) => l.rules));
      const got = explain(permission, pattern, layers);
      expect(got.action).toBe(expected.action);
      expect(got.rule).toBe(expected.rule);
    }
  });

  it("quotes patterns so odd characters stay readable", () => {
    const rule: Rule = { permission: "bash", pattern: 'echo "hi" *', action: "ask" };
    expect(describeRule(rule)).toBe('bash "echo \\"hi\\" *": "ask"');
  });
});
