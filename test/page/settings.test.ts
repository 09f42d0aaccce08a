/** The settings panel's session layer: editing opencode.json's rules, explaining decisions, trusting the workspace. */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PageTools } from "../../src/page/page-tools.js";
import { permissionRulesOf, permissionSection, savePermissionRules, type ConfigRule } from "../../src/session/config/workspace-config.js";
import { customIds } from "../support/tool-session.js";
import { inThreadSandboxes } from "../support/in-thread-sandbox.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

async function workspaceWith(files: Record<string, string>): Promise<EmbeddedRuntime> {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  for (const [path, text] of Object.entries(files)) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  return runtime;
}

const text = async (path: string) => new TextDecoder().decode(await runtime!.fs.readFile(`${runtime!.root}/${path}`));

async function settle(page: PageTools, tool: string, args: Record<string, unknown>) {
  return page.start(tool, args).done;
}

const HELLO_TOOL = `import { tool } from "@opencode-ai/plugin";
export default tool({
  description: "Greets someone",
  args: { name: tool.schema.string() },
  async execute({ name }) { return "hello, " + name; },
});
`;

describe("contract: saving the permission section keeps the rest of the file", () => {
  it("replaces only `permission`, keeping other keys, their order and comments outside the section", async () => {
    const rt = await workspaceWith({
      "opencode.jsonc":
        '{\n  // model settings stay\n  "model": "x/y",\n  "permission": { "edit": "ask" },\n  /* after */\n  "tools": { "webfetch": false },\n}\n',
    });
    const path = await savePermissionRules(rt, [
      { permission: "bash", pattern: "rm *", action: "deny" },
      { permission: "edit", pattern: "*", action: "allow" },
    ]);
    expect(path).toBe(`${rt.root}/opencode.jsonc`);
    const saved = await text("opencode.jsonc");
    expect(saved).toContain("// model settings stay");
    expect(saved).toContain("/* after */");
    expect(saved.indexOf('"model"')).toBeLessThan(saved.indexOf('"permission"'));
    expect(saved.indexOf('"permission"')).toBeLessThan(saved.indexOf('"tools"'));
    expect(saved).toContain('"webfetch": false');
    expect(saved).not.toContain('"edit": "ask"');
    const page = await PageTools.open(rt);
    expect(page.explain("bash", "rm -rf build").action).toBe("deny");
    expect(page.explain("edit", "a.ts").action).toBe("allow");
  });

  it("creates opencode.json when there is none, and removes the section when no rule is left", async () => {
    const rt = await workspaceWith({});
    await savePermissionRules(rt, [{ permission: "read", pattern: "*.env", action: "deny" }]);
    expect(JSON.parse(await text("opencode.json"))).toEqual({ permission: { read: { "*.env": "deny" } } });
    await savePermissionRules(rt, []);
    expect(JSON.parse(await text("opencode.json"))).toEqual({});
  });

  it("reads the section back as written: order kept, `~` not expanded, a bare action as * *", async () => {
    const rules = permissionRulesOf({ permission: { "*": "ask", read: { "~/notes/*": "allow", "*": "deny" }, bash: "allow" } });
    expect(rules).toEqual([
      { permission: "*", pattern: "*", action: "ask" },
      { permission: "read", pattern: "~/notes/*", action: "allow" },
      { permission: "read", pattern: "*", action: "deny" },
      { permission: "bash", pattern: "*", action: "allow" },
    ]);
    expect(permissionSection(rules)).toEqual({ "*": "ask", read: { "~/notes/*": "allow", "*": "deny" }, bash: "allow" });
    expect(permissionRulesOf({ permission: "deny" })).toEqual([{ permission: "*", pattern: "*", action: "deny" }]);
  });

  it("keeps a permission's patterns together at its first place, since the file cannot interleave them", () => {
    const rules: ConfigRule[] = [
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "edit", pattern: "*", action: "allow" },
      { permission: "bash", pattern: "git *", action: "allow" },
    ];
    expect(Object.entries(permissionSection(rules))).toEqual([
      ["bash", { "*": "ask", "git *": "allow" }],
      ["edit", "allow"],
    ]);
    // The same permission and pattern twice: the later one decided, so it is the one kept, in its later place.
    const repeated = permissionSection([
      { permission: "bash", pattern: "rm *", action: "deny" },
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "rm *", action: "allow" },
    ]);
    expect(Object.entries(repeated.bash as Record<string, string>)).toEqual([
      ["*", "ask"],
      ["rm *", "allow"],
    ]);
  });

  it("says what is missing in a half-filled rule, and refuses a file that does not parse", async () => {
    expect(() => permissionSection([{ permission: "", pattern: "*", action: "deny" }])).toThrow(/rule 1 needs both a permission/);
    expect(() => permissionSection([{ permission: "bash", pattern: "*", action: "Deny" as "deny" }])).toThrow(/"allow", "ask" or "deny"/);
    const rt = await workspaceWith({ "opencode.json": '{ "permission": { "bash": "ask" ' });
    await expect(savePermissionRules(rt, [])).rejects.toThrow(/not a valid JSON object.*fix the file/);
    expect(await text("opencode.json")).toBe('{ "permission": { "bash": "ask" ');
  });
});

