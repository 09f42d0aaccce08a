import { describe, expect, it } from "vitest";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { disabledTools, permissionKeyOf } from "../../../src/tools/permission/disabled.js";
import type { Ruleset } from "../../../src/tools/permission/types.js";

const config = (value: unknown): Ruleset => rulesFromConfig(value, { home: "/home/me" });
const TOOLS = ["bash", "read", "edit", "write", "multiedit", "apply_patch", "patch", "glob", "grep", "webfetch", "mcp_github"];

describe("disabledTools", () => {
  it("hides every file-writing tool, apply_patch included, when edit is denied", () => {
    expect(disabledTools(TOOLS, config({ "*": "allow", edit: "deny" }))).toEqual(
      new Set(["edit", "write", "multiedit", "apply_patch", "patch"]),
    );
  });

  it("keeps them when a later rule allows some edit pattern", () => {
    const rules = config({ "*": "allow", edit: { "*": "deny", "docs/*": "allow" } });
    expect(disabledTools(TOOLS, rules)).toEqual(new Set());
  });

  it("hides them again when a blanket deny comes after the specific allow", () => {
    const rules = [...config({ edit: { "docs/*": "allow" } }), ...config({ edit: "deny" })];
    expect(disabledTools(["write", "apply_patch"], rules)).toEqual(new Set(["write", "apply_patch"]));
  });

  it("hides everything under a bare deny, and nothing under allow or ask", () => {
    expect(disabledTools(TOOLS, config("deny"))).toEqual(new Set(TOOLS));
    expect(disabledTools(TOOLS, config("allow"))).toEqual(new Set());
    expect(disabledTools(TOOLS, config("ask"))).toEqual(new Set());
  });

  it("does not hide a tool whose last rule denies only some patterns", () => {
    expect(disabledTools(["bash"], config({ bash: { "rm *": "deny" } }))).toEqual(new Set());
  });

  it("does not hide a tool no rule mentions", () => {
    expect(disabledTools(["bash"], [])).toEqual(new Set());
    expect(disabledTools(["bash"], config({ edit: "deny" }))).toEqual(new Set());
  });

  it("matches permission names as wildcards (the explore agent's '*': deny then allow list)", () => {
    const rules = config({ "*": "deny", grep: "allow", read: "allow" });
    expect(disabledTools(["grep", "read", "bash", "mcp_github"], rules)).toEqual(new Set(["bash", "mcp_github"]));
    expect(disabledTools(["mcp_github", "mcp_slack", "bash"], config({ "mcp_*": "deny" }))).toEqual(new Set(["mcp_github", "mcp_slack"]));
  });

  it("maps only the file-writing tools to edit", () => {
    expect(["edit", "write", "multiedit", "apply_patch", "patch"].map(permissionKeyOf)).toEqual(Array(5).fill("edit"));
    expect(["read", "bash", "todowrite", "editor"].map(permissionKeyOf)).toEqual(["read", "bash", "todowrite", "editor"]);
  });
});
