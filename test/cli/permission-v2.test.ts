/**
 * `workbench permission check` on OpenCode V2 configs, through the real bin: V2's documented example decides
 * as V2's docs say and as the same intent written as a V1 map decides; a file with both shapes is refused
 * saying which wins; a whole V2 config from V2's docs loads with no complaint; an untrusted folder's V2
 * rules are held back like its V1 rules.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runWorkbench } from "../support/workbench-bin.js";

let env: Record<string, string>;

beforeAll(async () => {
  env = {
    WORKBENCH_DATA_DIR: await mkdtemp(join(tmpdir(), "wb-v2-data-")),
    WORKBENCH_GLOBAL_CONFIG: await mkdtemp(join(tmpdir(), "wb-v2-global-")),
  };
});

async function folder(file: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wb-v2-"));
  await writeFile(join(dir, file), text);
  return dir;
}

const check = (dir: string, permission: string, pattern: string, ...more: string[]) =>
  runWorkbench(["permission", "check", permission, pattern, "--dir", dir, ...more], { env });

const V2_DOC = {
  permissions: [
    { action: "*", resource: "*", effect: "ask" },
    { action: "read", resource: "*", effect: "allow" },
    { action: "read", resource: "*.env", effect: "deny" },
    { action: "shell", resource: "git status *", effect: "allow" },
    { action: "shell", resource: "git push *", effect: "deny" },
    { action: "edit", resource: "packages/docs/*.mdx", effect: "allow" },
  ],
};
const V1_SAME = {
  permission: {
    "*": "ask",
    read: { "*": "allow", "*.env": "deny" },
    bash: { "git status *": "allow", "git push *": "deny" },
    edit: { "packages/docs/*.mdx": "allow" },
  },
};

describe("workbench permission check with a V2 permissions list", () => {
  // [V2 action, V1 permission, resource, V2's documented answer]
  it.each([
    ["shell", "bash", "git status", "allow"],
    ["shell", "bash", "git push origin main", "deny"],
    ["read", "read", "/srv/app/.env", "deny"],
    ["subagent", "task", "explore", "ask"],
  ])("%s %j decides as V2 documents and as its V1 equivalent", async (v2Action, v1Permission, resource, expected) => {
    const v2 = await folder("opencode.json", JSON.stringify(V2_DOC));
    const v1 = await folder("opencode.json", JSON.stringify(V1_SAME));
    const [byV2, byV1] = await Promise.all([check(v2, v2Action, resource, "--trust"), check(v1, v1Permission, resource, "--trust")]);
    expect(byV2.stdout.split("\n")[0]).toBe(expected);
    expect(byV1.stdout.split("\n")[0]).toBe(expected);
    // The deciding rule is quoted in the words of the file it came from.
    if (expected !== "ask") expect(byV2.stdout).toContain("{ action: ");
  });

  it("refuses a file with both shapes, saying which each OpenCode line follows", async () => {
    const dir = await folder("opencode.json", JSON.stringify({ ...V1_SAME, ...V2_DOC }));
    const result = await check(dir, "bash", "ls");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("permission (OpenCode V1's map) and permissions (V2's ordered list) are both set");
    expect(result.stderr).toContain("OpenCode V2 follows only permissions and V1 only permission");
  });

  it("points at the bad entry of a V2 list by its JSON path", async () => {
    const dir = await folder(
      "opencode.json",
      JSON.stringify({ permissions: [V2_DOC.permissions[0], { action: "shell", resource: "*", effect: "yes" }] }),
    );
    const result = await check(dir, "bash", "ls");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('permissions[1].effect: must be "allow", "ask" or "deny"');
  });

  it("loads a whole V2 config from V2's docs with no error, its agents' V2 lists and fields included", async () => {
    const text = await readFile(join(import.meta.dirname, "../fixtures/v2/opencode.jsonc"), "utf8");
    const dir = await folder("opencode.jsonc", text);
    const shell = await check(dir, "shell", "git status", "--trust");
    expect(shell).toMatchObject({ code: 0, stderr: "" });
    expect(shell.stdout).toMatch(/^allow\n/);
    const reviewer = await check(dir, "edit", "src/a.ts", "--trust", "--agent", "reviewer");
    expect(reviewer).toMatchObject({ code: 0, stderr: "" });
    expect(reviewer.stdout).toBe(
      'deny\ndeny, by the config rule { action: "edit", resource: "*", effect: "deny" } (last matching rule wins)\n',
    );
  });

  it("holds back an untrusted folder's loosening V2 rules, top-level and per agent", async () => {
    const dir = await folder(
      "opencode.json",
      JSON.stringify({
        permissions: [{ action: "external_directory", resource: "*", effect: "allow" }],
        agents: { plan: { permissions: [{ action: "edit", resource: "*", effect: "allow" }] } },
      }),
    );
    expect((await check(dir, "external_directory", "/etc/x")).stdout).toMatch(/^ask\n/);
    expect((await check(dir, "edit", "src/a.ts", "--agent", "plan")).stdout).toMatch(/^deny\n/);
    expect((await check(dir, "external_directory", "/etc/x", "--trust")).stdout).toMatch(/^allow\n/);
    expect((await check(dir, "edit", "src/a.ts", "--agent", "plan", "--trust")).stdout).toMatch(/^allow\n/);
  });

  it("holds back an untrusted folder's loosening V1 rule written with a V2 name", async () => {
    // The explore agent may start no subagent; `subagent` here is the engine's `task`, and must be judged as such.
    const dir = await folder("opencode.json", JSON.stringify({ agent: { explore: { permission: { subagent: "allow" } } } }));
    expect((await check(dir, "task", "general", "--agent", "explore")).stdout).toMatch(/^deny\n/);
    expect((await check(dir, "subagent", "general", "--agent", "explore", "--trust")).stdout).toMatch(/^allow\n/);
  });
});
