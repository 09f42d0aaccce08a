import { describe, expect, it } from "vitest";
import { BUILTIN_PERMISSIONS, isKnownPermission, knownPermissions } from "../../../src/tools/permission/known.js";

describe("known permissions", () => {
  it("are OpenCode's keys plus each tool's own, editing tools counted as edit", () => {
    const known = knownPermissions(["bash", "write", "apply_patch", "hello", "invalid"]);
    expect(known).not.toContain("invalid");
    expect(known.slice(0, BUILTIN_PERMISSIONS.length)).toEqual([...BUILTIN_PERMISSIONS]);
    expect(known).toContain("hello");
    expect(known.filter((name) => name === "edit")).toHaveLength(1);
    expect(known).not.toContain("write");
  });

  it("a name is known when listed; a wildcard when it covers a listed name", () => {
    const known = knownPermissions([]);
    expect(isKnownPermission("nonsense", known)).toBe(false);
    expect(isKnownPermission("Bash", known)).toBe(false);
    expect(isKnownPermission("bash", known)).toBe(true);
    expect(isKnownPermission("*", known)).toBe(true);
    expect(isKnownPermission("todo*", known)).toBe(true);
    expect(isKnownPermission("zz*", known)).toBe(false);
  });
});
