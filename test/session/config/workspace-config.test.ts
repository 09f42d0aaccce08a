/** opencode.json: read with order and comments kept, explained, and approvals saved back into it. */
import { afterEach, describe, expect, it } from "vitest";
import { sessionWith } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe("workspace config", () => {
  it("applies rules in key order: the last matching rule wins", async () => {
    const s = await sessionWith({
      "opencode.jsonc":
        '{\n  // secrets stay put\n  "permission": { "edit": { "*": "allow", "*.env": "deny" }, "bash": { "rm *": "deny", "*": "ask" } },\n}\n',
    });
    dispose = s.dispose;
    expect(s.session.explain("edit", "src/.env").action).toBe("deny");
    expect(s.session.explain("edit", "src/a.ts").action).toBe("allow");
    // "*" comes after "rm *", so it wins for rm too.
    expect(s.session.explain("bash", "rm -rf /").action).toBe("ask");
    expect(s.session.explain("edit", "src/.env").sentence).toBe('deny, by the config rule edit "*.env": "deny" (last matching rule wins)');
  });

  it("turns legacy tool switches into rules, every editing tool into edit", async () => {
    const s = await sessionWith({ "opencode.json": JSON.stringify({ tools: { write: false, bash: true } }) });
    dispose = s.dispose;
    expect(s.session.explain("edit", "a.ts").action).toBe("deny");
  });

  it("says where a broken config is wrong", async () => {
    await expect(sessionWith({ "opencode.json": '{\n  "permission": {\n    "edit": "allow"\n    "bash": "ask"\n  }\n}' })).rejects.toThrow(
      /opencode\.json is not valid JSON: CommaExpected at line 4/,
    );
    await expect(sessionWith({ "opencode.json": '{"permission": {"edit": "yes"}}' })).rejects.toThrow(/edit/);
  });

  it("saves approvals into the config after the rules there, keeping comments", async () => {
    const s = await sessionWith({ "opencode.jsonc": '{\n  // keep me\n  "permission": { "bash": "ask" }\n}\n' });
    dispose = s.dispose;
    s.session.permissions.loadApprovals([{ permission: "bash", pattern: "git log *", action: "allow", source: "approval" }]);
    const path = await s.session.saveApprovals();
    const text = new TextDecoder().decode(await s.runtime.fs.readFile(path));
    expect(text).toContain("// keep me");
    const reopened = await sessionWith({ "opencode.jsonc": text });
    expect(reopened.session.explain("bash", "git log --oneline").action).toBe("allow");
    expect(reopened.session.explain("bash", "git push").action).toBe("ask");
    await reopened.dispose();
  });
});
