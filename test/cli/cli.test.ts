/** The workbench command, end to end: the real bin in a child process against real folders. */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");
let dataDir: string;
let globalDir: string;

function workbench(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const NOTE_TOOL = `
import { tool } from "@opencode-ai/plugin";
import z from "zod";
import { writeFile } from "node:fs/promises";
export default tool({
  description: "Writes a note after asking",
  args: { name: z.string(), text: z.string() },
  async execute(args, ctx) {
    await ctx.ask({ permission: "note", patterns: [args.name], always: ["*"], metadata: {} });
    return "noted " + args.name;
  },
});
export const big = tool({
  description: "Prints many lines",
  args: { lines: z.number() },
  async execute({ lines }) { return Array.from({ length: lines }, (_, i) => "line " + i).join("\\n"); },
});
`.replace('import { writeFile } from "node:fs/promises";\n', "");

async function folder(config: object = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wb-cli-"));
  await mkdir(join(dir, ".opencode/tool"), { recursive: true });
  await writeFile(join(dir, ".opencode/tool/note.ts"), NOTE_TOOL);
  await writeFile(join(dir, "opencode.json"), JSON.stringify(config));
  return dir;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "wb-cli-data-"));
  globalDir = await mkdtemp(join(tmpdir(), "wb-cli-global-"));
  await mkdir(join(globalDir, "tool"));
  await writeFile(
    join(globalDir, "tool", "everywhere.js"),
    'export default { description: "from the global folder", args: {}, async execute() { return "global tool ran"; } };',
  );
});

