/**
 * MCP servers of opencode.json in a tool session, against a real server made with the official SDK
 * (McpServer over streamable HTTP on 127.0.0.1): tools registered as server_tool with their schemas,
 * called with the permission of their id, errors, a list change mid-session, a server killed mid-call
 * (an error at once, the server shown failed, a retry that reconnects), and entries that cannot connect.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { LOCAL_NEEDS_NODE, NEEDS_TRUST } from "../../../src/session/host/mcp/manager.js";
import { mcpToolId } from "../../../src/session/host/mcp/config.js";
import type { PermissionRequest } from "../../../src/tools/permission/types.js";
import { startTestMcpServer, type TestMcpServer } from "../../support/mcp-server.js";
import { sessionWith } from "../../support/tool-session.js";
import { startWebServer } from "../../support/web-server.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(port?: number): Promise<TestMcpServer> {
  const started = await startTestMcpServer(port);
  cleanups.push(() => started.kill());
  return started;
}

async function open(mcp: Record<string, unknown>, options: { trusted?: boolean; config?: object } = {}) {
  const s = await sessionWith({ "opencode.json": JSON.stringify({ mcp, ...options.config }) }, { trusted: options.trusted ?? true });
  cleanups.push(async () => {
    await s.session.mcp.close();
    await s.dispose();
  });
  await s.session.mcp.ready();
  return s.session;
}

describe("MCP servers", () => {
  it("names tools server_tool, sanitised, with the server's JSON Schema", async () => {
    const mcp = await server();
    const session = await open({ "my.server": { type: "remote", url: mcp.url } });
    expect(session.mcp.servers()).toEqual([
      {
        name: "my.server",
        kind: "remote",
        target: mcp.url,
        status: { state: "connected", tools: ["my_server_echo", "my_server_fail", "my_server_slow"] },
      },
    ]);
    expect(mcpToolId("a b/c", "x.y")).toBe("a_b_c_x_y");
    const tools = await session.registry.tools({ providerID: "anthropic", modelID: "claude" });
    const echo = tools.find((tool) => tool.id === "my_server_echo")!;
    expect(echo.description).toBe("Echoes the text back");
    const schema = z.toJSONSchema(echo.parameters, { io: "input" }) as {
      properties: Record<string, { type: string; description?: string }>;
      required: string[];
    };
    expect(schema.properties.text).toEqual({ type: "string", description: "what to echo" });
    expect(schema.required).toEqual(["text"]);
  });

  it("calls a tool, asking the permission named by its id", async () => {
    const mcp = await server();
    const session = await open({ srv: { type: "remote", url: mcp.url } }, { config: { permission: { srv_echo: "ask" } } });
    const asked: PermissionRequest[] = [];
    session.bus.subscribe("permission.asked", (request) => {
      asked.push(request);
      queueMicrotask(() => session.permissions.reply(request.id, "once"));
    });
    const call = await session.run("srv_echo", { text: "hello" });
    expect(call.error).toBeUndefined();
    expect(call.output).toBe("echo: hello");
    expect(asked.map((request) => [request.permission, request.patterns])).toEqual([["srv_echo", ["*"]]]);
  });

  it("reports a tool's error and bad arguments as the call's error", async () => {
    const mcp = await server();
    const session = await open({ srv: { type: "remote", url: mcp.url } });
    const failed = await session.run("srv_fail", { text: "x" });
    expect(failed.status).toBe("error");
    expect(failed.error).toContain("the fail tool failed on purpose");
    const bad = await session.run("srv_echo", { text: 42 });
    expect(bad.status).toBe("error");
    expect(bad.error).toContain("The srv_echo tool was called with invalid arguments");
  });

  it("truncates a long output like any tool's", async () => {
    const mcp = await server();
    mcp.addTool("lines", () => Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n"));
    const session = await open({ srv: { type: "remote", url: mcp.url } });
    const call = await session.run("srv_lines", { text: "" });
    expect(call.metadata.truncated).toBe(true);
    expect(call.output).toContain("line 0");
    expect(call.output).not.toContain("line 4999");
  });

  it("follows tools/list_changed mid-session", async () => {
    const mcp = await server();
    const session = await open({ srv: { type: "remote", url: mcp.url } });
    mcp.addTool("shout", ({ text }) => text.toUpperCase());
    await expect.poll(() => session.registry.ids()).toContain("srv_shout");
    expect((await session.run("srv_shout", { text: "quiet" })).output).toBe("QUIET");
    mcp.removeTool("fail");
    await expect.poll(() => session.registry.ids()).not.toContain("srv_fail");
    expect(session.mcp.servers()[0]!.status).toEqual({ state: "connected", tools: ["srv_echo", "srv_slow", "srv_shout"] });
  });

  it("ends a call at once when the server is killed mid-call, shows it failed, and reconnects on retry", async () => {
    const mcp = await server();
    const session = await open({ srv: { type: "remote", url: mcp.url } });
    const running = session.run("srv_slow", { text: "x" });
    await mcp.slowStarted;
    await mcp.kill();
    const call = await running;
    expect(call.status).toBe("error");
    await expect.poll(() => session.mcp.servers()[0]!.status.state).toBe("failed");
    expect(session.registry.ids()).not.toContain("srv_echo");
    const port = Number(new URL(mcp.url).port);
    await session.mcp.retry("srv");
    expect(session.mcp.servers()[0]!.status.state).toBe("failed");
    await server(port);
    await session.mcp.retry("srv");
    expect(session.mcp.servers()[0]!.status.state).toBe("connected");
    expect((await session.run("srv_echo", { text: "back" })).output).toBe("echo: back");
  });

  it("never fails the session: unreachable, invalid, disabled, local without Node, untrusted", async () => {
    const mcp = await server();
    const gone = await startTestMcpServer();
    await gone.kill();
    const session = await open({
      down: { type: "remote", url: gone.url },
      wrong: { type: "remote", url: "ftp://x" },
      off: { type: "remote", url: mcp.url, enabled: false },
      cmd: { type: "local", command: ["my-server"] },
      toggle: { enabled: false },
    });
    const status = Object.fromEntries(session.mcp.servers().map((view) => [view.name, view.status]));
    expect(Object.keys(status)).toEqual(["down", "wrong", "off", "cmd"]);
    expect(status.down).toMatchObject({ state: "failed" });
    expect((status.down as { error: string }).error).toContain(`is the server running at ${gone.url}?`);
    expect(status.wrong).toEqual({ state: "failed", error: "opencode.json mcp.wrong: url must be an http or https URL" });
    expect(status.off).toEqual({ state: "disabled" });
    expect(status.cmd).toEqual({ state: "failed", error: LOCAL_NEEDS_NODE });
    expect((await session.run("read", { filePath: "opencode.json" })).status).toBe("completed");

    const untrusted = await open({ srv: { type: "remote", url: mcp.url } }, { trusted: false });
    expect(untrusted.mcp.servers()[0]!.status).toEqual({ state: "failed", error: NEEDS_TRUST });
    expect(untrusted.registry.ids()).not.toContain("srv_echo");
  });

  it("sends the entry's headers with every request, and no cookies", async () => {
    const mcp = await server();
    const session = await open({ srv: { type: "remote", url: mcp.url, headers: { "X-Token": "t0k" } } });
    await session.run("srv_echo", { text: "x" });
    expect(mcp.headers.length).toBeGreaterThanOrEqual(3);
    for (const headers of mcp.headers) {
      expect(headers["x-token"]).toBe("t0k");
      expect(headers.cookie).toBeUndefined();
    }
  });

  it("gives up on a server that never answers after the entry's timeout", async () => {
    const silent = await startWebServer({ "/mcp": () => {} });
    cleanups.push(() => silent.close());
    const session = await open({ mute: { type: "remote", url: `${silent.url}/mcp`, timeout: 300 } });
    expect(session.mcp.servers()[0]!.status).toEqual({
      state: "failed",
      error: 'connecting to the MCP server "mute" took longer than 0.3 s',
    });
  });
});
