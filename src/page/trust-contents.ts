/**
 * What an untrusted workspace holds that trusting it would turn on, one line each, for the confirmation a
 * shared workspace takes: its own tools and plugins, its MCP servers, its fetch proxy and search endpoint,
 * and its rules that loosen the built-in ones. Read from the session as opened, so it names what is there.
 */
import type { PageTools } from "./page-tools.js";

export function trustContents(page: PageTools): string[] {
  const root = page.session.runtime.root.replace(/\/+$/, "");
  const relative = (file: string) => (file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file);
  const lines: string[] = [];
  if (page.untrustedFiles.length > 0) lines.push(`tools and plugins: ${page.untrustedFiles.map(relative).join(", ")}`);
  const config = page.session.config;
  const mcp = Object.keys((config.mcp as Record<string, unknown> | undefined) ?? {});
  if (mcp.length > 0) lines.push(`MCP servers: ${mcp.join(", ")}`);
  const workbench = config.workbench as { fetchProxy?: unknown; exaUrl?: unknown } | undefined;
  if (typeof workbench?.fetchProxy === "string" && workbench.fetchProxy.trim()) lines.push(`fetch proxy: ${workbench.fetchProxy.trim()}`);
  if (typeof workbench?.exaUrl === "string") lines.push(`search endpoint: ${workbench.exaUrl}`);
  const loosened = page
    .rulesInForce()
    .filter((layer) => layer.ignored)
    .flatMap((layer) => layer.rules.map((rule) => `${rule.permission} ${rule.pattern} → ${rule.action}`));
  if (loosened.length > 0) lines.push(`rules that loosen the built-in ones: ${loosened.join("; ")}`);
  return lines;
}
