/**
 * OpenCode V2's `permissions` list, against V2's documented semantics: ordered rules, the last match wins, no
 * match asks, several resources (any deny wins, then ask), a trailing " *" also covers the bare command, and
 * V2's names (`shell`, `subagent`, `patch`) map onto the permissions the engine asks under.
 */
import { describe, expect, it } from "vitest";
import { Bus } from "../../../src/tools/bus.js";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { PermissionEngine } from "../../../src/tools/permission/engine.js";
import { DeniedError } from "../../../src/tools/permission/errors.js";
import { describeRule, evaluate } from "../../../src/tools/permission/evaluate.js";
import { engineName, rulesFromV2, v2Name } from "../../../src/tools/permission/v2.js";

const home = "/home/me";

// The example of V2's permissions page (https://opencode.ai/v2/docs/permissions/), and the V1 map a person
// would have written for the same intent.
const V2_DOC_RULES = [
  { action: "*", resource: "*", effect: "ask" },
  { action: "read", resource: "*", effect: "allow" },
  { action: "read", resource: "*.env", effect: "deny" },
  { action: "shell", resource: "git status *", effect: "allow" },
  { action: "shell", resource: "git push *", effect: "deny" },
  { action: "edit", resource: "packages/docs/*.mdx", effect: "allow" },
];
const V1_EQUIVALENT = {
  "*": "ask",
  read: { "*": "allow", "*.env": "deny" },
  bash: { "git status *": "allow", "git push *": "deny" },
  edit: { "packages/docs/*.mdx": "allow" },
};

// [permission as V2 names it, resource, what V2's docs say happens]
const VECTORS: Array<[string, string, "allow" | "ask" | "deny"]> = [
  ["shell", "git status", "allow"], // " *" also matches the command with no arguments
  ["shell", "git status --short", "allow"],
  ["shell", "git statusx", "ask"], // ... but not a longer word
  ["shell", "git push origin main", "deny"],
  ["shell", "rm -rf build", "ask"], // only the catch-all matches
  ["read", "src/index.ts", "allow"],
  ["read", "/work/app/.env", "deny"], // `*` matches `/`
  ["edit", "packages/docs/intro.mdx", "allow"],
  ["edit", "packages/docs/intro.md", "ask"],
  ["webfetch", "https://example.com", "ask"],
  ["subagent", "explore", "ask"],
  ["execute", "*", "ask"],
  ["github_create_issue", "*", "ask"],
];

describe("V2 permissions list", () => {
  const v2 = rulesFromV2(V2_DOC_RULES, { home });
  const v1 = rulesFromConfig(V1_EQUIVALENT, { home });

  it.each(VECTORS)("%s %j: %s, as V2 documents and as the V1 equivalent decides", (action, resource, expected) => {
    expect(evaluate(engineName(action), resource, v2).action).toBe(expected);
    expect(evaluate(engineName(action), resource, v1).action).toBe(expected);
  });

  it("asks when no rule matches at all", () => {
    expect(evaluate("bash", "ls", rulesFromV2([{ action: "read", resource: "*", effect: "allow" }], { home })).action).toBe("ask");
  });

  it("lets the last matching rule win, whatever its specificity", () => {
    const rules = rulesFromV2(
      [
        { action: "shell", resource: "git *", effect: "allow" },
        { action: "*", resource: "*", effect: "deny" },
      ],
      { home },
    );
    expect(evaluate("bash", "git log", rules).action).toBe("deny");
  });

  it("denies a call touching several resources when any is denied, and otherwise asks if any asks", async () => {
    const engine = new PermissionEngine({ bus: new Bus() });
    const ask = (patterns: string[]) =>
      engine.ask({ sessionID: "s", permission: "bash", patterns, always: [], metadata: {} }, v2).then(
        () => "allow",
        (error) => (error instanceof DeniedError ? "deny" : "error"),
      );
    expect(await ask(["git status", "git push origin"])).toBe("deny");
    expect(await ask(["git status", "git status -s"])).toBe("allow");
    const pending = ask(["git status", "make"]);
    expect(engine.pending().map((request) => request.patterns)).toEqual([["git status", "make"]]);
    engine.reply(engine.pending()[0]!.id, "once");
    expect(await pending).toBe("allow");
  });

  it("maps V2's names onto the engine's and back", () => {
    expect([engineName("shell"), engineName("subagent"), engineName("patch"), engineName("read"), engineName("mcp_x")]).toEqual([
      "bash",
      "task",
      "edit",
      "read",
      "mcp_x",
    ]);
    expect([v2Name("bash"), v2Name("task"), v2Name("edit")]).toEqual(["shell", "subagent", "edit"]);
    // A V1 map written with V2's names means the same.
    expect(evaluate("bash", "git push x", rulesFromConfig({ shell: { "git push *": "deny" } }, { home })).action).toBe("deny");
  });

  it("expands a leading ~ in resources and describes rules in V2's words", () => {
    const [rule] = rulesFromV2([{ action: "shell", resource: "~/bin/*", effect: "allow" }], { home });
    expect(rule).toMatchObject({ permission: "bash", pattern: "/home/me/bin/*", action: "allow" });
    expect(describeRule(rule!)).toBe('{ action: "shell", resource: "/home/me/bin/*", effect: "allow" }');
  });

  it.each([
    ["not a list", { action: "read" }, /^permissions must be a list of rules/],
    ["a bad effect", [{ action: "read", resource: "*", effect: "Allow" }], /^permissions\[0\]\.effect must be "allow", "ask" or "deny"/],
    ["a missing resource", [V2_DOC_RULES[0], { action: "read", effect: "allow" }], /^permissions\[1\]\.resource must be a string/],
    ["an unknown key", [{ action: "read", resource: "*", effect: "allow", efect: "deny" }], /^permissions\[0\]/],
    ["an empty action", [{ action: "", resource: "*", effect: "allow" }], /^permissions\[0\]\.action must not be empty/],
  ])("refuses %s with the JSON path of the problem", (_, value, message) => {
    expect(() => rulesFromV2(value, { home })).toThrow(message);
  });
});
