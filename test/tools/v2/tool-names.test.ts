/**
 * OpenCode V2's tool names: a V2 config (or `workbench.toolNames: "v2"`) offers the model shell, subagent and
 * patch instead of bash, task and apply_patch, never both; they run the same code under the same permissions.
 */
import { describe, expect, it } from "vitest";
import { toolNamesOf } from "../../../src/session/config/tool-names.js";
import { sessionWith } from "../../support/tool-session.js";

const RENAMED = ["bash", "task", "apply_patch", "shell", "subagent", "patch"];
const offered = (ids: string[]) => ids.filter((id) => RENAMED.includes(id)).sort();

describe("which names a config asks for", () => {
  it.each([
    [{}, "v1"],
    [{ permission: { bash: "ask" } }, "v1"],
    [{ permissions: [] }, "v2"],
    [{ agents: {} }, "v2"],
    [{ permissions: [], workbench: { toolNames: "v1" } }, "v1"],
    [{ permission: {}, workbench: { toolNames: "v2" } }, "v2"],
  ])("%j: %s", (config, expected) => {
    expect(toolNamesOf(config as Record<string, unknown>)).toBe(expected);
  });
});

describe("contract: the registry offers one set of names", () => {
  it("offers V1's names to a V1 config and V2's to a V2 config", async () => {
    const v1 = await sessionWith({ "opencode.json": "{}" });
    const v2 = await sessionWith({ "opencode.json": JSON.stringify({ permissions: [{ action: "*", resource: "*", effect: "allow" }] }) });
    try {
      expect(offered(v1.session.registry.ids())).toEqual(["apply_patch", "bash", "task"]);
      expect(offered(v2.session.registry.ids())).toEqual(["patch", "shell", "subagent"]);
    } finally {
      await Promise.all([v1.dispose(), v2.dispose()]);
    }
  });

  it("refuses a bad toolNames value at its path", async () => {
    await expect(sessionWith({ "opencode.json": JSON.stringify({ workbench: { toolNames: "v3" } }) })).rejects.toThrow(
      /workbench\.toolNames: must be "v1" \(bash, task, apply_patch\) or "v2" \(shell, subagent, patch\)/,
    );
  });

  it("runs shell as bash runs it, asking the bash permission a V2 shell rule decides", async () => {
    const { session, dispose } = await sessionWith({
      "opencode.json": JSON.stringify({
        permissions: [
          { action: "shell", resource: "*", effect: "allow" },
          { action: "shell", resource: "rm *", effect: "deny" },
        ],
      }),
      "keep.txt": "kept\n",
    });
    try {
      const echo = await session.run("shell", { command: "echo hello; echo oops >&2; exit 3" });
      expect(echo.status).toBe("completed");
      expect(echo.output).toBe("hello\noops\n");
      expect(echo.metadata).toMatchObject({ exit: 3 });
      const denied = await session.run("shell", { command: "rm keep.txt" });
      expect(denied.status).toBe("error");
      expect(new TextDecoder().decode(await session.runtime.fs.readFile(`${session.runtime.root}/keep.txt`))).toBe("kept\n");
      const invalid = await session.run("shell", { command: "ls", timeout: -1 });
      expect(invalid.status).toBe("error");
      expect(invalid.error).toContain("The shell tool was called with invalid arguments");
    } finally {
      await dispose();
    }
  });

  it("applies a patch under V2's name, asking edit", async () => {
    const { session, dispose } = await sessionWith({
      "opencode.json": JSON.stringify({ permissions: [{ action: "*", resource: "*", effect: "allow" }] }),
      "a.txt": "one\ntwo\n",
    });
    try {
      const patchText = "*** Begin Patch\n*** Update File: a.txt\n one\n-two\n+three\n*** End Patch";
      const call = await session.run("patch", { patchText });
      expect(call.status).toBe("completed");
      expect(new TextDecoder().decode(await session.runtime.fs.readFile(`${session.runtime.root}/a.txt`))).toBe("one\nthree\n");
      expect(call.permissions.map((asked) => asked.permission)).toContain("edit");
    } finally {
      await dispose();
    }
  });
});
