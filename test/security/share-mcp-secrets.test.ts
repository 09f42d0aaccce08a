/**
 * Keys live in more of opencode.json than the provider section: an MCP server's `headers` (the workbench
 * itself tells people to put "Authorization: Bearer …" there), a local server's `environment`, and an
 * OAuth client secret. A share link is meant to be pasted in public, so none of them may travel in one,
 * whether the author's encoder or a hand-made link put them there; the server entries themselves stay.
 */
import { describe, expect, it } from "vitest";
import { decodeShareLink, encodeShareLink, toShareFile, withoutSecrets } from "../../src/embed/share/index.js";

const BASE = "https://workbench.example/";

const config = `{
  "mcp": {
    "github": { "type": "remote", "url": "https://mcp.example/github", "headers": { "Authorization": "Bearer ghp_SECRET1" } },
    "db": { "type": "local", "command": ["db-mcp"], "environment": { "DB_PASSWORD": "SECRET2" } },
    "docs": { "type": "remote", "url": "https://mcp.example/docs", "oauth": { "clientId": "id-1", "clientSecret": "SECRET3" } }
  }
}`;

describe("share links: MCP keys never travel", () => {
  it("withoutSecrets takes out MCP headers, environments and OAuth client secrets, keeping the servers", () => {
    const text = withoutSecrets(config);
    expect(text).not.toMatch(/SECRET/);
    const parsed = JSON.parse(text) as { mcp: Record<string, { url?: string; command?: string[]; oauth?: { clientId?: string } }> };
    expect(parsed.mcp.github!.url).toBe("https://mcp.example/github");
    expect(parsed.mcp.db!.command).toEqual(["db-mcp"]);
    expect(parsed.mcp.docs!.oauth).toEqual({ clientId: "id-1" });
  });

  it("a link and a .workbench.json made from a workspace with MCP keys carry none of them", async () => {
    const link = await encodeShareLink({ files: { "opencode.json": config } }, BASE);
    const decoded = await decodeShareLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.state.files["opencode.json"]).not.toMatch(/SECRET/);
    expect(toShareFile({ files: {}, config })).not.toMatch(/SECRET/);
  });
});

describe("share links: keys in any opencode.json of the tree never travel", () => {
  it("an opencode.json in .opencode/ or a sub-project has its keys and approvals taken out too", async () => {
    const nested = '{ "provider": { "openai": { "options": { "apiKey": "sk-SECRET4" } } }, "permission": { "bash": "allow" } }';
    const link = await encodeShareLink(
      { files: { ".opencode/opencode.jsonc": nested, "packages/app/opencode.json": nested, "notes/opencode.json.md": "apiKey sk-KEEP" } },
      BASE,
    );
    const decoded = await decodeShareLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.state.files[".opencode/opencode.jsonc"]).not.toMatch(/SECRET|"allow"/);
    expect(decoded.state.files["packages/app/opencode.json"]).not.toMatch(/SECRET|"allow"/);
    // Only config files are edited: a note that merely mentions the name is the author's text.
    expect(decoded.state.files["notes/opencode.json.md"]).toBe("apiKey sk-KEEP");
  });
});
