/**
 * The `mcp` section of opencode.json as OpenCode writes it: each server is local (a command to run) or
 * remote (a URL), strict like OpenCode's schema. Each entry is checked on its own, so one bad entry
 * fails that server (shown with its problem) and never the workspace.
 */
import { z } from "zod";

const timeout = z
  .number({ error: "must be a number of milliseconds" })
  .int()
  .positive({ error: "must be a positive number of milliseconds" });

const LocalServerSchema = z.strictObject({
  type: z.literal("local"),
  command: z
    .array(z.string(), { error: 'must be the command and its arguments as a list, e.g. ["npx", "-y", "my-mcp-server"]' })
    .min(1, { error: "must name a command" }),
  environment: z.record(z.string(), z.string(), { error: "must be an object of variable names to strings" }).optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  timeout: timeout.optional(),
});

const RemoteServerSchema = z.strictObject({
  type: z.literal("remote"),
  url: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  headers: z.record(z.string(), z.string(), { error: "must be an object of header names to strings" }).optional(),
  oauth: z
    .union([
      z.literal(false),
      z.strictObject({ clientId: z.string().optional(), clientSecret: z.string().optional(), scope: z.string().optional() }),
    ])
    .optional(),
  timeout: timeout.optional(),
});

const McpEntrySchema = z.discriminatedUnion("type", [LocalServerSchema, RemoteServerSchema], {
  error: 'must have "type": "local" (with "command") or "type": "remote" (with "url")',
});

export type LocalServer = z.infer<typeof LocalServerSchema>;
type RemoteServer = z.infer<typeof RemoteServerSchema>;
export type McpEntry = z.infer<typeof McpEntrySchema>;

/** One server as read: its entry, or why it cannot be used. `{ enabled }` alone (a toggle for another layer) is skipped. */
export type ServerConfig = { name: string; entry: McpEntry } | { name: string; problem: string };

export function serversOf(section: unknown): ServerConfig[] {
  if (section === undefined) return [];
  if (typeof section !== "object" || section === null || Array.isArray(section)) {
    return [{ name: "mcp", problem: "the mcp section must be an object of server names to their settings" }];
  }
  const servers: ServerConfig[] = [];
  for (const [name, value] of Object.entries(section)) {
    if (typeof value === "object" && value !== null && !("type" in value)) continue;
    const parsed = McpEntrySchema.safeParse(value);
    if (parsed.success) servers.push({ name, entry: parsed.data });
    else
      servers.push({
        name,
        problem: `opencode.json mcp.${name}: ${parsed.error.issues.map((issue) => `${issue.path.length ? `${issue.path.join(".")} ` : ""}${issue.message}`).join("; ")}`,
      });
  }
  return servers;
}

/** OpenCode's tool ids for MCP tools: `server_tool`, each part with anything but letters, digits, _ and - made _. */
function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

export function mcpToolId(server: string, tool: string): string {
  return `${sanitize(server)}_${sanitize(tool)}`;
}
