/**
 * Real MCP servers for tests, made with the official SDK's McpServer and its streamable HTTP transport on
 * 127.0.0.1: an Exa stand-in (stateless, answering web_search_exa and get_code_context_exa as the hosted
 * endpoint does) and a configurable server whose tools a test can add, remove and make fail mid-session.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface ExaStandIn {
  url: string;
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * Exa's endpoint as websearch/codesearch use it: a bare `tools/call` POST, no initialize, answered as SSE.
 * `answer` decides the text per call (undefined: an empty result, as when nothing is found).
 */
export async function startExaStandIn(answer: (tool: string, args: Record<string, unknown>) => string | undefined): Promise<ExaStandIn> {
  const calls: ExaStandIn["calls"] = [];
  const make = () => {
    const mcp = new McpServer({ name: "exa-stand-in", version: "1.0.0" });
    const respond = (tool: string) => async (args: Record<string, unknown>) => {
      calls.push({ tool, args });
      const text = answer(tool, args);
      return { content: text === undefined ? [] : [{ type: "text" as const, text }] };
    };
    mcp.registerTool(
      "web_search_exa",
      {
        inputSchema: {
          query: z.string(),
          numResults: z.number().optional(),
          type: z.string().optional(),
          livecrawl: z.string().optional(),
          contextMaxCharacters: z.number().optional(),
        },
      },
      respond("web_search_exa"),
    );
    mcp.registerTool(
      "get_code_context_exa",
      { inputSchema: { query: z.string(), tokensNum: z.number().optional() } },
      respond("get_code_context_exa"),
    );
    return mcp;
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    // Stateless, one server per request, as the SDK recommends; Exa's endpoint takes calls without initialize.
    const mcp = make();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  const url = await listen(server);
  return { url: `${url}/mcp`, calls, close: closer(server) };
}

export interface TestMcpServer {
  url: string;
  /** Every McpServer made (one per client session); tools are added to all of them. */
  servers: McpServer[];
  addTool(name: string, run: (args: { text: string }) => Promise<string> | string): void;
  removeTool(name: string): void;
  /** Resolves when a call to `slow` has started (for killing the server mid-call). */
  slowStarted: Promise<void>;
  /** The headers of every request received. */
  headers: Array<Record<string, string | string[] | undefined>>;
  kill(): Promise<void>;
}

/**
 * A stateful streamable HTTP server with tools `echo` (returns its text), `fail` (throws), `slow` (never
 * answers) and whatever the test adds; list changes are announced to every connected client.
 */
export async function startTestMcpServer(port = 0, options: { cors?: boolean } = {}): Promise<TestMcpServer> {
  const servers: McpServer[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const extra = new Map<string, (args: { text: string }) => Promise<string> | string>();
  const registered: Array<Map<string, RegisteredTool>> = [];
  let markSlow: () => void = () => {};
  const slowStarted = new Promise<void>((resolve) => (markSlow = resolve));

  const make = () => {
    const mcp = new McpServer({ name: "test-server", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
    const tools = new Map<string, RegisteredTool>();
    tools.set(
      "echo",
      mcp.registerTool(
        "echo",
        { description: "Echoes the text back", inputSchema: { text: z.string().describe("what to echo") } },
        ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
      ),
    );
    tools.set(
      "fail",
      mcp.registerTool("fail", { description: "Always fails", inputSchema: { text: z.string() } }, () => {
        throw new Error("the fail tool failed on purpose");
      }),
    );
    tools.set(
      "slow",
      mcp.registerTool("slow", { description: "Never answers", inputSchema: { text: z.string() } }, () => {
        markSlow();
        return new Promise<never>(() => {});
      }),
    );
    for (const [name, run] of extra)
      tools.set(
        name,
        mcp.registerTool(name, { inputSchema: { text: z.string() } }, async (args) => ({
          content: [{ type: "text", text: await run(args) }],
        })),
      );
    servers.push(mcp);
    registered.push(tools);
    return mcp;
  };

  const headers: TestMcpServer["headers"] = [];
  const server = createServer(async (request, response) => {
    headers.push(request.headers);
    if (options.cors) {
      // For a page on another origin (e2e): what a remote MCP server must send for a browser client.
      response.setHeader("access-control-allow-origin", "*");
      response.setHeader("access-control-allow-headers", "*");
      response.setHeader("access-control-allow-methods", "GET, POST, DELETE, OPTIONS");
      response.setHeader("access-control-expose-headers", "mcp-session-id, mcp-protocol-version");
      if (request.method === "OPTIONS") {
        response.writeHead(204).end();
        return;
      }
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      if (typeof id === "string") {
        response.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sid) => void transports.set(sid, created),
      });
      transport = created;
      await make().connect(created);
    }
    await transport.handleRequest(request, response, body);
  });
  const base = await listen(server, port);
  const close = closer(server);
  return {
    url: `${base}/mcp`,
    servers,
    slowStarted,
    headers,
    addTool(name, run) {
      extra.set(name, run);
      servers.forEach((mcp, index) =>
        registered[index]!.set(
          name,
          mcp.registerTool(name, { inputSchema: { text: z.string() } }, async (args) => ({
            content: [{ type: "text", text: await run(args) }],
          })),
        ),
      );
    },
    removeTool(name) {
      extra.delete(name);
      for (const tools of registered) {
        tools.get(name)?.remove();
        tools.delete(name);
      }
    },
    kill: close,
  };
}
