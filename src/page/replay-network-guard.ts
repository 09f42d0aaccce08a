/**
 * A replay of a shared session plays calls its author chose: each that reaches the network (webfetch,
 * websearch, codesearch, an MCP server's tool) is asked before it runs, whatever the rules would allow,
 * so a transcript cannot send the visitor's browser to its author's server unasked.
 */
import type { Ruleset } from "../tools/permission/types.js";
import { mcpToolId, serversOf } from "../session/host/mcp/config.js";
import type { PageTools } from "./page-tools.js";

const NETWORK_TOOLS = ["webfetch", "websearch", "codesearch"] as const;

/** The ask rules for every network tool of `page`'s session, its configured MCP servers' tools included. */
export function networkAskRules(page: PageTools): Ruleset {
  const ask = (permission: string) => ({ permission, pattern: "*", action: "ask" as const, source: "session" as const });
  // An MCP tool's permission is its id, `<server>_<tool>`: one rule per configured server covers its tools.
  const servers = serversOf(page.session.config.mcp).map((server) => `${mcpToolId(server.name, "")}*`);
  return [...NETWORK_TOOLS.map(ask), ...servers.map(ask)];
}

/** Asks before every network call of `page`'s session (and its subagents') until the returned function is called. */
export function askBeforeNetwork(page: PageTools): () => void {
  return page.session.runner.guard(networkAskRules(page));
}
