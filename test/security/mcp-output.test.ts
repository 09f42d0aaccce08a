/**
 * What an MCP server sends back is bounded like any tool's output, its errors included: a server that
 * answers a call with a 1 MB error must not put 1 MB into the call record, the transcript and every later
 * request to the model. A real server made with the official SDK on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_BYTES, MAX_LINES } from "../../src/tools/truncation/constants.js";
import { startTestMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { sessionWith } from "../support/tool-session.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(): Promise<TestMcpServer> {
  const started = await startTestMcpServer();
  cleanups.push(() => started.kill());
  return started;
}

describe("an MCP server's errors are bounded like outputs", () => {
  it("a huge error is cut to the output limits, saying how much was left out", async () => {
    const mcp = await server();
    mcp.addTool("explode", () => {
      throw new Error(Array.from({ length: 40_000 }, (_, i) => `trace line ${i} ${"x".repeat(20)}`).join("\n"));
    });
    const s = await sessionWith({
      "opencode.json": JSON.stringify({ mcp: { srv: { type: "remote", url: mcp.url } }, permission: { "*": "allow" } }),
    });
    cleanups.push(async () => {
      await s.session.mcp.close();
      await s.dispose();
    });
    await s.session.mcp.ready();
    const call = await s.session.run("srv_explode", { text: "x" });
    expect(call.status).toBe("error");
    expect(call.error).toContain("trace line 0 ");
    expect(new TextEncoder().encode(call.error!).length).toBeLessThanOrEqual(MAX_BYTES + 512);
    expect(call.error!.split("\n").length).toBeLessThanOrEqual(MAX_LINES + 2);
    expect(call.error).toMatch(/cut/);
  });
});