describe("contract: the page edits rules, explains them and keeps its transcript across a reopen", () => {
  it("saveRules puts the new rules in force at once and the next call is denied", async () => {
    const rt = await workspaceWith({ "keep.txt": "kept\n" });
    let page = await PageTools.open(rt);
    expect(await page.configRules()).toEqual({ rules: [], shape: "v1" });
    const first = await settle(page, "bash", { command: "echo before", description: "Echo" });
    expect(first.status).toBe("completed");
    ({ page } = await page.saveRules([{ permission: "bash", pattern: "rm *", action: "deny" }]));
    expect((await page.configRules()).rules).toEqual([{ permission: "bash", pattern: "rm *", action: "deny" }]);
    const denied = await settle(page, "bash", { command: "rm keep.txt", description: "Removes" });
    expect(denied.status).toBe("error");
    expect(denied.error).toContain("prevents you from using this specific tool call");
    expect(await text("keep.txt")).toBe("kept\n");
    expect(page.calls.map((call) => call.id)).toEqual([first.id, denied.id]);
  });

  it("a reopen (rules saved, trust changed) keeps what the session has read: its next edit of that file lands", async () => {
    const rt = await workspaceWith({ "notes.txt": "first\n" });
    let page = await PageTools.open(rt);
    expect((await settle(page, "read", { filePath: "notes.txt" })).status).toBe("completed");
    ({ page } = await page.saveRules([{ permission: "webfetch", pattern: "*", action: "deny" }]));
    const edited = await settle(page, "edit", { filePath: "notes.txt", oldString: "first", newString: "second" });
    expect(edited.error).toBeUndefined();
    expect(await text("notes.txt")).toBe("second\n");
    page = await page.reopen({ trusted: true });
    const again = await settle(page, "edit", { filePath: "notes.txt", oldString: "second", newString: "third" });
    expect(again.error).toBeUndefined();
    expect(await text("notes.txt")).toBe("third\n");
    // A file never read is still refused after the reopen.
    await rt.fs.writeFile(`${rt.root}/unread.txt`, "x\n");
    const unread = await settle(page, "edit", { filePath: "unread.txt", oldString: "x", newString: "y" });
    expect(unread.error).toContain("You must read file");
  });

  it("explains with the deciding rule and its source, or the default when nothing matches", async () => {
    const rt = await workspaceWith({ "opencode.json": '{"permission":{"bash":{"*":"ask","git status*":"allow"}}}' });
    const page = await PageTools.open(rt);
    expect(page.explain("bash", "git status --short")).toMatchObject({
      action: "allow",
      source: "config",
      rule: { pattern: "git status*" },
    });
    expect(page.explain("read", "app/.env")).toMatchObject({ action: "ask", source: "default", rule: { pattern: "*.env" } });
    const sources = page.rulesInForce().map((layer) => layer.source);
    expect(sources.slice(0, 3)).toEqual(["default", "agent", "config"]);
    expect(
      page
        .rulesInForce()
        .find((layer) => layer.source === "config")
        ?.rules.map((rule) => rule.pattern),
    ).toEqual(["*", "git status*"]);
  });

  it("says a permission nothing asks for is unknown, and lists the known ones (a registered tool's id too)", async () => {
    const rt = await workspaceWith({ "opencode.json": '{"permission":{"*":"allow"}}' });
    const page = await PageTools.open(rt);
    const nonsense = page.explain("nonsense", "x");
    expect(nonsense.known).toBeDefined();
    expect(nonsense.known).toEqual(expect.arrayContaining(["bash", "edit", "read", "external_directory", "webfetch", "doom_loop"]));
    expect(nonsense.sentence).toContain('"nonsense" is not a permission');
    expect(nonsense.sentence).toContain("Known permissions: read, edit,");
    // Known names, and patterns that cover one, are explained as before.
    expect(page.explain("bash", "ls")).not.toHaveProperty("known");
    expect(page.explain("ext*", "/srv")).not.toHaveProperty("known");
    expect(page.explain("todowrite", "*")).not.toHaveProperty("known");
    expect(page.explain("bsh*", "ls").known).toBeDefined();
  });

  it("an always answer saved to the config outlives a new session; approvals also survive a reopen", async () => {
    const rt = await workspaceWith({ "opencode.json": '{\n  "permission": { "bash": "ask" }\n}\n' });
    const page = await PageTools.open(rt);
    const { done } = page.start("bash", { command: "echo hi", description: "Says hi" });
    while (page.pending().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const [request] = page.pending();
    page.reply(request!.id, "always");
    await page.saveAlways(request!);
    await done;
    expect(JSON.parse(await text("opencode.json"))).toEqual({ permission: { bash: { "*": "ask", "echo *": "allow" } } });
    const reopened = await page.reopen();
    expect(reopened.rulesInForce().at(-1)).toMatchObject({ source: "approval" });
    const fresh = await PageTools.open(rt);
    expect(fresh.explain("bash", "echo again")).toMatchObject({ action: "allow", source: "config" });
    expect(fresh.explain("bash", "ls")).toMatchObject({ action: "ask", source: "config" });
  });

  it("refuses to reopen while a call waits for permission", async () => {
    const rt = await workspaceWith({ "opencode.json": '{"permission":{"bash":"ask"}}' });
    const page = await PageTools.open(rt);
    const { done } = page.start("bash", { command: "echo hi", description: "Says hi" });
    while (page.pending().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(page.reopen()).rejects.toThrow(/still running or waiting for permission/);
    page.reply(page.pending()[0]!.id, "reject");
    await done;
    await expect(page.reopen()).resolves.toBeInstanceOf(PageTools);
  });
});

describe("security: workspace code runs only once trusted", () => {
  it("lists a custom tool without loading it; trusting reopens with the tool registered and runnable", async () => {
    const rt = await workspaceWith({ ".opencode/tool/hello.ts": HELLO_TOOL, ".opencode/tool/broken.ts": "export default 1 +;\n" });
    const sandboxes = inThreadSandboxes();
    const page = await PageTools.open(rt, { codeSandbox: sandboxes.open });
    expect(page.trusted).toBe(false);
    expect(page.untrustedFiles).toEqual([`${rt.root}/.opencode/tool/broken.ts`, `${rt.root}/.opencode/tool/hello.ts`]);
    expect(customIds((await page.tools()).map((tool) => tool.id))).toEqual([]);
    const trusted = await page.reopen({ trusted: true });
    expect(trusted.trusted).toBe(true);
    expect(trusted.untrustedFiles).toEqual([]);
    expect(customIds((await trusted.tools()).map((tool) => tool.id))).toEqual(["hello"]);
    expect(trusted.problems.map((problem) => problem.file)).toEqual([`${rt.root}/.opencode/tool/broken.ts`]);
    const call = await settle(trusted, "hello", { name: "Ada" });
    expect(call).toMatchObject({ status: "completed", output: "hello, Ada" });
    // The page ran it in a sandbox, not in its own thread.
    expect(sandboxes.counts.opened).toBe(1);
  });

  it("shows the workspace's loosening rules as ignored until trusted; trusting puts them in force", async () => {
    const rt = await workspaceWith({
      "opencode.json": JSON.stringify({ permission: { external_directory: { "/srv/*": "allow" }, bash: { "rm *": "deny" } } }),
    });
    const page = await PageTools.open(rt);
    const layers = page.rulesInForce();
    expect(layers.at(-1)).toEqual({
      source: "config",
      ignored: "ignored until you trust this workspace",
      rules: [{ permission: "external_directory", pattern: "/srv/*", action: "allow", source: "config" }],
    });
    expect(layers.slice(0, -1).flatMap((layer) => layer.rules)).toContainEqual({
      permission: "bash",
      pattern: "rm *",
      action: "deny",
      source: "config",
    });
    const held = page.explain("external_directory", "/srv/x");
    expect(held.action).toBe("ask");
    expect(held.sentence).toContain('the workspace rule external_directory "/srv/*": "allow" is ignored until you trust this workspace');
    const trusted = await page.reopen({ trusted: true });
    expect(trusted.explain("external_directory", "/srv/x")).toMatchObject({ action: "allow", source: "config" });
    expect(trusted.rulesInForce().some((layer) => layer.ignored !== undefined)).toBe(false);
  });
});
