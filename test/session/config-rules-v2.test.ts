/**
 * Settings and "Always allow" on a V2 config: the rules are read as the `permissions` list, shown in V2's
 * words, and written back as that list (never as a V1 map beside it, which would make the file refused); a
 * V1 file keeps getting V1's map.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PageTools } from "../../src/page/page-tools.js";
import { readConfigRules, saveAlwaysToConfig, writeConfigRules } from "../../src/page/config-rules.js";
import { loadWorkspaceConfig } from "../../src/session/config/workspace-config.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

async function workspaceWith(config: string): Promise<EmbeddedRuntime> {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  await runtime.fs.writeFile(`${runtime.root}/opencode.json`, config);
  return runtime;
}

const fileText = async () => new TextDecoder().decode(await runtime!.fs.readFile(`${runtime!.root}/opencode.json`));

const V2_FILE = `{
  // the person's comment stays
  "permissions": [
    { "action": "*", "resource": "*", "effect": "ask" },
    { "action": "shell", "resource": "git status *", "effect": "allow" }
  ],
  "model": "anthropic/claude-sonnet-4-5"
}
`;

describe("contract: a V2 file's rules are edited and saved as V2's list", () => {
  it("reads the list in V2's words and says the shape", async () => {
    const rt = await workspaceWith(V2_FILE);
    expect(await readConfigRules(rt)).toMatchObject({
      shape: "v2",
      rules: [
        { permission: "*", pattern: "*", action: "ask" },
        { permission: "shell", pattern: "git status *", action: "allow" },
      ],
    });
  });

  it("writes edited rows back as the list, in order, keeping comments and other keys", async () => {
    const rt = await workspaceWith(V2_FILE);
    await writeConfigRules(rt, [
      { permission: "shell", pattern: "git push *", action: "deny" },
      { permission: "read", pattern: "*", action: "allow" },
      { permission: "shell", pattern: "git *", action: "allow" },
    ]);
    const text = await fileText();
    expect(text).toContain("// the person's comment stays");
    expect(text).not.toContain('"permission"');
    const { config } = await loadWorkspaceConfig(rt);
    expect(config.permissions).toEqual([
      { action: "shell", resource: "git push *", effect: "deny" },
      { action: "read", resource: "*", effect: "allow" },
      { action: "shell", resource: "git *", effect: "allow" },
    ]);
    expect(config.model).toBe("anthropic/claude-sonnet-4-5");
  });

  it("refuses a half-filled row and a bad effect, naming the row", async () => {
    const rt = await workspaceWith(V2_FILE);
    await expect(writeConfigRules(rt, [{ permission: "", pattern: "*", action: "ask" }])).rejects.toThrow(/rule 1 needs both an action/);
    expect(await fileText()).toBe(V2_FILE);
  });

  it("saves an Always allow at the end of the list in V2's names, where it wins", async () => {
    const rt = await workspaceWith(V2_FILE);
    await saveAlwaysToConfig(rt, { permission: "bash", always: ["npm test *"] });
    await saveAlwaysToConfig(rt, { permission: "task", always: ["explore"] });
    const { config } = await loadWorkspaceConfig(rt);
    expect(config.permissions?.slice(-2)).toEqual([
      { action: "shell", resource: "npm test *", effect: "allow" },
      { action: "subagent", resource: "explore", effect: "allow" },
    ]);
    expect(await fileText()).toContain("// the person's comment stays");
  });

  it("keeps a V1 file V1: an Always allow goes into its permission map", async () => {
    const rt = await workspaceWith('{ "permission": { "bash": "ask" } }');
    expect((await readConfigRules(rt)).shape).toBe("v1");
    await saveAlwaysToConfig(rt, { permission: "bash", always: ["npm test *"] });
    const { config } = await loadWorkspaceConfig(rt);
    expect(config.permission).toEqual({ bash: { "*": "ask", "npm test *": "allow" } });
    expect(config.permissions).toBeUndefined();
  });

  it("puts saved V2 rules in force at once: the next call follows them", async () => {
    const rt = await workspaceWith(V2_FILE);
    let page = await PageTools.open(rt, { trusted: true });
    ({ page } = await page.saveRules([{ permission: "shell", pattern: "rm *", action: "deny" }]));
    await rt.fs.writeFile(`${rt.root}/keep.txt`, "kept\n");
    const denied = await page.start("shell", { command: "rm keep.txt", description: "Removes" }).done;
    expect(denied.status).toBe("error");
    expect(new TextDecoder().decode(await rt.fs.readFile(`${rt.root}/keep.txt`))).toBe("kept\n");
    const layer = page.rulesInForce().find((candidate) => candidate.source === "config");
    expect(layer?.rules.at(-1)).toMatchObject({ permission: "bash", pattern: "rm *", action: "deny", written: "v2" });
  });
});
