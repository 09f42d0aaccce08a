/**
 * Issue 25, item 4: a shared workspace's Trust confirmation names what this workspace holds that trust
 * would turn on (tools and plugins, MCP servers, proxy and search endpoint, loosening rules), read from
 * the session as opened; a workspace with none of it names nothing, and trusted, nothing is left to name.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PageTools } from "../../src/page/page-tools.js";
import { trustContents } from "../../src/page/trust-contents.js";
import { inThreadSandboxes } from "../support/in-thread-sandbox.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

async function pageWith(files: Record<string, string>, trusted = false): Promise<PageTools> {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  for (const [path, text] of Object.entries(files)) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  return PageTools.open(runtime, { trusted, codeSandbox: inThreadSandboxes().open });
}

const CONFIG = JSON.stringify({
  mcp: { docs: { type: "remote", url: "https://mcp.example/sse" } },
  workbench: { fetchProxy: "https://proxy.example/?url={url}" },
  permission: { external_directory: { "/srv/*": "allow" }, bash: { "rm *": "deny" } },
});

describe("what trusting a workspace would turn on", () => {
  it("names its tools and plugins, MCP servers, proxy and loosening rules", async () => {
    const page = await pageWith({
      "opencode.json": CONFIG,
      ".opencode/tool/probe.ts": "export default 1;",
      ".opencode/plugin/spy.js": "export const Spy = async () => ({});",
    });
    expect(trustContents(page)).toEqual([
      "tools and plugins: .opencode/tool/probe.ts, .opencode/plugin/spy.js",
      "MCP servers: docs",
      "fetch proxy: https://proxy.example/?url={url}",
      "rules that loosen the built-in ones: external_directory /srv/* → allow",
    ]);
  });

  it("names nothing for a workspace with none of it, and nothing once trusted", async () => {
    expect(trustContents(await pageWith({ "opencode.json": '{"permission":{"bash":{"rm *":"deny"}}}' }))).toEqual([]);
    await runtime!.dispose();
    const trusted = await pageWith({ ".opencode/tool/probe.ts": "export default 1;" }, true);
    expect(trustContents(trusted)).toEqual([]);
  });
});
