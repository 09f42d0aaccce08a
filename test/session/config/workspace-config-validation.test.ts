/**
 * Issue 15, item 14: opencode.json is checked whole against one schema and every problem is named at its
 * exact path; a folder or a dangling link in its place says what it is; read refuses arguments that used to
 * slip through (`offset: true`, `filePath: ""`, a NUL). On both runtimes, with the sentinel outside.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../../src/runtime/types.js";
import { configProblems, loadWorkspaceConfig, WorkspaceConfigError } from "../../../src/session/config/workspace-config.js";
import { plantSentinel, type Sentinel } from "../../security/sentinel.js";
import { fileBackends, sessionOn } from "../../support/tool-session.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("configProblems: every problem, each at its path", () => {
  it("names wrong types at the top level", () => {
    expect(configProblems({ tools: "x" })).toEqual([
      { path: "tools", message: 'must be an object of tool names to true or false, e.g. { "bash": false }' },
    ]);
    expect(configProblems({ agent: 5 })).toEqual([{ path: "agent", message: "must be an object of agent names to their settings" }]);
    expect(configProblems(null)).toEqual([{ path: "(top level)", message: 'must be a JSON object ({ "permission": ... }), not null' }]);
    expect(configProblems([1])).toEqual([{ path: "(top level)", message: 'must be a JSON object ({ "permission": ... }), not an array' }]);
  });

  it("lists all problems of a file, nested ones with their full path", () => {
    const problems = configProblems({
      permission: { bash: { "rm *": "nope", "ls *": "allow" }, edit: 3 },
      tools: { write: "no" },
      provider: { openai: { options: { timeout: -1 } } },
      experimental: { batch_tool: "yes" },
      model: "gpt-5",
      instructions: "CONTRIBUTING.md",
      default_agent: 1,
      some_future_key: { kept: true },
    });
    expect(problems.map((problem) => problem.path).sort()).toEqual(
      [
        'permission.bash["rm *"]',
        "permission.edit",
        "tools.write",
        "provider.openai.options.timeout",
        "experimental.batch_tool",
        "model",
        "instructions",
        "default_agent",
      ].sort(),
    );
    expect(problems.find((problem) => problem.path === 'permission.bash["rm *"]')?.message).toBe(
      'must be "allow", "ask" or "deny", got "nope"',
    );
    expect(problems.find((problem) => problem.path === "model")?.message).toBe('must be "provider/model", for example "openai/gpt-5"');
  });

  it("leaves an agent entry's own problems to the agent loader unless asked for all", () => {
    const config = { agent: { review: { temperature: "hot", permission: { bash: "yes" } } } };
    expect(configProblems(config)).toEqual([]);
    expect(configProblems(config, "all").map((problem) => problem.path)).toEqual([
      "agent.review.temperature",
      "agent.review.permission.bash",
    ]);
  });

  it("accepts a correct file with keys it does not know", () => {
    expect(
      configProblems({
        $schema: "https://opencode.ai/config.json",
        permission: { "*": "ask", bash: { "git *": "allow" } },
        tools: { bash: true },
        agent: { review: { mode: "subagent", model: "anthropic/claude-sonnet-4-5" } },
        provider: { local: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:1/v1" }, models: { m: {} } } },
        theme: "opencode",
      }),
    ).toEqual([]);
  });
});

describe.each(fileBackends)("opencode.json and read's arguments on %s", (backend) => {
  async function open(files: Record<string, string> = {}) {
    const s = await sessionOn(backend, files);
    cleanups.push(s.dispose);
    const sentinel = await plantSentinel(s.runtime);
    cleanups.unshift(sentinel.dispose);
    return { ...s, sentinel };
  }
  async function held(sentinel: Sentinel, text?: string) {
    sentinel.assertNotLeaked(text);
    await sentinel.assertUntouched();
  }
  const loadError = (runtime: Runtime) =>
    loadWorkspaceConfig(runtime).then(
      () => undefined,
      (error: unknown) => error as Error,
    );

  it("a file with wrong types is refused with every path, not accepted", async () => {
    const { runtime, sentinel } = await open();
    await runtime.fs.writeFile(
      `${runtime.root}/opencode.json`,
      JSON.stringify({ tools: "x", agent: 5, permission: { read: { "*.key": "never" } } }),
    );
    const error = await loadError(runtime);
    expect(error).toBeInstanceOf(WorkspaceConfigError);
    expect(error!.message).toContain(`${runtime.root}/opencode.json has 3 problems: `);
    expect(error!.message).toContain('tools: must be an object of tool names to true or false, e.g. { "bash": false }');
    expect(error!.message).toContain("agent: must be an object of agent names to their settings");
    expect(error!.message).toContain('permission.read["*.key"]: must be "allow", "ask" or "deny", got "never"');
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, "null");
    expect((await loadError(runtime))!.message).toContain('(top level): must be a JSON object ({ "permission": ... }), not null');
    await held(sentinel, error!.message);
  });

  it("a folder named opencode.json, or a dangling link, says what it is", async () => {
    const { runtime, sentinel } = await open();
    await runtime.fs.mkdir(`${runtime.root}/opencode.json`, { recursive: true });
    const folder = await loadError(runtime);
    expect(folder!.message).toBe(
      `${runtime.root}/opencode.json is a folder, not a file: the workspace config must be a JSON file. Rename or remove the folder.`,
    );
    expect(folder!.message).not.toContain("EISDIR");
    await runtime.fs.rm(`${runtime.root}/opencode.json`, { recursive: true });
    await runtime.fs.symlink(`${runtime.root}/gone.json`, `${runtime.root}/opencode.json`);
    const dangling = await loadWorkspaceConfig(runtime, { trusted: true }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(dangling!.message).toContain("is a link to a file that does not exist");
    await held(sentinel);
  });

  it("read: offset must be a whole number (true was line 2), a numeric string still counts", async () => {
    const { session, sentinel } = await open({ "n.txt": "one\ntwo\nthree\n" });
    for (const offset of [true, 1.5, "", "abc", -1]) {
      const call = await session.run("read", { filePath: "n.txt", offset });
      expect(call.status, `offset ${JSON.stringify(offset)}`).toBe("error");
      expect(call.error ?? "").toMatch(/offset/);
      expect(call.output ?? "").not.toContain("00002| two");
    }
    const text = await session.run("read", { filePath: "n.txt", offset: "1", limit: "1" });
    expect(text.output).toContain("00002| two\n");
    expect(text.output).not.toContain("00001|");
    await held(sentinel);
  });

  it('read: filePath "" is refused instead of listing the workspace', async () => {
    const { session, sentinel } = await open({ "a.txt": "a\n" });
    const call = await session.run("read", { filePath: "" });
    expect(call.status).toBe("error");
    expect(call.error).toContain("filePath is empty: give the path of the file (or folder) to read");
    expect(call.output ?? "").not.toContain("a.txt");
    const spaces = await session.run("read", { filePath: "   " });
    expect(spaces.status).toBe("error");
    await held(sentinel);
  });

  it("a path with a NUL is refused with the NUL escaped, never echoed raw", async () => {
    const { session, sentinel } = await open({ "a.txt": "a\n" });
    for (const [tool, args] of [
      ["read", { filePath: "a.txt\u0000../../etc/passwd" }],
      ["write", { filePath: "b\u0000.txt", content: "x" }],
      ["list", { path: "sub\u0000dir" }],
    ] as const) {
      const call = await session.run(tool, { ...args });
      expect(call.status, tool).toBe("error");
      expect(call.error, tool).toContain("contains a NUL character (\\u0000)");
      expect(call.error, tool).not.toContain("\u0000");
    }
    await held(sentinel);
  });
});