describe("workbench tool", () => {
  it("runs a tool and prints its output, exit 0; --yes answers the ask", async () => {
    const dir = await folder({ permission: { note: "ask" } });
    const result = workbench(["tool", "note", "--dir", dir, "--trust", "--yes", "--args", '{"name":"a","text":"t"}']);
    expect(result).toMatchObject({ code: 0, stdout: "noted a\n" });
  });

  it("rejects asks without --yes: exit 1, the reason on stderr", async () => {
    const dir = await folder({ permission: { note: "ask" } });
    const result = workbench(["tool", "note", "--dir", dir, "--trust", "--args", '{"name":"a","text":"t"}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rejected permission .* unless --yes is given/);
    // What was asked, so the person knows what --yes would allow.
    expect(result.stderr).toContain("(this call asked for note on a)");
  });

  it("applies opencode.json first: a denied pattern fails even with --yes", async () => {
    const dir = await folder({ permission: { note: { "*": "allow", "secret*": "deny" } } });
    expect(workbench(["tool", "note", "--dir", dir, "--trust", "--args", '{"name":"open","text":"t"}']).code).toBe(0);
    const denied = workbench(["tool", "note", "--dir", dir, "--trust", "--yes", "--args", '{"name":"secret-1","text":"t"}']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/specified a rule which prevents you/);
  });

  it("prints the whole record with --json, truncation included", async () => {
    const dir = await folder();
    const result = workbench(["tool", "note_big", "--dir", dir, "--trust", "--json", "--args", '{"lines":3000}']);
    expect(result.code).toBe(0);
    const call = JSON.parse(result.stdout) as { status: string; output: string; metadata: { truncated: boolean; outputPath: string } };
    expect(call.status).toBe("completed");
    expect(call.metadata.truncated).toBe(true);
    expect(call.output).toContain("...1000 lines truncated...");
    expect((await readFile(call.metadata.outputPath, "utf8")).split("\n")).toHaveLength(3000);
  });

  it("exits 2 on usage errors, with the usage", async () => {
    const dir = await folder();
    for (const args of [
      ["tool"],
      ["tool", "note", "--dir", dir, "--args", "{nope"],
      ["tool", "note"],
      ["frobnicate"],
      ["tool", "x", "--bogus"],
    ]) {
      const result = workbench(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/usage:/);
    }
    const unknown = workbench(["tool", "note", "--dir", dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no tool "note" here/);
    expect(unknown.stderr).toMatch(/pass --trust/);
  });

  it("--runtime embedded works on a copy and writes changes back", async () => {
    const dir = await folder();
    await writeFile(join(dir, "kept.txt"), "kept");
    const result = workbench([
      "tool",
      "note",
      "--dir",
      dir,
      "--trust",
      "--yes",
      "--runtime",
      "embedded",
      "--args",
      '{"name":"e","text":"t"}',
    ]);
    expect(result).toMatchObject({ code: 0, stdout: "noted e\n" });
    expect(await readFile(join(dir, "kept.txt"), "utf8")).toBe("kept");
  });

  it("--runtime embedded has python3, and what the program writes lands in the folder", async () => {
    const dir = await folder();
    await writeFile(join(dir, "data.txt"), "21");
    const command = `python3 -c 'print(int(open("data.txt").read()) * 2); open("out.txt", "w").write("from python")'`;
    const args = JSON.stringify({ command, description: "Run a python one-liner" });
    const result = workbench(["tool", "bash", "--dir", dir, "--yes", "--runtime", "embedded", "--args", args]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("42");
    expect(await readFile(join(dir, "out.txt"), "utf8")).toBe("from python");
  }, 90_000);
});

describe("workbench: the global config folder", () => {
  it("loads tools from the global folder too, in a trusted run", async () => {
    const dir = await folder();
    expect(workbench(["tool", "everywhere", "--dir", dir, "--trust"])).toMatchObject({ code: 0, stdout: "global tool ran\n" });
  });
});

describe("workbench calls", () => {
  it("runs calls in order in one session and prints a JSON line each, permission answers included", async () => {
    const dir = await folder({ permission: { note: { "*": "ask", "ok*": "allow" } } });
    const calls = [
      { tool: "note", args: { name: "ok-1", text: "x" } },
      { tool: "note", args: { name: "needs-ask", text: "x" } },
      { tool: "nope", args: {} },
      { tool: "note", args: { name: 3 } },
    ];
    const result = workbench(["calls", "-", "--dir", dir, "--trust"], JSON.stringify(calls));
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({
      tool: "note",
      state: "completed",
      output: "noted ok-1",
      permissions: [{ permission: "note", patterns: ["ok-1"], answer: "allow" }],
    });
    expect(lines[1]).toMatchObject({ state: "error", permissions: [{ answer: "reject" }] });
    expect(lines[2]).toMatchObject({ tool: "invalid", state: "completed" });
    expect(String(lines[2]!.output)).toMatch(/Unknown tool "nope". Available tools: .*note, note_big/);
    expect(lines[3]).toMatchObject({ state: "error" });
    expect(String(lines[3]!.error)).toMatch(/^The note tool was called with invalid arguments/);
    expect(result.code).toBe(1);
  });

  it("reads the list from a file and refuses one that is not a list", async () => {
    const dir = await folder();
    const file = join(dir, "calls.json");
    await writeFile(file, JSON.stringify([{ tool: "note_big", args: { lines: 2 } }]));
    expect(workbench(["calls", file, "--dir", dir, "--trust"])).toMatchObject({ code: 0 });
    await writeFile(file, "{}");
    expect(workbench(["calls", file, "--dir", dir]).code).toBe(2);
  });
});

describe("workbench permission check", () => {
  it("prints the decision and the rule that made it", async () => {
    const dir = await folder({ permission: { bash: { "*": "ask", "git *": "allow", "git push *": "deny" } } });
    expect(workbench(["permission", "check", "bash", "git push origin", "--dir", dir]).stdout).toBe(
      'deny\ndeny, by the config rule bash "git push *": "deny" (last matching rule wins)\n',
    );
    expect(workbench(["permission", "check", "bash", "git", "--dir", dir]).stdout).toMatch(/^allow\n/);
    expect(workbench(["permission", "check", "read", "/w/.env", "--dir", dir, "--agent", "build"]).stdout).toMatch(
      /^ask\nask, by the default rule read "\*\.env"/,
    );
    expect(workbench(["permission", "check", "edit", "a.ts", "--dir", dir, "--agent", "plan"]).stdout).toMatch(/^deny\n/);
    expect(workbench(["permission", "check", "edit", "a.ts", "--dir", dir, "--agent", "nobody"]).code).toBe(1);
  });

  it("holds back the folder's loosening rules until --trust, and says so", async () => {
    const dir = await folder({ permission: { external_directory: "allow" } });
    const untrusted = workbench(["permission", "check", "external_directory", "/srv/x", "--dir", dir]);
    expect(untrusted.stdout).toBe(
      'ask\nask, by the default rule external_directory "*": "ask" (last matching rule wins); the workspace rule external_directory "*": "allow" is ignored until you trust this workspace\n',
    );
    expect(untrusted.stderr).toContain(
      'note: 1 permission rule(s) of the workspace would loosen protection and are ignored until you trust this workspace (--trust): external_directory "*": "allow"',
    );
    expect(workbench(["permission", "check", "external_directory", "/srv/x", "--dir", dir, "--trust"]).stdout).toMatch(
      /^allow\nallow, by the config rule/,
    );
  });
});
