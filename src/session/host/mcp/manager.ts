/**
 * The workspace's MCP servers for one session: each enabled remote server is connected with the official
 * SDK client (streamable HTTP, then SSE for older servers), a local one through the transport the host
 * gives (the CLI runs the command; the page cannot); their tools are registered in the session's registry
 * as `server_tool` while the session runs, and follow the server's tools/list_changed. A server that fails
 * to connect or dies is a status with its error and a retry, never an error of the session.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { BUILTIN_IDS } from "../../../tools/builtins.js";
import type { ToolRegistry } from "../../../tools/registry.js";
import { mcpToolId, serversOf, type LocalServer, type McpEntry } from "./config.js";
import { LOCAL_NEEDS_NODE, NEEDS_TRUST } from "./messages.js";
import type { mcpTool as McpToolFactory } from "./tool.js";
import { errorMessage } from "../../../base/error-message.js";

/** `experimental.mcp_timeout`'s default, as in the SDK. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

export type McpStatus =
  | { state: "connecting" }
  /** `left`: the server's tools not registered, each with why (its id is a built-in's or another tool's). */
  | { state: "connected"; tools: string[]; left?: string[] }
  | { state: "failed"; error: string }
  | { state: "disabled" };

export interface McpServerView {
  name: string;
  kind: "local" | "remote" | "invalid";
  /** The URL, or the command as one line. */
  target: string;
  status: McpStatus;
}

/** Runs a local server's command (Node only); absent in the page. */
export type LocalTransportFactory = (entry: LocalServer, cwd: string) => Transport;

export { LOCAL_NEEDS_NODE, NEEDS_TRUST } from "./messages.js";

export interface McpManagerOptions {
  registry: ToolRegistry;
  /** The `mcp` section of opencode.json. */
  section: unknown;
  /** `experimental.mcp_timeout`: the default time a tool call may take. */
  callTimeoutMs?: number;
  trusted: boolean;
  cwd: string;
  local?: LocalTransportFactory;
}

interface Connection {
  name: string;
  entry?: McpEntry;
  problem?: string;
  status: McpStatus;
  client?: Client;
  ids: string[];
  /** Aborted when the connection is lost; replaced on each connect. */
  lost: AbortController;
  attempt: number;
  ready: Promise<void>;
}

