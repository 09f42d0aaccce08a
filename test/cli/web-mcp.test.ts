/**
 * The web tools and MCP servers through the real `workbench` bin in a child process: webfetch against a
 * local site, a remote MCP server (the official SDK's, in this process) and a local stdio one (a command
 * the CLI starts), with `workbench tool` and a `workbench run` whose model calls an MCP tool.
 */
import { mkdtemp, realpath, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWorkbench } from "../support/workbench-bin.js";
import { startTestMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startProviderServer, type ProviderServer } from "../support/provider-server.js";
import { startWebServer, type WebServer } from "../support/web-server.js";

const STDIO_SERVER = join(import.meta.dirname, "../support/mcp-stdio-server.mjs");
let site: WebServer;
let mcp: TestMcpServer;
let provider: ProviderServer;
let dataDir: string;
let globalDir: string;

function workbench(args: string[]) {
  return runWorkbench(args, {
    env: { WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir, TEST_PROVIDER_KEY: "sk-test-web-mcp" },
  });
}

async function folder(config: object): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "wb-web-mcp-")));
  await writeFile(join(dir, "opencode.json"), JSON.stringify(config, null, 2));
  return dir;
}

beforeAll(async () => {
  site = await startWebServer({
    "/doc": (_q, r) => r.writeHead(200, { "content-type": "text/html" }).end("<h2>Docs</h2><p>Read <em>this</em>.</p>"),
  });
  mcp = await startTestMcpServer();
  provider = await startProviderServer();
  dataDir = await mkdtemp(join(tmpdir(), "wb-web-mcp-data-"));
  globalDir = await mkdtemp(join(tmpdir(), "wb-web-mcp-global-"));
});
afterAll(async () => {
  await Promise.all([site.close(), mcp.kill(), provider.close()]);
});

describe("workbench with web tools and MCP servers", () => {
  it("webfetch: workbench tool prints the page as markdown", async () => {
    const dir = await folder({});
    const result = await workbench(["tool", "webfetch", "--dir", dir, "--yes", "--args", JSON.stringify({ url: `${site.url}/doc` })]);
    expect(result.stderr).toBe("");
    expect(result).toMatchObject({ code: 0, stdout: "## Docs\n\nRead *this*.\n" });
  });

  it("calls a remote MCP server's tool, and says which tools exist when one is missing", async () => {
    const dir = await folder({ mcp: { remote: { type: "remote", url: mcp.url } } });
    const result = await workbench(["tool", "remote_echo", "--dir", dir, "--trust", "--yes", "--args", '{"text":"from the CLI"}']);
    expect(result).toMatchObject({ code: 0, stdout: "echo: from the CLI\n" });
    const missing = await workbench(["tool", "remote_nope", "--dir", dir, "--trust", "--yes"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("remote_echo, remote_fail, remote_slow");
  });

  it("starts a local server's command in the folder, with its entry's environment", async () => {
    const dir = await folder({
      mcp: { here: { type: "local", command: [process.execPath, STDIO_SERVER], environment: { MCP_TEST_GREETING: "hi" } } },
    });
    const result = await workbench(["tool", "here_where", "--dir", dir, "--trust", "--yes", "--args", '{"prefix":">"}']);
    expect(result.stderr).toBe("");
    // `workbench tool` hides no variables (no provider is involved); `workbench run` does, below.
    expect(result.stdout).toBe(`> ${dir} hi key=sk-test-web-mcp\n`);
  });

  it("warns about a server that cannot connect and goes on", async () => {
    const dir = await folder({ mcp: { broken: { type: "local", command: [join(dir0(), "no-such-command")] } } });
    const result = await workbench([
      "tool",
      "read",
      "--dir",
      dir,
      "--trust",
      "--yes",
      "--args",
      JSON.stringify({ filePath: join(dir, "opencode.json") }),
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^warning: MCP server broken is not connected: /);
  });

  it("exits after the call when a remote server is not running (the SSE fallback is closed too)", async () => {
    // A port nothing listens on: taken, then let go.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((done) => probe.close(done));
    const dir = await folder({ mcp: { down: { type: "remote", url: `http://127.0.0.1:${port}/mcp` } } });
    await writeFile(join(dir, "a.txt"), "still here\n");
    let killer: ReturnType<typeof setTimeout> | undefined;
    const result = await runWorkbench(
      ["tool", "read", "--dir", dir, "--trust", "--args", JSON.stringify({ filePath: join(dir, "a.txt") })],
      {
        env: { WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir },
        // Before the fix it printed the file and never exited: ended here after 40 s, the code is null.
        onStart: (pid) => (killer = setTimeout(() => process.kill(pid, "SIGKILL"), 40_000)),
      },
    );
    clearTimeout(killer);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("still here");
    expect(result.stderr).toMatch(/^warning: MCP server down is not connected: /);
  }, 60_000);

  it("workbench run: the model calls MCP tools and gets their output; the provider key stays out of local servers", async () => {
    const dir = await folder({
      provider: {
        local: {
          npm: "@ai-sdk/openai-compatible",
          name: "Local test server",
          options: { baseURL: provider.openaiBaseURL, apiKey: "{env:TEST_PROVIDER_KEY}" },
          models: { "coder-1": { name: "Coder 1", limit: { context: 100000, output: 4000 } } },
        },
      },
      model: "local/coder-1",
      mcp: { remote: { type: "remote", url: mcp.url }, here: { type: "local", command: [process.execPath, STDIO_SERVER] } },
    });
    provider.enqueue(
      {
        step: {
          toolCalls: [
            { name: "remote_echo", input: { text: "via the model" } },
            { name: "here_where", input: { prefix: "run" } },
          ],
        },
      },
      { step: { text: "The server echoed it." } },
    );
    const before = provider.requests.length;
    const result = await workbench(["run", "--trust", "--yes", "--dir", dir, "echo something"]);
    expect(result.code).toBe(0);
    const first = provider.requests[before]!.body as { tools: Array<{ function: { name: string; parameters: { properties: object } } }> };
    const echo = first.tools.find((tool) => tool.function.name === "remote_echo")!;
    expect(echo.function.parameters.properties).toEqual({ text: { type: "string", description: "what to echo" } });
    const second = provider.requests[before + 1]!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(second.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
      "echo: via the model",
      `run ${dir} (no greeting) key=hidden`,
    ]);
  });
});

function dir0(): string {
  return tmpdir();
}