function message(error: unknown): string {
  return errorMessage(error);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class McpManager {
  private readonly connections = new Map<string, Connection>();
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private started = false;
  private makeTool?: typeof McpToolFactory;

  constructor(private readonly options: McpManagerOptions) {
    for (const server of serversOf(options.section)) {
      const connection: Connection = {
        name: server.name,
        ...("entry" in server ? { entry: server.entry } : { problem: server.problem }),
        status: { state: "connecting" },
        ids: [],
        lost: new AbortController(),
        attempt: 0,
        ready: Promise.resolve(),
      };
      this.connections.set(server.name, connection);
    }
  }

  /** Starts connecting every server (once); the session starts it unless its host wants to first (the CLI). */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const connection of this.connections.values()) connection.ready = this.connect(connection);
  }

  /** Resolves once every started server has connected or failed (the CLI waits; the page does not). */
  async ready(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.ready));
  }

  /** Calls `listener` whenever a server's status or tools change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  servers(): McpServerView[] {
    return [...this.connections.values()].map((connection) => ({
      name: connection.name,
      kind: connection.entry?.type ?? "invalid",
      target: !connection.entry ? "" : connection.entry.type === "remote" ? connection.entry.url : connection.entry.command.join(" "),
      status: connection.status,
    }));
  }

  /** Connects a failed (or connected) server again; resolves when it has connected or failed. */
  retry(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection) return Promise.reject(new Error(`there is no MCP server named "${name}" in opencode.json`));
    connection.ready = this.connect(connection);
    return connection.ready;
  }

  /** Closes every client and removes the servers' tools (the session ends or is reopened). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.connections.values()].map((connection) => this.drop(connection, undefined)));
  }

  private setStatus(connection: Connection, status: McpStatus): void {
    connection.status = status;
    for (const listener of this.listeners) listener();
  }

  /** Closes the client, ends calls in flight, removes the tools; `error` makes the status failed. */
  private async drop(connection: Connection, error: string | undefined): Promise<void> {
    const client = connection.client;
    connection.client = undefined;
    connection.lost.abort(new Error(`the MCP server "${connection.name}" ${error ? `failed: ${error}` : "was disconnected"}`));
    for (const id of connection.ids) this.options.registry.unregister(id);
    connection.ids = [];
    if (error !== undefined) this.setStatus(connection, { state: "failed", error });
    await client?.close().catch(() => {});
  }

  private async connect(connection: Connection): Promise<void> {
    const attempt = ++connection.attempt;
    await this.drop(connection, undefined);
    const { entry } = connection;
    if (!entry) return this.setStatus(connection, { state: "failed", error: connection.problem ?? "invalid entry" });
    if (entry.enabled === false) return this.setStatus(connection, { state: "disabled" });
    if (!this.options.trusted) return this.setStatus(connection, { state: "failed", error: NEEDS_TRUST });
    if (entry.type === "local" && !this.options.local) return this.setStatus(connection, { state: "failed", error: LOCAL_NEEDS_NODE });
    this.setStatus(connection, { state: "connecting" });
    const lost = new AbortController();
    connection.lost = lost;
    const timeoutMs = entry.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
    let client: Client | undefined;
    let abandoned = false;
    try {
      const opening = this.open(connection, entry);
      // A connection that completes after its timeout must not linger: it is closed when it arrives.
      opening.then(
        (late) => abandoned && void late.close().catch(() => {}),
        () => {},
      );
      client = await withTimeout(opening, timeoutMs, `connecting to the MCP server "${connection.name}"`);
      if (attempt !== connection.attempt || this.closed) {
        await client.close().catch(() => {});
        return;
      }
      connection.client = client;
      const opened = client;
      // A transport closing (process exit, connection reset) is the server gone: its tools go with it.
      client.onclose = () => {
        if (connection.client === opened) void this.drop(connection, "the connection closed");
      };
      client.onerror = (error) => {
        if (connection.client === opened) void this.checkAlive(connection, opened, error);
      };
      const { tools } = await withTimeout(client.listTools(), timeoutMs, `listing the tools of "${connection.name}"`);
      // With the SDK, on first use: reading JSON Schemas into zod pulls in code the first paint does without.
      this.makeTool ??= (await import("./tool.js")).mcpTool;
      this.install(connection, tools);
    } catch (error) {
      abandoned = true;
      if (attempt !== connection.attempt) return;
      connection.client = client;
      await this.drop(connection, this.explain(entry, error));
    }
  }

  private async open(connection: Connection, entry: McpEntry): Promise<Client> {
    // Loaded on first use: a workspace without MCP servers never downloads the SDK's client.
    const [{ Client }, { StreamableHTTPClientTransport }, { SSEClientTransport }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/client/sse.js"),
    ]);
    const make = () =>
      new Client(
        { name: "workbench", version: "0.1.0" },
        {
          listChanged: {
            tools: {
              debounceMs: 0,
              onChanged: (error, tools) => {
                if (connection.client !== client) return;
                if (error) void this.checkAlive(connection, client, error);
                else if (tools) this.install(connection, tools);
              },
            },
          },
        },
      );
    let client = make();
    if (entry.type === "local") {
      await client.connect(this.options.local!(entry, this.options.cwd));
      return client;
    }
    const requestInit: RequestInit = { headers: entry.headers ?? {}, credentials: "omit" };
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit }));
      return client;
    } catch (streamable) {
      // Older servers speak only the SSE transport; an answer that rules that out stops here.
      const status = (streamable as { code?: number }).code;
      if (status === 401 || status === 403) throw streamable;
      await client.close().catch(() => {});
      client = make();
      try {
        await client.connect(new SSEClientTransport(new URL(entry.url), { requestInit }));
        return client;
      } catch {
        // Closed, or the SSE transport's event source keeps reconnecting (and a CLI never exits).
        await client.close().catch(() => {});
        throw streamable;
      }
    }
  }

  /** After a transport error: a server that still answers a ping stays; otherwise it has failed. */
  private async checkAlive(connection: Connection, client: Client, error: Error): Promise<void> {
    try {
      await withTimeout(client.ping(), 5_000, "ping");
    } catch {
      if (connection.client === client) await this.drop(connection, `the server stopped answering (${message(error)})`);
    }
  }

  private install(connection: Connection, tools: McpTool[]): void {
    const entry = connection.entry!;
    const client = connection.client;
    const mcpTool = this.makeTool;
    if (!client || !mcpTool) return;
    const ids: string[] = [];
    const left: string[] = [];
    for (const id of connection.ids) this.options.registry.unregister(id);
    const builtins = BUILTIN_IDS;
    for (const tool of tools) {
      const id = mcpToolId(connection.name, tool.name);
      // `server_tool` can spell a built-in's id (plan_exit) or another server's or custom tool's: the
      // first holder keeps it, so a server can never stand in for a tool the person or model relies on.
      const clash = builtins.includes(id)
        ? "its id is a built-in tool's"
        : ids.includes(id)
          ? "another of this server's tools has the same id"
          : this.options.registry.get(id)
            ? "another server or a custom tool already has that id"
            : undefined;
      if (clash) {
        left.push(`${id} (${tool.name}): left out, ${clash}`);
        continue;
      }
      const lost = connection.lost;
      this.options.registry.register(
        mcpTool(id, tool, {
          server: connection.name,
          client,
          callTimeoutMs: entry.timeout ?? this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
          lost: () => lost.signal,
        }),
      );
      ids.push(id);
    }
    connection.ids = ids;
    this.setStatus(connection, { state: "connected", tools: ids, ...(left.length > 0 ? { left } : {}) });
  }

  private explain(entry: McpEntry, error: unknown): string {
    const text = message(error);
    const status = (error as { code?: number }).code;
    if (status === 401 || status === 403 || /unauthori[sz]ed/i.test(text)) {
      return `${text}: the server wants authorization; OAuth sign-in is not supported here, so put a token in the entry's "headers" (e.g. "Authorization": "Bearer …")`;
    }
    if (entry.type === "remote" && /fetch failed|Failed to fetch|NetworkError|ECONNREFUSED/i.test(text)) {
      return `${text}: is the server running at ${entry.url}? From the page, it must also allow this page's origin (CORS) and expose the mcp-session-id header`;
    }
    return text;
  }
}
